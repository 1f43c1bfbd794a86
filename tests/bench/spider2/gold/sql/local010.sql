SELECT DISTINCT status FROM orders ORDER BY status;
