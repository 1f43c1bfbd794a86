-- Invented toy database for the qeval Spider 2.0-lite fixture.
CREATE TABLE students (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  grade INTEGER NOT NULL,
  score REAL
);
INSERT INTO students VALUES (1, 'Ann', 9, 88.5);
INSERT INTO students VALUES (2, 'Ben', 10, 92.0);
INSERT INTO students VALUES (3, 'Cal', 9, NULL);
INSERT INTO students VALUES (4, 'Dee', 11, 75.25);
