SELECT COUNT(*) FROM book	library
SELECT title FROM book WHERE year = 1962	library
SELECT title, pages FROM book WHERE pages > 150	library
SELECT member FROM loan	library
SELECT member, days FROM loan ORDER BY loan_id	library
SELECT T1.name FROM author AS T1 INNER JOIN book AS T2 ON T1.author_id = T2.author_id WHERE T2.year < 1970	library
SELECT AVG(days) FROM loan	library
SELECT country FROM author WHERE country IS NOT NULL	library
SELECT title FROM book WHERE pages = 200	library
SELECT COUNT(*) FROM loan WHERE days = 7	library
SELECT CAST(COUNT(*) AS REAL) / 12 FROM book	library
SELECT name FROM author WHERE name LIKE 'X%'	library
SELECT year FROM book WHERE book_id = 1	library
SELECT title FROM book ORDER BY pages DESC, book_id LIMIT 3	library
SELECT city FROM store	sales
SELECT SUM(amount) FROM sale WHERE store_id = 1	sales
SELECT store_id, COUNT(*) FROM sale GROUP BY store_id	sales
SELECT note FROM sale WHERE sale_id < 5	sales
SELECT day, amount FROM sale WHERE amount > 20	sales
SELECT T2.city, SUM(T1.amount) FROM sale AS T1 INNER JOIN store AS T2 ON T1.store_id = T2.store_id GROUP BY T2.city	sales
SELECT opened FROM store WHERE city = 'Porto'	sales
SELECT COUNT(*) FROM sale WHERE strftime('%m', day) = '02'	sales
SELECT MAX(amount), MIN(amount) FROM sale	sales
SELECT store_id FROM sale WHERE amount = 30.0	sales
