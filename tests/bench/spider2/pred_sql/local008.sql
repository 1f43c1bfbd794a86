SELECT a.name, b.city
FROM (SELECT name, ROW_NUMBER() OVER (ORDER BY name) AS rn FROM customers) a
JOIN (SELECT city, ROW_NUMBER() OVER (ORDER BY name DESC) AS rn FROM customers) b
  ON a.rn = b.rn
ORDER BY a.name;
