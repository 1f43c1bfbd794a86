SELECT country, COUNT(*) AS n FROM `bigquery-public-data.example.visits` GROUP BY country;
