SELECT status FROM orders ORDER BY id;
