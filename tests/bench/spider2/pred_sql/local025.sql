SELECT 'Chen' AS name, 100.0 AS total;
