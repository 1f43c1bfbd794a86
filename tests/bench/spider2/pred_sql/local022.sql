SELECT c.name, o.amount FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.qty = 3;
