//! Benchmark (not a test): `qeval bench` end to end on a seeded benchmark in Spider's
//! test-suite layout (20 `db_id`s, four databases each, the largest tables 10,000 rows, 1,000
//! examples) and in BIRD's layout (the same golds, one database each), with wall time and peak
//! memory, at one thread and at every core.
//!
//! `cargo run --release -p qeval-native --example bench_benchmarks -- QEVAL_BINARY OUT_DIR`
//!
//! With `QEVAL_PEERS_SPIDER` (a folder holding test-suite-sql-eval's `evaluation.py`),
//! `QEVAL_PEERS_BIRD` (a folder holding BIRD mini-dev's `evaluation_ex.py`) and
//! `QEVAL_PEERS_PYTHON` (a Python with sqlparse, nltk, func_timeout, numpy, psycopg2 and
//! pymysql), the official scripts are timed on the same files, and the ratios printed. Their code
//! is not part of this repository. Spider's needs nltk's punkt data, which cannot be downloaded
//! here: it is run with `word_tokenize(..., preserve_line=True)`, which gives the same tokens for
//! SQL.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use qeval_sqlite::Database;

const DB_IDS: usize = 20;
const DATABASES: usize = 4;
const EXAMPLES_PER_DB: usize = 50;
const ROWS: usize = 10_000;

fn fail(message: &str) -> ! {
    eprintln!("bench_benchmarks: {message}");
    std::process::exit(1)
}

/// A small seeded generator (SplitMix64): the same benchmark every time.
struct Seeded(u64);

impl Seeded {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// One database: four tables, the two largest 10,000 rows, their values from the seed.
fn script(seed: u64) -> String {
    let [a, b, c, d, p, q] = [7919, 104_729, 31, 613, 2_654_435, 40_503].map(|m| m + seed * 2);
    format!(
        "CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT, city TEXT, age INTEGER, score REAL);
CREATE TABLE orders (id INTEGER PRIMARY KEY, person_id INTEGER, item_id INTEGER, amount REAL, day TEXT);
CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT, category TEXT, price REAL);
CREATE TABLE cities (name TEXT, country TEXT, population INTEGER);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {ROWS})
INSERT INTO people SELECT i, 'person ' || ((i * {a}) % 5000), 'city ' || ((i * {b}) % 50),
  18 + (i * {c}) % 60, ((i * {d}) % 1000) / 10.0 FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {ROWS})
INSERT INTO orders SELECT i, 1 + (i * {p}) % {ROWS}, 1 + (i * {q}) % 200, ((i * {a}) % 5000) / 10.0,
  '2024-' || printf('%02d', 1 + (i * {c}) % 12) || '-' || printf('%02d', 1 + i % 28) FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200)
INSERT INTO items SELECT i, 'item ' || i, 'category ' || ((i * {b}) % 12), ((i * {d}) % 500) / 4.0 FROM n;
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 49)
INSERT INTO cities SELECT 'city ' || i, 'country ' || ((i * {c}) % 9), 1000 + (i * {p}) % 100000 FROM n;
"
    )
}

/// A gold query in Spider's style (every one reads with Spider's own parser).
fn gold(random: &mut Seeded) -> String {
    let age = 20 + random.below(50);
    let city = random.below(50);
    let amount = random.below(500);
    let month = 1 + random.below(9);
    let item = 1 + random.below(200);
    let limit = 1 + random.below(10);
    match random.below(15) {
        0 => format!("SELECT count(*) FROM people WHERE age  >  {age}"),
        1 => format!(
            "SELECT name FROM people WHERE city  =  'city {city}' ORDER BY age DESC LIMIT {limit}"
        ),
        2 => "SELECT city ,  count(*) FROM people GROUP BY city ORDER BY count(*) DESC LIMIT 5"
            .into(),
        3 => format!("SELECT avg(amount) FROM orders WHERE day LIKE '2024-0{month}%'"),
        4 => format!(
            "SELECT T1.name FROM people AS T1 JOIN orders AS T2 ON T1.id  =  T2.person_id WHERE T2.amount  >  {amount}"
        ),
        5 => "SELECT category ,  sum(price) FROM items GROUP BY category".into(),
        6 => format!(
            "SELECT name FROM items WHERE id IN (SELECT item_id FROM orders WHERE amount  >  {amount})"
        ),
        7 => format!("SELECT DISTINCT city FROM people WHERE age  <  {age}"),
        8 => "SELECT T2.country ,  count(*) FROM people AS T1 JOIN cities AS T2 ON T1.city  =  T2.name GROUP BY T2.country".into(),
        9 => "SELECT name FROM people WHERE score  >  (SELECT avg(score) FROM people)".into(),
        10 => "SELECT city FROM people WHERE age  >  70 INTERSECT SELECT city FROM people WHERE age  <  20"
            .into(),
        11 => format!(
            "SELECT count(*) FROM orders WHERE person_id NOT IN (SELECT id FROM people WHERE age  >  {age})"
        ),
        12 => format!("SELECT max(amount) ,  min(amount) FROM orders WHERE item_id  =  {item}"),
        13 => "SELECT T1.name ,  sum(T2.amount) FROM people AS T1 JOIN orders AS T2 ON T1.id  =  T2.person_id GROUP BY T1.id ORDER BY sum(T2.amount) DESC LIMIT 10".into(),
        _ => format!(
            "SELECT name FROM people WHERE city  =  'city {city}' AND age BETWEEN {age} AND {}",
            age + 10
        ),
    }
}

/// A model's prediction for a gold: right, or wrong in one of the ways models are.
fn prediction(gold: &str, random: &mut Seeded) -> String {
    match random.below(10) {
        0..=3 => gold.to_string(),
        4 => gold.replacen("SELECT ", "SELECT DISTINCT ", 1),
        5 => gold.replace(" DESC", ""),
        6 => gold.replace("  >  ", " >= ").replace("  <  ", " <= "),
        7 => gold.to_lowercase(),
        8 => gold
            .replace("LIMIT 5", "LIMIT 6")
            .replace("count(*)", "count(1)"),
        _ => gold.replace("people", "persons"),
    }
}

fn write(path: &Path, text: &str) {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).unwrap_or_else(|err| fail(&err.to_string()));
    }
    std::fs::write(path, text).unwrap_or_else(|err| fail(&format!("{}: {err}", path.display())));
}

/// Writes the benchmark in both layouts (when it is not there yet).
fn generate(out: &Path) {
    let done = out.join("spider/pred.txt");
    if done.exists() {
        return;
    }
    let started = Instant::now();
    let mut random = Seeded(20_261_126);
    let (mut golds, mut preds, mut bird_preds, mut diff) =
        (String::new(), String::new(), Vec::new(), Vec::new());
    for db in 0..DB_IDS {
        let db_id = format!("db{db:02}");
        for copy in 0..DATABASES {
            let name = if copy == 0 {
                db_id.clone()
            } else {
                format!("{db_id}_{copy}")
            };
            let bytes = Database::from_script(&script((db * DATABASES + copy) as u64))
                .and_then(|mut database| database.to_bytes())
                .unwrap_or_else(|err| fail(&err.to_string()));
            let path = out.join(format!("spider/database/{db_id}/{name}.sqlite"));
            write(&path, "");
            std::fs::write(&path, &bytes).unwrap_or_else(|err| fail(&err.to_string()));
            if copy == 0 {
                let bird = out.join(format!("bird/dev_databases/{db_id}/{db_id}.sqlite"));
                write(&bird, "");
                std::fs::write(&bird, &bytes).unwrap_or_else(|err| fail(&err.to_string()));
            }
        }
        for _ in 0..EXAMPLES_PER_DB {
            let gold = gold(&mut random);
            let prediction = prediction(&gold, &mut random);
            golds += &format!("{gold}\t{db_id}\n");
            preds += &format!("{prediction}\n");
            bird_preds.push(format!("{prediction}\t----- bird -----\t{db_id}"));
            let difficulty = ["simple", "moderate", "challenging"][diff.len() % 3];
            diff.push(serde_json::json!({"db_id": db_id, "difficulty": difficulty}));
        }
    }
    write(&out.join("spider/gold.txt"), &golds);
    write(&out.join("bird/dev_gold.sql"), &golds);
    let map: serde_json::Map<String, serde_json::Value> = bird_preds
        .into_iter()
        .enumerate()
        .map(|(i, p)| (i.to_string(), serde_json::Value::String(p)))
        .collect();
    write(
        &out.join("bird/predict_dev.json"),
        &serde_json::to_string_pretty(&map).unwrap_or_default(),
    );
    write(
        &out.join("bird/dev.json"),
        &serde_json::to_string(&diff).unwrap_or_default(),
    );
    write(&done, &preds);
    eprintln!(
        "generated {} examples over {} databases in {:.1} s",
        DB_IDS * EXAMPLES_PER_DB,
        DB_IDS * DATABASES,
        started.elapsed().as_secs_f64()
    );
}

/// A process's wall time and peak resident memory (read from /proc while it runs).
fn measure(command: &mut Command) -> (Duration, u64, String) {
    let started = Instant::now();
    let mut child = command
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap_or_else(|err| fail(&format!("{command:?}: {err}")));
    let status_path = format!("/proc/{}/status", child.id());
    let mut peak_kb = 0;
    loop {
        if let Ok(status) = std::fs::read_to_string(&status_path) {
            let hwm = status
                .lines()
                .find_map(|line| line.strip_prefix("VmHWM:"))
                .and_then(|rest| {
                    rest.trim()
                        .trim_end_matches(" kB")
                        .trim()
                        .parse::<u64>()
                        .ok()
                });
            peak_kb = peak_kb.max(hwm.unwrap_or(0));
        }
        if child.try_wait().ok().flatten().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let elapsed = started.elapsed();
    let output = child
        .wait_with_output()
        .unwrap_or_else(|err| fail(&err.to_string()));
    if !output.status.success() {
        fail(&format!("{command:?} failed"));
    }
    (
        elapsed,
        peak_kb,
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

/// Spider's `evaluation.py` under `python`, with nltk's tokenizer in preserve_line mode.
fn official_spider(python: &str, peers: &Path, out: &Path) -> Command {
    let shim = "import sys, functools, runpy, nltk; \
        nltk.word_tokenize = functools.partial(nltk.word_tokenize, preserve_line=True); \
        sys.argv = sys.argv[1:]; sys.path.insert(0, '.'); runpy.run_path(sys.argv[0], run_name='__main__')";
    let mut command = Command::new(python);
    command
        .current_dir(peers)
        .args(["-c", shim, "evaluation.py", "--gold"])
        .arg(out.join("spider/gold.txt"))
        .arg("--pred")
        .arg(out.join("spider/pred.txt"))
        .arg("--db")
        .arg(out.join("spider/database"))
        .args(["--etype", "exec"]);
    command
}

fn official_bird(python: &str, peers: &Path, out: &Path, cpus: usize) -> Command {
    let mut command = Command::new(python);
    let root = format!("{}/", out.join("bird/dev_databases").display());
    command
        .current_dir(peers)
        .arg("evaluation_ex.py")
        .arg("--predicted_sql_path")
        .arg(out.join("bird/predict_dev.json"))
        .arg("--ground_truth_path")
        .arg(out.join("bird/dev_gold.sql"))
        .args(["--db_root_path", &root, "--num_cpus", &cpus.to_string()])
        .arg("--diff_json_path")
        .arg(out.join("bird/dev.jsonl"))
        .args(["--meta_time_out", "30.0", "--sql_dialect", "SQLite"])
        .arg("--output_log_path")
        .arg(out.join("bird/official-log.txt"));
    command
}

/// Spider's comparison on 26-column results whose columns are alike, where its evaluator tries
/// permutations until none is left: every column equal to every other (any permutation fits),
/// and the same with one cell changed (none fits). The milliseconds of each.
fn wide_results() -> Vec<(&'static str, f64)> {
    use qeval_core::{CompareOptions, Mode, compare_results};
    use qeval_core::{ResultSet, Value};
    let rows: Vec<Vec<Value>> = (0..1_000).map(|r| vec![Value::Int(r % 7); 26]).collect();
    let columns: Vec<String> = (0..26).map(|c| format!("c{c}")).collect();
    let expected = ResultSet::named(columns.clone(), rows.clone());
    let mut changed = rows;
    changed[500][25] = Value::Int(99);
    let options = CompareOptions {
        mode: Mode::Bag,
        order_matters: false,
        ..CompareOptions::default()
    };
    let mut out = Vec::new();
    for (case, generated) in [
        (
            "alike columns, equal",
            ResultSet::named(columns.clone(), expected.rows.clone()),
        ),
        (
            "alike columns, one cell changed",
            ResultSet::named(columns, changed),
        ),
    ] {
        let started = Instant::now();
        let comparison = compare_results(&expected, &generated, &options);
        out.push((case, started.elapsed().as_secs_f64() * 1000.0));
        std::hint::black_box(comparison);
    }
    out
}

fn main() {
    let mut args = std::env::args().skip(1);
    let qeval = PathBuf::from(args.next().unwrap_or_else(|| "target/release/qeval".into()));
    let out = PathBuf::from(
        args.next()
            .unwrap_or_else(|| "target/bench/benchmarks".into()),
    );
    generate(&out);
    // The official scripts run from their own folder: every path they get is absolute.
    let out = out
        .canonicalize()
        .unwrap_or_else(|err| fail(&err.to_string()));
    // BIRD's scripts read the difficulty file as JSON Lines.
    let diff: Vec<serde_json::Value> = serde_json::from_str(
        &std::fs::read_to_string(out.join("bird/dev.json")).unwrap_or_default(),
    )
    .unwrap_or_default();
    write(
        &out.join("bird/dev.jsonl"),
        &diff
            .iter()
            .map(|d| d.to_string() + "\n")
            .collect::<String>(),
    );
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let mut figures = Vec::new();
    let mut tables = Vec::new();
    for threads in [1, cores] {
        let mut spider = Command::new(&qeval);
        spider
            .args(["bench", "spider", "--gold"])
            .arg(out.join("spider/gold.txt"))
            .arg("--pred")
            .arg(out.join("spider/pred.txt"))
            .arg("--db")
            .arg(out.join("spider/database"))
            .args(["--num-cpus", &threads.to_string()]);
        let (time, peak, table) = measure(&mut spider);
        tables.push(("spider", table));
        figures.push(("qeval bench spider", threads, time, peak));
        let mut bird = Command::new(&qeval);
        bird.args(["bench", "bird", "--pred"])
            .arg(out.join("bird/predict_dev.json"))
            .arg("--gold")
            .arg(out.join("bird/dev_gold.sql"))
            .arg("--db-root")
            .arg(out.join("bird/dev_databases"))
            .arg("--diff")
            .arg(out.join("bird/dev.jsonl"))
            .args(["--num-cpus", &threads.to_string()]);
        let (time, peak, table) = measure(&mut bird);
        tables.push(("bird", table));
        figures.push(("qeval bench bird (EX)", threads, time, peak));
        if threads == cores {
            break;
        }
    }
    let python = std::env::var("QEVAL_PEERS_PYTHON").unwrap_or_else(|_| "python3".into());
    if let Ok(peers) = std::env::var("QEVAL_PEERS_SPIDER") {
        let (time, peak, table) = measure(&mut official_spider(&python, Path::new(&peers), &out));
        if table != tables[0].1 {
            fail("the official Spider table differs from qeval's");
        }
        figures.push(("official evaluation.py", 1, time, peak));
    }
    if let Ok(peers) = std::env::var("QEVAL_PEERS_BIRD") {
        for cpus in [1, cores] {
            let (time, peak, table) =
                measure(&mut official_bird(&python, Path::new(&peers), &out, cpus));
            if !table.contains(tables[1].1.lines().nth(4).unwrap_or("none")) {
                fail("the official BIRD table differs from qeval's");
            }
            figures.push(("official evaluation_ex.py", cpus, time, peak));
            if cpus == cores {
                break;
            }
        }
    }
    println!(
        "{} examples, {} databases ({} per db_id, {} rows in the largest tables)",
        DB_IDS * EXAMPLES_PER_DB,
        DB_IDS * DATABASES,
        DATABASES,
        ROWS
    );
    println!("| run | threads | wall time | peak memory |");
    println!("|---|---|---|---|");
    for (name, threads, time, peak) in &figures {
        println!(
            "| {name} | {threads} | {:.2} s | {:.0} MB |",
            time.as_secs_f64(),
            *peak as f64 / 1024.0
        );
    }
    let time_of = |name: &str, threads: usize| {
        figures
            .iter()
            .find(|f| f.0 == name && f.1 == threads)
            .map(|f| f.2.as_secs_f64())
    };
    for (ours, theirs, threads) in [
        ("qeval bench spider", "official evaluation.py", 1),
        ("qeval bench spider", "official evaluation.py", cores),
        ("qeval bench bird (EX)", "official evaluation_ex.py", 1),
        ("qeval bench bird (EX)", "official evaluation_ex.py", cores),
    ] {
        let peer_threads = if theirs.ends_with("evaluation.py") {
            1
        } else {
            threads
        };
        if let (Some(a), Some(b)) = (time_of(ours, threads), time_of(theirs, peer_threads)) {
            println!(
                "{ours} on {threads} thread{} against {theirs} on {peer_threads}: {:.1}x faster",
                if threads == 1 { "" } else { "s" },
                b / a
            );
        }
    }
    let wide = wide_results();
    for (case, ms) in &wide {
        println!("Spider's result_eq on 26 columns x 1,000 rows, {case}: {ms:.1} ms");
    }
    if let Ok(path) = std::env::var("QEVAL_BENCH_OUT") {
        let json: Vec<serde_json::Value> = figures
            .iter()
            .map(|(name, threads, time, peak)| {
                serde_json::json!({"run": name, "threads": threads, "seconds": time.as_secs_f64(), "peak_mb": *peak as f64 / 1024.0})
            })
            .chain(wide.iter().map(|(case, ms)| serde_json::json!({"run": "result_eq, 26 columns", "case": case, "ms": ms})))
            .collect();
        write(
            Path::new(&path),
            &serde_json::to_string_pretty(&json).unwrap_or_default(),
        );
    }
}
