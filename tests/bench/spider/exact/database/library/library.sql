-- Members, cards, books, loans and reviews. The foreign keys are listed in tables.json in
-- an order where one key pair bridges two earlier groups (see README).
CREATE TABLE member (
  member_id INTEGER PRIMARY KEY,
  name TEXT,
  city TEXT,
  join_year INTEGER
);
CREATE TABLE card (
  card_id INTEGER PRIMARY KEY,
  holder_id INTEGER UNIQUE,
  issued TEXT,
  FOREIGN KEY (holder_id) REFERENCES member(member_id)
);
CREATE TABLE book (
  book_id INTEGER PRIMARY KEY,
  title TEXT,
  author TEXT,
  pages INTEGER,
  genre TEXT
);
CREATE TABLE loan (
  loan_id INTEGER PRIMARY KEY,
  book_id INTEGER,
  borrower_id INTEGER,
  loan_date TEXT,
  days INTEGER,
  FOREIGN KEY (book_id) REFERENCES book(book_id),
  FOREIGN KEY (borrower_id) REFERENCES card(holder_id)
);
CREATE TABLE review (
  review_id INTEGER PRIMARY KEY,
  member_id INTEGER,
  book_id INTEGER,
  rating INTEGER,
  FOREIGN KEY (member_id) REFERENCES member(member_id),
  FOREIGN KEY (book_id) REFERENCES book(book_id)
);
INSERT INTO member VALUES (1, 'Ines', 'Porto', 2018);
INSERT INTO member VALUES (2, 'Karl', 'Graz', 2020);
INSERT INTO member VALUES (3, 'Lea', 'Porto', 2021);
INSERT INTO card VALUES (1, 1, '2018-04-01');
INSERT INTO card VALUES (2, 2, '2020-06-12');
INSERT INTO card VALUES (3, 3, '2021-01-30');
INSERT INTO book VALUES (1, 'Dune', 'Herbert', 612, 'scifi');
INSERT INTO book VALUES (2, 'Emma', 'Austen', 474, 'novel');
INSERT INTO book VALUES (3, 'Ubik', 'Dick', 202, 'scifi');
INSERT INTO book VALUES (4, 'Kim', 'Kipling', 368, 'novel');
INSERT INTO loan VALUES (1, 1, 1, '2024-01-02', 14);
INSERT INTO loan VALUES (2, 3, 1, '2024-01-20', 7);
INSERT INTO loan VALUES (3, 2, 2, '2024-02-01', 21);
INSERT INTO loan VALUES (4, 1, 3, '2024-02-15', 14);
INSERT INTO review VALUES (1, 1, 1, 5);
INSERT INTO review VALUES (2, 2, 2, 3);
INSERT INTO review VALUES (3, 3, 1, 4);
INSERT INTO review VALUES (4, 1, 3, 2);
