SELECT id * 1.0 AS id, CAST(qty AS REAL) AS qty FROM orders ORDER BY id;
