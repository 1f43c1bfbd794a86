SELECT id AS customer_id FROM customers ORDER BY id;
