SELECT COUNT(*) AS n FROM orders WHERE status = 'refunded';
