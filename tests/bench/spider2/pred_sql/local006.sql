SELECT COUNT(*) FROM customers;
