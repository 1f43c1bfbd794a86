-- Invented toy database for the qeval Spider 2.0-lite fixture.
CREATE TABLE customers (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  city TEXT,
  signup TEXT
);
INSERT INTO customers VALUES (1, 'Alice', 'Paris', '2021-01-05');
INSERT INTO customers VALUES (2, 'Bob', 'Lyon', '2021-02-11');
INSERT INTO customers VALUES (3, 'Chen', 'Paris', '2021-03-20');
INSERT INTO customers VALUES (4, 'Dana', 'Nice', '2021-04-02');
INSERT INTO customers VALUES (5, 'Eve', NULL, '2021-05-15');

CREATE TABLE orders (
  id INTEGER PRIMARY KEY,
  customer_id INTEGER NOT NULL REFERENCES customers(id),
  amount REAL NOT NULL,
  qty INTEGER NOT NULL,
  discount REAL,
  status TEXT NOT NULL
);
INSERT INTO orders VALUES (1, 1, 10.5, 2, NULL, 'paid');
INSERT INTO orders VALUES (2, 1, 20.25, 1, 3.0, 'paid');
INSERT INTO orders VALUES (3, 2, 5.0, 5, NULL, 'refunded');
INSERT INTO orders VALUES (4, 3, 99.99, 1, 0.0, 'paid');
INSERT INTO orders VALUES (5, 3, 0.5, 10, NULL, 'pending');
INSERT INTO orders VALUES (6, 4, 42.0, 3, 1.5, 'paid');
INSERT INTO orders VALUES (7, 5, 7.75, 4, NULL, 'paid');
