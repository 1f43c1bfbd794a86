//! CSV import through the public API: `Database::from_csv`, then `tables()` and `query`.

use qeval_sqlite::{Database, Limits, Table};
use serde_json::{Value, json};

fn load(name: &str, text: &str) -> Result<Database, String> {
    Database::from_csv(&[(name.to_string(), text.to_string())]).map_err(|e| e.0)
}

fn open(name: &str, text: &str) -> Database {
    match load(name, text) {
        Ok(db) => db,
        Err(e) => panic!("{name} should load: {e}"),
    }
}

fn rows(db: &mut Database, sql: &str) -> Vec<Vec<Value>> {
    match db.query(sql, &Limits::default()) {
        Ok(output) => output.rows,
        Err(e) => panic!("{sql} should run: {e}"),
    }
}

fn shape(table: &Table) -> Vec<(String, String)> {
    table
        .columns
        .iter()
        .map(|c| (c.name.clone(), c.kind.clone()))
        .collect()
}

fn columns(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(n, k)| (n.to_string(), k.to_string()))
        .collect()
}

#[test]
fn semicolon_delimited_file() {
    let mut db = open(
        "prices.csv",
        "name;price;stock\nwidget;2.5;3\n\"a;b\";4;5\n",
    );
    let tables = db.tables();
    assert_eq!(tables.len(), 1);
    assert_eq!(tables[0].name, "prices");
    assert_eq!(tables[0].rows, 2);
    assert_eq!(
        shape(&tables[0]),
        columns(&[("name", "TEXT"), ("price", "REAL"), ("stock", "INTEGER")])
    );
    assert_eq!(
        rows(
            &mut db,
            "SELECT name, price, stock FROM prices ORDER BY stock"
        ),
        vec![
            vec![json!("widget"), json!(2.5), json!(3)],
            vec![json!("a;b"), json!(4.0), json!(5)],
        ]
    );
}

#[test]
fn semicolon_file_with_decimal_commas_is_not_read_as_commas() {
    let mut db = open("eu.csv", "city;amount\nParis;1,5\nLyon;2,25\n");
    assert_eq!(
        shape(&db.tables()[0]),
        columns(&[("city", "TEXT"), ("amount", "TEXT")])
    );
    assert_eq!(
        rows(&mut db, "SELECT amount FROM eu ORDER BY city"),
        vec![vec![json!("2,25")], vec![json!("1,5")]]
    );
}

#[test]
fn tab_delimited_file() {
    let mut db = open(
        "people.tsv",
        "id\tname\tnote\n1\tAda, Countess\tx\n2\tGrace\t\n",
    );
    assert_eq!(
        shape(&db.tables()[0]),
        columns(&[("id", "INTEGER"), ("name", "TEXT"), ("note", "TEXT")])
    );
    assert_eq!(
        rows(&mut db, "SELECT id, name, note FROM people ORDER BY id"),
        vec![
            vec![json!(1), json!("Ada, Countess"), json!("x")],
            vec![json!(2), json!("Grace"), Value::Null],
        ]
    );
}

#[test]
fn pipe_delimited_file() {
    let mut db = open("p.csv", "a|b\n1|2\n3|4\n");
    assert_eq!(
        rows(&mut db, "SELECT a + b FROM p ORDER BY a"),
        vec![vec![json!(3)], vec![json!(7)]]
    );
}

#[test]
fn comma_wins_a_tie() {
    // Both `,` and `;` split every line in two: the comma is preferred.
    let mut db = open("t.csv", "a,b;c\n1,2;3\n");
    assert_eq!(
        shape(&db.tables()[0]),
        columns(&[("a", "INTEGER"), ("b;c", "TEXT")])
    );
    assert_eq!(
        rows(&mut db, "SELECT a, \"b;c\" FROM t"),
        vec![vec![json!(1), json!("2;3")]]
    );
}

#[test]
fn crlf_line_ends() {
    let mut db = open("crlf.csv", "id,name\r\n1,ann\r\n2,bob\r\n");
    let table = &db.tables()[0];
    assert_eq!(table.rows, 2);
    assert_eq!(
        shape(table),
        columns(&[("id", "INTEGER"), ("name", "TEXT")])
    );
    assert_eq!(
        rows(
            &mut db,
            "SELECT id, name, length(name) FROM crlf ORDER BY id"
        ),
        vec![
            vec![json!(1), json!("ann"), json!(3)],
            vec![json!(2), json!("bob"), json!(3)],
        ]
    );
}

#[test]
fn carriage_return_inside_quotes_is_kept() {
    let mut db = open("cr.csv", "id,text\r\n1,\"a\rb\"\r\n2,\"c\r\nd\"\r\n");
    assert_eq!(
        rows(&mut db, "SELECT text FROM cr ORDER BY id"),
        vec![vec![json!("a\rb")], vec![json!("c\r\nd")]]
    );
}

#[test]
fn quoted_delimiters_quotes_and_newlines() {
    let text = "id,name,note\n1,\"Lovelace, Ada\",\"said \"\"hi\"\"\"\n2,\"two\nlines\",\"x,y\"\n";
    let mut db = open("q.csv", text);
    assert_eq!(db.tables()[0].rows, 2);
    assert_eq!(
        rows(&mut db, "SELECT name, note FROM q ORDER BY id"),
        vec![
            vec![json!("Lovelace, Ada"), json!("said \"hi\"")],
            vec![json!("two\nlines"), json!("x,y")],
        ]
    );
}

#[test]
fn text_after_a_closing_quote_is_rejected_with_its_line() {
    let err = load("bad.csv", "a,b\n1,2\n\"x\"y,3\n").err();
    assert_eq!(
        err.as_deref(),
        Some("bad.csv: line 3: text after a closing quote")
    );
    // The line counts the line ends inside quoted fields before it.
    let err = load("bad.csv", "a;b\r\n\"1\n2\";3\r\n4;\"5\" x\r\n").err();
    assert_eq!(
        err.as_deref(),
        Some("bad.csv: line 4: text after a closing quote")
    );
}

#[test]
fn blanks_after_a_closing_quote_are_allowed() {
    let mut db = open("b.csv", "a,b\n\"x\" ,1\n");
    assert_eq!(
        rows(&mut db, "SELECT a, b FROM b"),
        vec![vec![json!("x"), json!(1)]]
    );
}

#[test]
fn malformed_rows_name_the_file_and_line() {
    let err = load("short.csv", "a,b\r\n1,2\r\n3\r\n").err();
    assert_eq!(
        err.as_deref(),
        Some("short.csv: line 3: 1 fields, but the header has 2")
    );
    let err = load("semi.csv", "a;b;c\n1;2;3\n\n4;5\n").err();
    assert_eq!(
        err.as_deref(),
        Some("semi.csv: line 4: 2 fields, but the header has 3")
    );
    let err = load("open.csv", "a,b\n1,\"never\nclosed\n").err();
    assert_eq!(
        err.as_deref(),
        Some("open.csv: line 2: a quoted field is never closed")
    );
    let err = load("empty.csv", "\n\n").err();
    assert_eq!(
        err.as_deref(),
        Some("empty.csv: the file is empty: a header row is needed")
    );
}

#[test]
fn several_files_and_a_byte_order_mark() {
    let files = [
        ("a.csv".to_string(), "\u{feff}x,y\n1,2\n".to_string()),
        ("b.tsv".to_string(), "x\ty\n3\t4\n".to_string()),
    ];
    let mut db = match Database::from_csv(&files) {
        Ok(db) => db,
        Err(e) => panic!("should load: {e}"),
    };
    let names: Vec<&str> = db.tables().iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names.len(), 2);
    assert!(names.contains(&"a") && names.contains(&"b"));
    assert_eq!(
        rows(&mut db, "SELECT a.x, b.y FROM a, b"),
        vec![vec![json!(1), json!(4)]]
    );
}
