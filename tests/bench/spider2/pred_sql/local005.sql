SELECT MIN(id) AS id, MIN(name) AS name, city FROM customers WHERE city IS NOT NULL GROUP BY city ORDER BY city;
