SELECT id AS order_id, COALESCE(discount, 0) AS discount FROM orders ORDER BY id;
