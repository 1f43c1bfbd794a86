SELECT 'Zed' AS who, SUM(amount) AS total FROM orders WHERE customer_id = 2;
