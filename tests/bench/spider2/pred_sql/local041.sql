SELECT status FROM orders ORDER BY status;
