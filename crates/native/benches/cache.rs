//! How long a cached verdict takes to come back (the target: under 10 ms). Times the
//! on-disk cache's `get` for 1,000 stored verdicts; the in-memory layer in front of it is a
//! hash-map lookup.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use qeval_core::JudgedVerdict;
use qeval_judge::JudgeScores;
use qeval_native::judge::DiskCache;

fn main() {
    if std::env::args().any(|arg| arg == "--test") {
        return;
    }
    let dir = std::env::temp_dir().join(format!("qeval-cache-bench-{}", std::process::id()));
    let cache = DiskCache::new(dir.clone(), Duration::from_secs(86_400));
    let verdict = JudgedVerdict {
        verdict: JudgeScores {
            reasoning: "The queries differ in one filter.".into(),
            scores: BTreeMap::from([("score".to_string(), 0.5)]),
        },
        provider: "openai".into(),
        model: "gpt-x".into(),
        cached: false,
    };
    let keys: Vec<String> = (0..1000).map(|i| format!("{i:064x}")).collect();
    for key in &keys {
        cache.put(key, &verdict);
    }
    let mut times: Vec<f64> = keys
        .iter()
        .map(|key| {
            let started = Instant::now();
            let hit = cache.get(key);
            let took = started.elapsed().as_secs_f64() * 1e3;
            assert!(hit.is_some());
            took
        })
        .collect();
    times.sort_by(f64::total_cmp);
    let at = |p: f64| times[((p / 100.0) * (times.len() - 1) as f64).round() as usize];
    println!(
        "disk cache hit, 1,000 verdicts: median {:.3} ms, p99 {:.3} ms, max {:.3} ms",
        at(50.0),
        at(99.0),
        times[times.len() - 1]
    );
    if let Ok(out) = std::env::var("QEVAL_BENCH_OUT") {
        let json = serde_json::json!({"median_ms": at(50.0), "p99_ms": at(99.0)});
        std::fs::write(&out, json.to_string())
            .unwrap_or_else(|err| panic!("cannot write {out}: {err}"));
    }
    let _ = std::fs::remove_dir_all(dir);
}
