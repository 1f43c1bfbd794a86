SELECT COUNT(*) AS n FROM customers;
