#!/usr/bin/env python3
"""Generate the Spider 2.0-lite shaped fixture under tests/bench/spider2 (invented data)."""
import json
import os
import shutil

OUT = "/work/main/tests/bench/spider2"

RETAIL_SQL = """-- Invented toy database for the qeval Spider 2.0-lite fixture.
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
"""

SCHOOL_SQL = """-- Invented toy database for the qeval Spider 2.0-lite fixture.
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
"""

NAMES_BY_NAME = "name,city\nAlice,Paris\nBob,Lyon\nChen,Paris\nDana,Nice\nEve,\n"
TOTALS_DESC = "name,total_amount\nChen,100.49\nDana,42.0\nAlice,30.75\nEve,7.75\nBob,5.0\n"
TOTALS_BY_NAME = "name,total\nAlice,30.75\nBob,5.0\nChen,100.49\nDana,42.0\nEve,7.75\n"
SUM_BY_NAME_SQL = ("SELECT c.name, SUM(o.amount) AS total\nFROM customers c JOIN orders o ON o.customer_id = c.id\n"
                   "GROUP BY c.name\nORDER BY c.name;\n")
SUM_DESC_SQL = ("SELECT c.name, SUM(o.amount) AS total_amount\nFROM customers c JOIN orders o ON o.customer_id = c.id\n"
                "GROUP BY c.name\nORDER BY total_amount DESC;\n")
SCRAMBLE_SQL = ("SELECT a.name, b.city\n"
                "FROM (SELECT name, ROW_NUMBER() OVER (ORDER BY name) AS rn FROM customers) a\n"
                "JOIN (SELECT city, ROW_NUMBER() OVER (ORDER BY name DESC) AS rn FROM customers) b\n"
                "  ON a.rn = b.rn\nORDER BY a.name;\n")
SCRAMBLED = "name,city\nAlice,\nBob,Nice\nChen,Paris\nDana,Lyon\nEve,Paris\n"

# Each instance: id, db, question, cc (condition_cols), io (ignore_order),
# gold: {filename_suffix: csv text}  ("" -> <id>.csv, "_a" -> <id>_a.csv, ...)
# gold_sql (optional), pred_csv (text, None = absent), pred_sql (text, None = absent),
# in_lite (bool, default True), in_eval (default True), tests: description
I = []


def add(iid, db, question, cc, io, gold, pred_csv, pred_sql=None, gold_sql=None, tests="", in_lite=True,
        in_eval=True, ek=None):
    I.append(dict(iid=iid, db=db, question=question, cc=cc, io=io, gold=gold, pred_csv=pred_csv,
                  pred_sql=pred_sql, gold_sql=gold_sql, tests=tests, in_lite=in_lite, in_eval=in_eval, ek=ek))


add("local001", "retail", "What is the total order amount of each customer?", [], True,
    {"": TOTALS_BY_NAME}, "name,total\nAlice,30.75\nBob,5.0\nChen,100.49\nDana,42.0\nEve,7.75\n",
    SUM_BY_NAME_SQL, SUM_BY_NAME_SQL,
    "exact match, ignore_order=true, same order; header names differ (total_amount vs total)")
add("local002", "retail", "List customers by total order amount, largest first.", [], False,
    {"": TOTALS_DESC}, TOTALS_BY_NAME, SUM_BY_NAME_SQL, SUM_DESC_SQL,
    "ignore_order=false, prediction rows in another order -> 0")
add("local003", "retail", "List customers with their total order amount.", [], True,
    {"": TOTALS_DESC}, TOTALS_BY_NAME, SUM_BY_NAME_SQL, SUM_DESC_SQL,
    "ignore_order=true, prediction rows in another order -> 1")
add("local004", "retail", "Give the quantity of every order, by order id.", [], False,
    {"": "order_id,qty\n1,2\n2,1\n3,5\n4,1\n5,10\n6,3\n7,4\n"},
    "id,qty\n1.0,2.0\n2.0,1.0\n3.0,5.0\n4.0,1.0\n5.0,10.0\n6.0,3.0\n7.0,4.0\n",
    "SELECT id * 1.0 AS id, CAST(qty AS REAL) AS qty FROM orders ORDER BY id;\n",
    "SELECT id AS order_id, qty FROM orders ORDER BY id;\n",
    "ints in gold vs floats (5 vs 5.0) in prediction -> 1")
add("local005", "retail", "Which cities do customers live in?", [], True,
    {"": "city\nLyon\nNice\nParis\n"}, "id,name,city\n2,Bob,Lyon\n4,Dana,Nice\n1,Alice,Paris\n",
    "SELECT MIN(id) AS id, MIN(name) AS name, city FROM customers WHERE city IS NOT NULL GROUP BY city ORDER BY city;\n",
    "SELECT DISTINCT city FROM customers WHERE city IS NOT NULL ORDER BY city;\n",
    "extra predicted columns are allowed -> 1")
add("local006", "retail", "How many customers are there?", [], True,
    {"": "n_customers\n5\n"}, "count(*)\n5\n", "SELECT COUNT(*) FROM customers;\n",
    "SELECT COUNT(*) AS n_customers FROM customers;\n", "column renamed (names ignored) -> 1")
add("local007", "retail", "List each customer's name and city.", [], True,
    {"": NAMES_BY_NAME}, "name\nAlice\nBob\nChen\nDana\nEve\n", "SELECT name FROM customers ORDER BY name;\n",
    "SELECT name, city FROM customers ORDER BY name;\n", "a gold column missing from the prediction -> 0")
add("local008", "retail", "List each customer's name and city.", [], True,
    {"": NAMES_BY_NAME}, SCRAMBLED, SCRAMBLE_SQL, "SELECT name, city FROM customers ORDER BY name;\n",
    "row scramble (each column right, rows mixed), ignore_order=true -> 1 (issues 200/226)")
add("local009", "retail", "List each customer's name and city, ordered by name.", [], False,
    {"": NAMES_BY_NAME}, SCRAMBLED, SCRAMBLE_SQL, "SELECT name, city FROM customers ORDER BY name;\n",
    "row scramble with ignore_order=false -> 0")
add("local010", "retail", "Which order statuses exist?", [], True,
    {"": "status\npaid\npending\nrefunded\n"}, "status\npaid\npaid\npending\nrefunded\n",
    "SELECT status FROM orders GROUP BY status UNION ALL SELECT 'paid';\n",
    "SELECT DISTINCT status FROM orders ORDER BY status;\n", "duplicated predicted row (row count differs) -> 0")
add("local011", "retail", "List each customer's name and city by customer id.", [], False,
    {"": NAMES_BY_NAME}, "customer,town\nAlice,Paris\nBob,Lyon\nChen,Paris\nDana,Nice\nEve,\n",
    "SELECT name, city FROM customers ORDER BY id;\n", "SELECT name, city FROM customers ORDER BY id;\n",
    "empty cell (NULL) in gold and prediction at the same place -> 1")
add("local012", "retail", "Give the discount of each order (0 when there is none).", [], False,
    {"": "order_id,discount\n1,0\n2,3.0\n3,0\n4,0.0\n5,0\n6,1.5\n7,0\n"},
    "id,discount\n1,\n2,3.0\n3,\n4,0.0\n5,\n6,1.5\n7,\n",
    "SELECT id, discount FROM orders ORDER BY id;\n",
    "SELECT id AS order_id, COALESCE(discount, 0) AS discount FROM orders ORDER BY id;\n",
    "empty/NaN prediction cell vs gold 0 -> 1 (NaN is normalized to 0)")
add("local013", "retail", "What is the total quantity ordered?", [], True,
    {"": "qty_total\n26\n"}, '"qty_total"\n"26"\n', "SELECT '26' AS qty_total;\n",
    "SELECT SUM(qty) AS qty_total FROM orders;\n",
    "quoted number \"26\" in the csv is still parsed as a number; text '26' from SQL round-trips to 26 -> 1")
add("local014", "retail", "List customer ids.", [], False,
    {"": "customer_id\n1\n2\n3\n4\n5\n"}, "customer_id\n1\n2\n3\n4\nfive\n",
    "SELECT CASE WHEN id = 5 THEN 'five' ELSE id END AS customer_id FROM customers ORDER BY id;\n",
    "SELECT id AS customer_id FROM customers ORDER BY id;\n",
    "strings vs numbers: one non-numeric cell makes the whole column text, '1' != 1 -> 0")
add("local015", "retail", "Tolerance probe 1.0 vs 1.01", [], True,
    {"": "v\n1.0\n"}, "v\n1.01\n", "SELECT 1.01 AS v;\n", None,
    "difference of 0.01 written in decimal; as f64 1.01-1.0 = 0.010000000000000009 > 0.01 -> 0")
add("local016", "retail", "Tolerance probe 2.5 vs 2.51", [], True,
    {"": "v\n2.5\n"}, "v\n2.51\n", "SELECT 2.51 AS v;\n", None,
    "difference of 0.01 written in decimal; as f64 2.51-2.5 = 0.009999999999999787 <= 0.01 -> 1")
add("local017", "retail", "Tolerance probe 10.0 vs 10.0099", [], True,
    {"": "v\n10.0\n"}, "v\n10.0099\n", "SELECT 10.0099 AS v;\n", None, "difference 0.0099 -> 1")
add("local018", "retail", "Tolerance probe 10.0 vs 10.0101", [], True,
    {"": "v\n10.0\n"}, "v\n10.0101\n", "SELECT 10.0101 AS v;\n", None, "difference 0.0101 -> 0")
add("local019", "retail", "Tolerance probe 2e10 vs 2e10+15", [], True,
    {"": "v\n20000000000\n"}, "v\n20000000015\n", "SELECT 20000000015 AS v;\n", None,
    "math.isclose keeps its default rel_tol=1e-9: |diff|=15 <= 1e-9*2e10=20 -> 1")
add("local020", "retail", "Sort probe with ignore_order=true", [], True,
    {"": "v\n5\n9.999\n"}, "v\n5\n10.001\n", "SELECT 5 AS v UNION ALL SELECT 10.001;\n", None,
    "ignore_order sorts by str(x): '5.0'<'9.999' but '10.001'<'5.0', so the pairs misalign -> 0")
add("local021", "retail", "Sort probe with ignore_order=false", [], False,
    {"": "v\n5\n9.999\n"}, "v\n5\n10.001\n", "SELECT 5 AS v UNION ALL SELECT 10.001;\n", None,
    "same data as local020 with ignore_order=false: pairwise within 0.01 -> 1")
add("local022", "retail", "Which customer placed the order with quantity 3, and its amount?", [[0], [0, 1]], True,
    {"_a": "name,amount\nChen,99.99\n", "_b": "name,amount\nDana,42.0\n"}, "name,amount\nDana,42.0\n",
    "SELECT c.name, o.amount FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.qty = 3;\n", None,
    "two gold csvs, condition_cols list of lists; only the second (_b) matches -> 1")
add("local023", "retail", "Total amount of the customer in Lyon.", [1], True,
    {"_a": "name,total\nAlice,30.75\n", "_b": "customer,total\nBob,5.0\n"}, "who,total\nZed,5.0\n",
    "SELECT 'Zed' AS who, SUM(amount) AS total FROM orders WHERE customer_id = 2;\n", None,
    "two gold csvs, flat condition_cols [1] broadcast to both; second matches on column 1 only -> 1")
add("local024", "retail", "Top customer and total (one _a gold, condition_cols [0]).", [0], True,
    {"_a": "name,total\nChen,100.49\n"}, "name,total\nChen,100.0\n", "SELECT 'Chen' AS name, 100.0 AS total;\n", None,
    "only <id>_a.csv + flat [0]: multi path passes the int 0 (falsy) -> ALL gold columns compared -> 0")
add("local025", "retail", "Top customer and total (single gold, condition_cols [0]).", [0], True,
    {"": "name,total\nChen,100.49\n"}, "name,total\nChen,100.0\n", "SELECT 'Chen' AS name, 100.0 AS total;\n", None,
    "same as local024 but gold is <id>.csv: only column 0 compared -> 1")
add("local026", "retail", "Top customer and total (one _a gold, condition_cols [1, 0]).", [1, 0], True,
    {"_a": "name,total\nChen,100.49\n"}, "name,total\nNobody,100.49\n",
    "SELECT 'Nobody' AS name, 100.49 AS total;\n", None,
    "only <id>_a.csv + flat [1, 0]: multi path uses only the int 1 -> column 0 never checked -> 1")
add("local027", "retail", "How many orders were refunded?", [], True,
    {"": "n\n1\n"}, "", "SELECT COUNT(*) FROM refunds;\n", "SELECT COUNT(*) AS n FROM orders WHERE status = 'refunded';\n",
    "exec: empty (0-byte) prediction csv -> Evaluation Error; sql: no such table -> error")
add("local028", "retail", "Customers living in Berlin.", [], True,
    {"": "name,city\n"}, "name,city\n", "SELECT name, city FROM customers WHERE city = 'Berlin';\n",
    "SELECT name, city FROM customers WHERE city = 'Berlin';\n",
    "header-only gold and header-only prediction (zero rows) -> 1")
add("local029", "retail", "List customer names.", [], True,
    {"": "name\nAlice\nBob\nChen\nDana\nEve\n"}, "name\n", "SELEC name FROM customers;\n",
    "SELECT name FROM customers;\n", "exec: header-only prediction vs rows -> 0; sql: syntax error")
add("local030", "retail", "How many customers are there? (multi-statement prediction)", [], True,
    {"": "n\n5\n"}, "n\n5\n", "SELECT COUNT(*) FROM customers;\nSELECT 1;\n", None,
    "exec: 1; sql: two statements -> sqlite3 'You can only execute one statement at a time.'")
add("local031", "retail", "How many orders are there?", [], True,
    {"": "n_orders\n7\n"}, "n_orders\n7\n",
    "Here is the query you asked for:\n```sql\nSELECT COUNT(*) AS n_orders\nFROM orders\n```\nIt counts orders.\n",
    "SELECT COUNT(*) AS n_orders FROM orders;\n", "sql: markdown ```sql fenced block is extracted -> 1")
add("local032", "retail", "How many distinct cities?", [], True,
    {"": "n\n3\n"}, None, None, "SELECT COUNT(DISTINCT city) AS n FROM customers;\n",
    "no prediction file at all -> instance not evaluated, not in the output, not in 'Final score' denominator")
add("local033", "retail", "Three gold csvs but only two condition_cols lists.", [[0], [0]], True,
    {"_a": "v\n1\n", "_b": "v\n2\n", "_c": "v\n3\n"}, "v\n3\n", "SELECT 3 AS v;\n", None,
    "list of lists shorter than the gold list; _a,_b fail, _c indexes past the end -> Python Script Error -> 0")
add("local034", "retail", "Is each of orders 1, 3, 4 paid?", [], False,
    {"": "is_paid\nTrue\nFalse\nTrue\n"}, "is_paid\n1\n0\n1\n",
    "SELECT status = 'paid' AS is_paid FROM orders WHERE id IN (1, 3, 4) ORDER BY id;\n", None,
    "gold parsed as bool, prediction ints: bool is an int in Python -> isclose(1.0, 1.0) -> 1")
add("local035", "retail", "Total quantity formatted with a thousands separator.", [], True,
    {"": 'total\n"1,000"\n'}, "total\n1000\n", "SELECT 1000 AS total;\n", None,
    "gold '1,000' stays a string (no thousands parsing) vs number 1000 -> 0")
add("local036", "retail", "Customers per region.", [], True,
    {"": "region,n\nNA,3\nEU,2\n"}, "region,n\nnull,3\nEU,2\n",
    "SELECT NULL AS region, 3 AS n UNION ALL SELECT 'EU', 2;\n", None,
    "pandas default na_values: gold 'NA' and prediction 'null' are both NaN (-> 0) -> 1")
add("local037", "retail", "City of Alice.", [], True,
    {"": "city\nParis\n"}, "city\n Paris\n", "SELECT ' Paris' AS city;\n", None,
    "leading space kept in strings: ' Paris' != 'Paris' -> 0")
add("local038", "retail", "How many customers? (instance missing from spider2-lite.jsonl)", [], True,
    {"": "n\n5\n"}, "n\n5\n", "SELECT COUNT(*) AS n FROM customers;\n", None,
    "exec: 1; sql: 'Missing database mapping for local038' (no db in spider2-lite.jsonl)", in_lite=False)
add("local039", "ghost", "How many customers? (database file absent)", [], True,
    {"": "n\n5\n"}, "n\n5\n", "SELECT COUNT(*) AS n FROM customers;\n", None,
    "exec: 1; sql: <db>.sqlite does not exist; sqlite3.connect creates an empty file -> no such table")
add("local040", "retail", "Two identical gold columns.", [], True,
    {"": "a,b\n1,1\n2,2\n"}, "x\n1\n2\n", "SELECT 1 AS x UNION ALL SELECT 2;\n", None,
    "two identical gold columns both matched by the same single predicted column -> 1")
add("local041", "retail", "Status of every order.", [], True,
    {"": "status\npaid\npaid\nrefunded\npaid\npending\npaid\npaid\n"},
    "status\npaid\npaid\npaid\npaid\npaid\npending\nrefunded\n",
    "SELECT status FROM orders ORDER BY status;\n", "SELECT status FROM orders ORDER BY id;\n",
    "duplicate rows in gold and prediction, reordered, ignore_order=true -> 1")
add("local042", "school", "Average score of grade-9 students (missing score counts as 0).", [], True,
    {"": "avg_score\n44.25\n"}, "avg_score\n44.25\n",
    "SELECT AVG(COALESCE(score, 0)) AS avg_score FROM students WHERE grade = 9;\n",
    "SELECT AVG(COALESCE(score, 0)) AS avg_score FROM students WHERE grade = 9;\n",
    "second local database (school) -> 1")
add("local043", "school", "Scores of all students by id.", [], False,
    {"": "name,score\nAnn,88.5\nBen,92.0\nCal,\nDee,75.25\n"}, "name,score\nAnn,88.5\nBen,92\nCal,0\nDee,75.25\n",
    "SELECT name, score FROM students ORDER BY id;\n", "SELECT name, score FROM students ORDER BY id;\n",
    "exec: gold empty vs prediction 0 -> 1; 92.0 vs 92 -> 1")

add("local044", "retail", "Cities of customers by id (single column with a NULL).", [], True,
    {"": "city\nParis\nLyon\nParis\nNice\n"}, "city\nParis\nLyon\n\nParis\nNice\n",
    "SELECT city FROM customers ORDER BY id;\n", None,
    "exec: single-column csv, the empty cell is a blank line that read_csv skips -> 4 rows == 4 rows -> 1; "
    "sql: to_csv writes the single-column NULL as \"\" (not a blank line) -> 5 rows -> 0")
add("local045", "retail", "Top customer and total (prediction rows have one field more than the header).", [], True,
    {"": "name,total\nChen,100.49\n"}, "name,total\n1,Chen,100.49\n", None, None,
    "exec: every data row has one more field than the header -> read_csv uses the first field as the index -> 1")

add("local046", "retail", "How many customers? (prediction SQL is DDL)", [], True,
    {"": "n\n5\n"}, "n\n5\n", "CREATE TABLE scratch (x INTEGER);\n", None,
    "exec: 1; sql: a statement without a result set -> pandas TypeError \"'NoneType' object is not iterable\" -> 0")

# cloud instances
add("bq001", "ga4", "Visits per country.", [], True,
    {"": "country,visits\nFR,120\nDE,95\n"}, "country,n\nDE,95\nFR,120\n",
    "SELECT country, COUNT(*) AS n FROM `bigquery-public-data.example.visits` GROUP BY country;\n", None,
    "exec: reordered -> 1; sql: BigQuery without usable credentials -> error", ek="ga4_visits.md")
add("bq002", "ga4", "Country with most visits.", [[1], [0, 1]], True,
    {"_a": "country,visits\nFR,120\n", "_b": "country,visits\nDE,95\n"}, "c,v\nDE,95\n", None, None,
    "list-of-lists condition_cols, second gold matches -> 1")
add("bq003", "ga4", "Instance with no gold csv at all.", [], True,
    {}, "x\n1\n", None, None, "no gold file -> 'No matching gold file found' -> 0")
add("bq005", "ga4", "Decoy gold names.", [], True,
    {"_a": "v\n1\n", "_aa": "v\n2\n", "_1": "v\n2\n", "-b": "v\n2\n"}, "v\n2\n", None, None,
    "only <id>_[a-z].csv are gold: _aa, _1, -b are ignored; prediction matches only decoys -> 0")
add("bq006", "ga4", "Both <id>.csv and <id>_a.csv exist.", [], True,
    {"": "v\n1\n", "_a": "v\n2\n"}, "v\n2\n", None, None,
    "<id>.csv wins; <id>_a.csv ignored -> 0")
add("ga001", "ga360", "Number of sessions.", [], True,
    {"": "n\n10\n"}, "n\n11\n", "SELECT COUNT(*) AS n FROM `bigquery-public-data.example.sessions`;\n", None,
    "exec: wrong value -> 0; sql: BigQuery error")
add("ga002", "ga360", "condition_cols out of range.", [5], True,
    {"": "a,b\n1,2\n"}, "a,b\n1,2\n", None, None,
    "condition_cols [5] on a 2-column gold -> iloc IndexError -> Python Script Error -> 0")
add("ga003", "ga360", "list-of-lists condition_cols with a single <id>.csv gold.", [[0]], True,
    {"": "a,b\n1,2\n"}, "a,b\n1,2\n", None, None,
    "single <id>.csv gold but condition_cols [[0]] -> gold.iloc[:, [[0]]]")
add("sf_bq001", "PATENTS", "Patents per year.", [], True,
    {"": "year,n\n2019,3\n2020,4\n"}, "year,n\n2019,3\n2020,4\n",
    "SELECT year, COUNT(*) AS n FROM PATENTS.PATENTS.PUBLICATIONS GROUP BY year;\n", None,
    "exec: 1; sql: lite evaluator has no Snowflake branch -> 'Unsupported instance id prefix'")
add("sf001", "NOAA_DATA", "Stations per state.", [], True,
    {"": "state,n\nCA,2\n"}, "state,n\n", "SELECT state, COUNT(*) AS n FROM NOAA.STATIONS GROUP BY state;\n", None,
    "exec: header-only prediction -> 0; sql: unsupported prefix")
add("bq999", "ga4", "Prediction for an instance absent from the eval jsonl.", [], True,
    {"": "n\n1\n"}, "n\n1\n", None, None,
    "not in spider2lite_eval.jsonl -> ignored entirely (prediction ids are intersected with gold ids)",
    in_eval=False)


def main():
    if os.path.exists(OUT):
        for sub in ("gold", "databases", "pred_csv", "pred_sql"):
            shutil.rmtree(os.path.join(OUT, sub), ignore_errors=True)
    for sub in ("gold/exec_result", "gold/sql", "databases", "pred_csv", "pred_sql"):
        os.makedirs(os.path.join(OUT, sub), exist_ok=True)
    with open(os.path.join(OUT, "databases/retail.sql"), "w") as f:
        f.write(RETAIL_SQL)
    with open(os.path.join(OUT, "databases/school.sql"), "w") as f:
        f.write(SCHOOL_SQL)
    with open(os.path.join(OUT, "spider2-lite.jsonl"), "w") as lite, \
            open(os.path.join(OUT, "gold/spider2lite_eval.jsonl"), "w") as ev:
        for it in I:
            if it["in_lite"]:
                lite.write(json.dumps({"instance_id": it["iid"], "db": it["db"], "question": it["question"],
                                       "external_knowledge": it["ek"]}) + "\n")
            if it["in_eval"]:
                ev.write(json.dumps({"instance_id": it["iid"], "condition_cols": it["cc"],
                                     "ignore_order": it["io"], "toks": "0"}) + "\n")
            for suf, text in it["gold"].items():
                if not it["in_eval"]:
                    continue
                with open(os.path.join(OUT, "gold/exec_result", f"{it['iid']}{suf}.csv"), "w") as f:
                    f.write(text)
            if it["gold_sql"]:
                with open(os.path.join(OUT, "gold/sql", f"{it['iid']}.sql"), "w") as f:
                    f.write(it["gold_sql"])
            if it["pred_csv"] is not None:
                with open(os.path.join(OUT, "pred_csv", f"{it['iid']}.csv"), "w") as f:
                    f.write(it["pred_csv"])
            if it["pred_sql"] is not None:
                with open(os.path.join(OUT, "pred_sql", f"{it['iid']}.sql"), "w") as f:
                    f.write(it["pred_sql"])
    with open("/tmp/spider2gen/instances.json", "w") as f:
        json.dump([{k: it[k] for k in ("iid", "db", "cc", "io", "tests", "in_lite", "in_eval")} |
                   {"gold_files": [f"{it['iid']}{s}.csv" for s in it["gold"]] if it["in_eval"] else [],
                    "pred_csv": it["pred_csv"] is not None, "pred_sql": it["pred_sql"] is not None}
                   for it in I], f, indent=1)
    print(len(I), "instances")


if __name__ == "__main__":
    main()
