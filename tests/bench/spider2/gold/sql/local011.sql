SELECT name, city FROM customers ORDER BY id;
