SELEC name FROM customers;
