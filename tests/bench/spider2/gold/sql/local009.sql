SELECT name, city FROM customers ORDER BY name;
