SELECT 'Nobody' AS name, 100.49 AS total;
