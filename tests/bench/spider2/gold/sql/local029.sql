SELECT name FROM customers;
