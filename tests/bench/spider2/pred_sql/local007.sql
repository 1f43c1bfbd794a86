SELECT name FROM customers ORDER BY name;
