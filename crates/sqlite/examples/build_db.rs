//! Builds a SQLite database file from a SQL script (CREATE TABLE and INSERT statements):
//! `cargo run -p qeval-sqlite --example build_db -- shop.sql shop.sqlite`. The browser tests'
//! fixture database is made this way.

use qeval_sqlite::Database;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [script, output] = args.as_slice() else {
        eprintln!("usage: build_db SCRIPT.sql OUTPUT.sqlite");
        std::process::exit(2);
    };
    let result = std::fs::read_to_string(script)
        .map_err(|err| format!("cannot read {script}: {err}"))
        .and_then(|text| Database::from_script(&text).map_err(|err| err.to_string()))
        .and_then(|mut db| db.to_bytes().map_err(|err| err.to_string()))
        .and_then(|bytes| {
            std::fs::write(output, bytes).map_err(|err| format!("cannot write {output}: {err}"))
        });
    if let Err(message) = result {
        eprintln!("build_db: {message}");
        std::process::exit(1);
    }
}
