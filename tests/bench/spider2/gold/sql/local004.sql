SELECT id AS order_id, qty FROM orders ORDER BY id;
