SELECT status FROM orders GROUP BY status UNION ALL SELECT 'paid';
