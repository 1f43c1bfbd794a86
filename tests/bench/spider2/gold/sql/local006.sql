SELECT COUNT(*) AS n_customers FROM customers;
