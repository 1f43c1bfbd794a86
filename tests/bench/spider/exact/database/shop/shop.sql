-- Customers, products, orders and order lines.
CREATE TABLE customer (
  customer_id INTEGER PRIMARY KEY,
  name TEXT,
  city TEXT,
  email TEXT,
  joined_year INTEGER
);
CREATE TABLE product (
  product_id INTEGER PRIMARY KEY,
  product_name TEXT,
  category TEXT,
  price REAL,
  stock_value REAL
);
CREATE TABLE orders (
  order_id INTEGER PRIMARY KEY,
  customer_id INTEGER,
  order_date TEXT,
  status TEXT,
  FOREIGN KEY (customer_id) REFERENCES customer(customer_id)
);
CREATE TABLE order_item (
  order_id INTEGER,
  product_id INTEGER,
  quantity INTEGER,
  unit_price REAL,
  PRIMARY KEY (order_id, product_id),
  FOREIGN KEY (order_id) REFERENCES orders(order_id),
  FOREIGN KEY (product_id) REFERENCES product(product_id)
);
INSERT INTO customer VALUES (1, 'Ann Lowe', 'Oslo', 'ann@example.com', 2019);
INSERT INTO customer VALUES (2, 'Bo Chen', 'Lima', 'bo@example.com', 2021);
INSERT INTO customer VALUES (3, 'Cy Okafor', 'Oslo', NULL, 2020);
INSERT INTO customer VALUES (4, 'Di Rossi', 'Rome', 'di@example.com', 2022);
INSERT INTO product VALUES (1, 'lamp', 'home', 25.0, 500.0);
INSERT INTO product VALUES (2, 'desk', 'office', 180.0, 3600.0);
INSERT INTO product VALUES (3, 'chair', 'office', 75.5, 1510.0);
INSERT INTO product VALUES (4, 'rug', 'home', 60.0, 0.0);
INSERT INTO product VALUES (5, 'pen', 'office', 2.5, 250.0);
INSERT INTO orders VALUES (100, 1, '2024-01-05', 'shipped');
INSERT INTO orders VALUES (101, 2, '2024-01-09', 'pending');
INSERT INTO orders VALUES (102, 1, '2024-02-11', 'shipped');
INSERT INTO orders VALUES (103, 4, '2024-02-20', 'cancelled');
INSERT INTO order_item VALUES (100, 1, 2, 25.0);
INSERT INTO order_item VALUES (100, 5, 10, 2.5);
INSERT INTO order_item VALUES (101, 2, 1, 180.0);
INSERT INTO order_item VALUES (102, 3, 4, 70.0);
INSERT INTO order_item VALUES (102, 5, 3, 2.5);
INSERT INTO order_item VALUES (103, 4, 1, 60.0);
