//! Benchmark (not a test): a 1,000,000-row database, and a join + aggregate over it, natively.
//! `cargo run --release -p qeval-sqlite --example bench_db -- target/bench/orders.sqlite`
//! writes the file when missing (the browser benchmark loads the same file) and prints the
//! native timings.

use std::time::Instant;

use qeval_sqlite::{Database, Limits};

/// The query both benchmarks run.
pub const QUERY: &str = "SELECT c.country, COUNT(*) AS orders, ROUND(SUM(o.total), 2) AS revenue \
FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.status <> 'cancelled' \
GROUP BY c.country ORDER BY revenue DESC";

const SCRIPT: &str = "
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT, country TEXT);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER, total REAL, status TEXT, note TEXT);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000)
INSERT INTO customers SELECT i, 'customer ' || i,
  CASE i % 7 WHEN 0 THEN 'DE' WHEN 1 THEN 'ES' WHEN 2 THEN 'FR' WHEN 3 THEN 'IT' WHEN 4 THEN 'NL' WHEN 5 THEN 'PL' ELSE 'SE' END
FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000)
INSERT INTO orders SELECT i, 1 + (i * 7919) % 10000, (i % 1000) / 10.0,
  CASE i % 4 WHEN 0 THEN 'delivered' WHEN 1 THEN 'shipped' WHEN 2 THEN 'pending' ELSE 'cancelled' END,
  'order note no. ' || i
FROM n;
";

fn main() {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "target/bench/orders.sqlite".into());
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(_) => {
            let started = Instant::now();
            let bytes = Database::from_script(SCRIPT)
                .and_then(|mut db| db.to_bytes())
                .unwrap_or_else(|err| fail(&err.to_string()));
            if let Some(dir) = std::path::Path::new(&path).parent() {
                let _ = std::fs::create_dir_all(dir);
            }
            std::fs::write(&path, &bytes).unwrap_or_else(|err| fail(&err.to_string()));
            println!(
                "sqlite: built {path} ({:.1} MB, 1,000,000 orders) in {:.1} s",
                bytes.len() as f64 / 1e6,
                started.elapsed().as_secs_f64()
            );
            bytes
        }
    };
    let started = Instant::now();
    let mut db = Database::open_bytes(&bytes).unwrap_or_else(|err| fail(&err.to_string()));
    let open_ms = started.elapsed().as_secs_f64() * 1000.0;
    let mut times: Vec<f64> = (0..5)
        .map(|_| {
            let out = db
                .query(QUERY, &Limits::default())
                .unwrap_or_else(|err| fail(&err.to_string()));
            out.millis
        })
        .collect();
    times.sort_by(f64::total_cmp);
    println!(
        "sqlite native: open {:.1} MB in {open_ms:.0} ms; join + aggregate over 1,000,000 rows: median {:.0} ms (5 runs)",
        bytes.len() as f64 / 1e6,
        times[2]
    );
}

fn fail(message: &str) -> ! {
    eprintln!("bench_db: {message}");
    std::process::exit(1)
}
