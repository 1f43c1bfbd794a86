SELECT city FROM customers ORDER BY id;
