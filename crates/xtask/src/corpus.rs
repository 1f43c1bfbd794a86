//! A generated corpus of varied SQL queries, each with the base tables it reads.
//!
//! Used by the benchmarks (native and wasm) and by a core test that checks table extraction on
//! every query. Deterministic: the same seed writes the same file.

use std::fmt::Write as _;
use std::path::Path;

use serde_json::json;

pub const PATH: &str = "tests/fixtures/corpus.jsonl";
const QUERIES: usize = 1200;
const SEED: u64 = 0x5eed_2026;

const TABLES: &[&str] = &[
    "users",
    "orders",
    "order_items",
    "products",
    "customers",
    "employees",
    "departments",
    "invoices",
    "payments",
    "shipments",
    "events",
    "sessions",
    "accounts",
    "regions",
    "stores",
    "inventory",
    "reviews",
    "categories",
    "suppliers",
    "audit_log",
];
const COLUMNS: &[&str] = &[
    "id",
    "name",
    "created_at",
    "amount",
    "status",
    "user_id",
    "price",
    "quantity",
    "region_id",
    "category",
    "total",
    "email",
    "updated_at",
    "score",
    "country",
];
const SCHEMAS: &[&str] = &["sales", "public", "analytics", "dbo"];
const DIALECTS: &[&str] = &[
    "generic",
    "sqlite",
    "postgres",
    "mysql",
    "mssql",
    "bigquery",
    "snowflake",
    "duckdb",
];

/// splitmix64: small, fast, and the same everywhere.
struct CorpusRng(u64);

impl CorpusRng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// One query being built: its text and the tables it reads.
struct Gen<'r> {
    rng: &'r mut CorpusRng,
    dialect: &'static str,
    tables: Vec<String>,
}

impl Gen<'_> {
    /// A table reference as written in SQL, recording the name extraction should report.
    fn table(&mut self) -> String {
        let name = self.rng.pick(TABLES);
        let roll = self.rng.below(100);
        let (written, reported) = if roll < 12 {
            let schema = self.rng.pick(SCHEMAS);
            (format!("{schema}.{name}"), format!("{schema}.{name}"))
        } else if roll < 22 {
            let mixed = mixed_case(name);
            (self.quote(&mixed), name.to_string())
        } else if roll < 30 {
            (name.to_uppercase(), name.to_string())
        } else {
            (name.to_string(), name.to_string())
        };
        if !self.tables.contains(&reported) {
            self.tables.push(reported);
        }
        written
    }

    fn quote(&self, name: &str) -> String {
        match self.dialect {
            "mysql" | "bigquery" => format!("`{name}`"),
            "mssql" => format!("[{name}]"),
            _ => format!("\"{name}\""),
        }
    }

    fn col(&mut self) -> &'static str {
        self.rng.pick(COLUMNS)
    }

    fn predicate(&mut self, alias: &str) -> String {
        let col = self.col();
        match self.rng.below(6) {
            0 => format!("{alias}.{col} = {}", self.rng.below(1000)),
            1 => format!("{alias}.{col} > '2024-0{}-01'", 1 + self.rng.below(9)),
            2 => format!(
                "{alias}.{col} IN ({}, {}, {})",
                self.rng.below(9),
                self.rng.below(99),
                self.rng.below(999)
            ),
            3 => format!(
                "{alias}.{col} BETWEEN {} AND {}",
                self.rng.below(50),
                50 + self.rng.below(50)
            ),
            4 => format!(
                "{alias}.{col} LIKE '%{}%'",
                self.rng.pick(&["a", "shop", "x_1"])
            ),
            _ => format!("{alias}.{col} IS NOT NULL"),
        }
    }

    fn limit(&mut self, sql: &mut String) {
        if self.dialect != "mssql" && self.rng.chance(30) {
            let _ = write!(sql, " LIMIT {}", 1 + self.rng.below(100));
        }
    }

    fn select_from(&mut self) -> String {
        let table = self.table();
        let (a, b) = (self.col(), self.col());
        let mut sql = format!("SELECT t.{a}, t.{b} FROM {table} t");
        if self.rng.chance(70) {
            let predicate = self.predicate("t");
            let _ = write!(sql, " WHERE {predicate}");
        }
        if self.rng.chance(40) {
            let _ = write!(sql, " ORDER BY t.{} DESC", self.col());
        }
        self.limit(&mut sql);
        sql
    }

    fn joins(&mut self) -> String {
        let first = self.table();
        let mut sql = format!(
            "SELECT t0.{}, t1.{} FROM {first} t0",
            self.col(),
            self.col()
        );
        for i in 1..=1 + self.rng.below(3) {
            let kind = self
                .rng
                .pick(&["JOIN", "LEFT JOIN", "INNER JOIN", "RIGHT JOIN"]);
            let table = self.table();
            let _ = write!(
                sql,
                " {kind} {table} t{i} ON t{i}.{} = t{}.id",
                self.col(),
                i - 1
            );
        }
        if self.rng.chance(60) {
            let predicate = self.predicate("t0");
            let _ = write!(sql, " WHERE {predicate}");
        }
        sql
    }

    fn aggregate(&mut self) -> String {
        let table = self.table();
        let (group, value) = (self.col(), self.col());
        let mut sql =
            format!("SELECT a.{group}, COUNT(*) AS n, SUM(a.{value}) AS total FROM {table} a");
        if self.rng.chance(50) {
            let other = self.table();
            let _ = write!(sql, " JOIN {other} b ON b.id = a.{}", self.col());
        }
        let _ = write!(sql, " GROUP BY a.{group}");
        if self.rng.chance(50) {
            let _ = write!(sql, " HAVING COUNT(*) > {}", self.rng.below(20));
        }
        sql
    }

    fn ctes(&mut self) -> String {
        let count = 1 + self.rng.below(3);
        let mut parts = Vec::new();
        for i in 0..count {
            let source = if i > 0 && self.rng.chance(60) {
                format!("cte{}", i - 1)
            } else {
                self.table()
            };
            let mut body = format!("SELECT s.id, s.{} FROM {source} s", self.col());
            if self.rng.chance(40) {
                let other = self.table();
                let _ = write!(body, " JOIN {other} o ON o.id = s.id");
            }
            parts.push(format!("cte{i} AS ({body})"));
        }
        let last = count - 1;
        let mut sql = format!("WITH {} SELECT * FROM cte{last} c", parts.join(", "));
        if self.rng.chance(50) {
            let other = self.table();
            let _ = write!(sql, " JOIN {other} x ON x.id = c.id");
        }
        sql
    }

    fn subquery(&mut self) -> String {
        let outer = self.table();
        match self.rng.below(4) {
            0 => {
                let inner = self.table();
                format!(
                    "SELECT o.* FROM {outer} o WHERE o.{} IN (SELECT i.id FROM {inner} i WHERE i.{} > 10)",
                    self.col(),
                    self.col()
                )
            }
            1 => {
                let inner = self.table();
                format!(
                    "SELECT o.id FROM {outer} o WHERE EXISTS (SELECT 1 FROM {inner} i WHERE i.user_id = o.id)"
                )
            }
            2 => {
                let inner = self.table();
                format!(
                    "SELECT o.id, (SELECT MAX(i.{}) FROM {inner} i WHERE i.user_id = o.id) AS latest FROM {outer} o",
                    self.col()
                )
            }
            _ => {
                let inner = self.table();
                format!(
                    "SELECT o.{0}, COUNT(*) FROM {outer} o GROUP BY o.{0} HAVING COUNT(*) > (SELECT AVG(n) FROM (SELECT COUNT(*) AS n FROM {inner} GROUP BY id) d)",
                    self.col()
                )
            }
        }
    }

    fn set_operation(&mut self) -> String {
        let op = self
            .rng
            .pick(&["UNION", "UNION ALL", "INTERSECT", "EXCEPT"]);
        let mut parts = Vec::new();
        for _ in 0..2 + self.rng.below(2) {
            let table = self.table();
            parts.push(format!("SELECT id, name FROM {table}"));
        }
        parts.join(&format!(" {op} "))
    }

    fn derived(&mut self) -> String {
        let inner = self.table();
        let outer = self.table();
        format!(
            "SELECT d.id, d.total, u.name FROM (SELECT user_id AS id, SUM(amount) AS total FROM {inner} GROUP BY user_id) AS d JOIN {outer} u ON u.id = d.id WHERE d.total > {}",
            self.rng.below(500)
        )
    }

    fn window(&mut self) -> String {
        let table = self.table();
        format!(
            "SELECT id, {0}, ROW_NUMBER() OVER (PARTITION BY {1} ORDER BY {0} DESC) AS rank_in_group, CASE WHEN {0} > 10 THEN 'high' ELSE 'low' END AS band FROM {table}",
            self.col(),
            self.col()
        )
    }

    fn recursive(&mut self) -> String {
        let table = self.table();
        format!(
            "WITH RECURSIVE tree AS (SELECT id, parent_id FROM {table} WHERE parent_id IS NULL UNION ALL SELECT c.id, c.parent_id FROM {table} c JOIN tree ON c.parent_id = tree.id) SELECT COUNT(*) FROM tree"
        )
    }
}

/// `order_items` -> `Order_Items`: the same name in another case.
fn mixed_case(name: &str) -> String {
    name.split('_')
        .map(|part| {
            let mut chars = part.chars();
            chars
                .next()
                .map(|first| first.to_uppercase().chain(chars).collect::<String>())
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join("_")
}

/// Generates the corpus as JSON Lines.
pub fn generate() -> String {
    let mut rng = CorpusRng(SEED);
    let mut out = String::new();
    for id in 0..QUERIES {
        let dialect = DIALECTS[id % DIALECTS.len()];
        let mut query = Gen {
            rng: &mut rng,
            dialect,
            tables: Vec::new(),
        };
        let kind = query.rng.below(10);
        let sql = match kind {
            0 => query.select_from(),
            1 => query.joins(),
            2 => query.aggregate(),
            3 => query.ctes(),
            4 => query.subquery(),
            5 => query.set_operation(),
            6 => query.derived(),
            7 => query.window(),
            8 if dialect != "mssql" && dialect != "bigquery" => query.recursive(),
            _ => query.joins(),
        };
        let mut tables = query.tables;
        // Mixed-case names reported lowercased collapse onto the plain name.
        tables.sort();
        tables.dedup();
        let line = json!({ "id": id, "dialect": dialect, "sql": sql, "tables": tables });
        out.push_str(&line.to_string());
        out.push('\n');
    }
    out
}

pub fn write(path: &Path) -> Result<(), String> {
    let text = generate();
    std::fs::write(path, &text).map_err(|err| format!("cannot write {}: {err}", path.display()))?;
    println!(
        "wrote {} queries to {}",
        text.lines().count(),
        path.display()
    );
    Ok(())
}
