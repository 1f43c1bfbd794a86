SELECT CASE WHEN id = 5 THEN 'five' ELSE id END AS customer_id FROM customers ORDER BY id;
