SELECT COUNT(*) AS n_orders FROM orders;
