SELECT name, city FROM customers WHERE city = 'Berlin';
