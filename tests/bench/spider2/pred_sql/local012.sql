SELECT id, discount FROM orders ORDER BY id;
