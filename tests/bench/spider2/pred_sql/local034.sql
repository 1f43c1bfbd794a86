SELECT status = 'paid' AS is_paid FROM orders WHERE id IN (1, 3, 4) ORDER BY id;
