SELECT SUM(qty) AS qty_total FROM orders;
