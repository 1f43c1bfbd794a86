SELECT COUNT(*) AS n FROM `bigquery-public-data.example.sessions`;
