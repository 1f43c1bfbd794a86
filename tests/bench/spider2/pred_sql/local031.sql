Here is the query you asked for:
```sql
SELECT COUNT(*) AS n_orders
FROM orders
```
It counts orders.
