//! `qeval score --judge ...` against a local double of the LLM providers: real HTTP, real disk
//! cache, the double counting the calls it receives.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

use qeval_judge_double::JudgeDouble;
use serde_json::{Value, json};

struct RunFolder {
    dir: PathBuf,
}

impl RunFolder {
    fn new(name: &str) -> RunFolder {
        let dir = std::env::temp_dir().join(format!("qeval-judge-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        RunFolder { dir }
    }

    fn pairs(&self, lines: &[Value]) -> PathBuf {
        let path = self.dir.join("pairs.jsonl");
        let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
        std::fs::write(&path, text).expect("write pairs");
        path
    }

    fn score(
        &self,
        pairs: &Path,
        double: &JudgeDouble,
        provider: &str,
        model: &str,
        extra: &[&str],
    ) -> (Vec<Value>, String) {
        let output: Output = Command::new(env!("CARGO_BIN_EXE_qeval"))
            .args(["score", "--pairs"])
            .arg(pairs)
            .args([
                "--judge",
                provider,
                "--judge-url",
                &double.url,
                "--judge-model",
                model,
                "--cache-dir",
            ])
            .arg(self.dir.join("cache"))
            .args(extra)
            .env_remove("OPENAI_API_KEY")
            .output()
            .expect("qeval runs");
        let records = String::from_utf8_lossy(&output.stdout)
            .lines()
            .map(|line| serde_json::from_str(line).expect("JSON line"))
            .collect();
        (
            records,
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    }
}

impl Drop for RunFolder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn pair(i: usize) -> Value {
    json!({"id": i, "generated_sql": format!("SELECT name FROM users WHERE id = {i}"), "expected_sql": format!("SELECT name FROM users WHERE id = {}", i + 1)})
}

fn base_url(double: &JudgeDouble, provider: &str) -> String {
    match provider {
        "openai" => format!("{}/v1", double.url),
        _ => double.url.clone(),
    }
}

#[test]
fn every_provider_gives_a_verdict_over_http() {
    for provider in ["openai", "anthropic", "gemini"] {
        let double = JudgeDouble::start().expect("double");
        let run = RunFolder::new(provider);
        let pairs = run.pairs(&[pair(1)]);
        let url = base_url(&double, provider);
        let output = Command::new(env!("CARGO_BIN_EXE_qeval"))
            .args(["score", "--pairs"])
            .arg(&pairs)
            .args([
                "--judge",
                provider,
                "--judge-url",
                &url,
                "--judge-model",
                "m",
                "--no-cache",
            ])
            .output()
            .expect("qeval runs");
        let card: Value = serde_json::from_slice(&output.stdout).expect("JSON");
        let semantic = &card["metrics"]["semantic_similarity"];
        assert_eq!(semantic["score"], 0.5, "{provider}: {card}");
        assert_eq!(semantic["details"]["judge"], "llm");
        assert_eq!(semantic["details"]["provider"], provider);
        assert_eq!(semantic["explanation"], "The queries differ.");
        assert_eq!(double.requests(), 1, "{provider}");
    }
}

#[test]
fn the_gemini_key_is_also_read_from_google_api_key() {
    let double = JudgeDouble::start().expect("double");
    let run = RunFolder::new("google-key");
    let pairs = run.pairs(&[pair(1)]);
    let output = Command::new(env!("CARGO_BIN_EXE_qeval"))
        .args(["score", "--pairs"])
        .arg(&pairs)
        .args(["--judge", "gemini", "--judge-url", &double.url])
        .args(["--judge-model", "m", "--no-cache"])
        .env_remove("GEMINI_API_KEY")
        .env("GOOGLE_API_KEY", "google-key-1")
        .output()
        .expect("qeval runs");
    assert!(output.status.success());
    assert_eq!(double.keys(), ["google-key-1"]);
    // GEMINI_API_KEY, when set, comes first.
    let output = Command::new(env!("CARGO_BIN_EXE_qeval"))
        .args(["score", "--pairs"])
        .arg(&pairs)
        .args(["--judge", "gemini", "--judge-url", &double.url])
        .args(["--judge-model", "m", "--no-cache"])
        .env("GEMINI_API_KEY", "gemini-key-2")
        .env("GOOGLE_API_KEY", "google-key-1")
        .output()
        .expect("qeval runs");
    assert!(output.status.success());
    assert_eq!(double.keys(), ["google-key-1", "gemini-key-2"]);
}

#[test]
fn a_repeated_run_makes_no_calls_and_an_edited_one_only_the_new_calls() {
    let double = JudgeDouble::start().expect("double");
    let run = RunFolder::new("repeat");
    let lines: Vec<Value> = (0..50).map(pair).collect();
    let pairs = run.pairs(&lines);
    let (first, stderr) = run.score(&pairs, &double, "openai", "m", &[]);
    assert_eq!(first.len(), 50);
    assert_eq!(double.requests(), 50);
    assert!(
        stderr.contains("50 calls, 0 cache hits, 0 errors"),
        "{stderr}"
    );

    let (second, stderr) = run.score(&pairs, &double, "openai", "m", &[]);
    assert_eq!(double.requests(), 50, "the unchanged run made no call");
    assert!(stderr.contains("0 calls, 50 cache hits"), "{stderr}");
    for (a, b) in first.iter().zip(&second) {
        assert_eq!(
            a["metrics"]["semantic_similarity"]["score"],
            b["metrics"]["semantic_similarity"]["score"]
        );
    }
    assert_eq!(
        second[0]["metrics"]["semantic_similarity"]["details"]["cached"],
        true
    );

    // Ten pairs change: only they are judged again.
    let mut edited = lines.clone();
    for line in edited.iter_mut().take(10) {
        line["generated_sql"] = json!(format!(
            "{} LIMIT 5",
            line["generated_sql"].as_str().unwrap_or_default()
        ));
    }
    let pairs = run.pairs(&edited);
    let (_, stderr) = run.score(&pairs, &double, "openai", "m", &[]);
    assert_eq!(double.requests(), 60, "{stderr}");
}

#[test]
fn identical_queries_never_reach_the_judge() {
    let double = JudgeDouble::start().expect("double");
    let run = RunFolder::new("identical");
    let pairs = run.pairs(&[
        json!({"generated_sql": "select * from USERS", "expected_sql": "SELECT * FROM users;"}),
    ]);
    let (records, _) = run.score(&pairs, &double, "openai", "m", &[]);
    assert_eq!(records[0]["metrics"]["semantic_similarity"]["score"], 1.0);
    assert_eq!(
        records[0]["metrics"]["semantic_similarity"]["explanation"],
        "Queries are identical"
    );
    assert_eq!(double.requests(), 0);
}

#[test]
fn each_fault_falls_back_to_the_structural_judge_saying_so_and_the_other_metrics_stay() {
    let double = JudgeDouble::start().expect("double");
    let run = RunFolder::new("faults");
    let cases = [
        ("fault-timeout", "LLM judge timeout"),
        ("fault-500", "LLM judge HTTP 500"),
        ("fault-malformed", "LLM judge reply malformed"),
        ("fault-truncated", "LLM judge reply truncated"),
        ("fault-refusal", "LLM judge refused"),
        ("fault-range", "outside 0..1"),
    ];
    let pairs = run.pairs(&[pair(1)]);
    for (model, message) in cases {
        let (records, _) = run.score(
            &pairs,
            &double,
            "openai",
            model,
            &["--judge-timeout", "1", "--no-cache"],
        );
        let card = &records[0];
        let semantic = &card["metrics"]["semantic_similarity"];
        // Not a silent 0.0: the structural judge's score (one filter of four parts differs).
        assert_eq!(semantic["score"], 0.75, "{model}: {card}");
        assert_eq!(semantic["details"]["judge"], "structural");
        let explanation = semantic["explanation"].as_str().unwrap_or_default();
        assert!(
            explanation.starts_with("LLM judge failed") && explanation.contains(message),
            "{model}: {semantic}"
        );
        let diagnostic = &card["diagnostics"][0];
        assert_eq!(diagnostic["source"], "llm_judge", "{model}: {card}");
        assert!(
            diagnostic["message"]
                .as_str()
                .unwrap_or_default()
                .contains("the structural judge's score is used"),
            "{model}: {diagnostic}"
        );
        assert_eq!(
            card["metrics"]["table_accuracy"]["score"], 1.0,
            "{model}: the other metrics stay"
        );
        assert_eq!(card["metrics"]["safety"]["score"], 1.0);
    }
}

#[test]
fn a_429_is_retried_after_retry_after() {
    let double = JudgeDouble::start().expect("double");
    let run = RunFolder::new("throttle");
    let pairs = run.pairs(&[pair(1)]);
    let started = Instant::now();
    let (records, _) = run.score(&pairs, &double, "openai", "fault-429", &[]);
    assert_eq!(records[0]["metrics"]["semantic_similarity"]["score"], 0.5);
    assert_eq!(double.requests(), 2);
    assert!(
        started.elapsed().as_secs_f64() >= 1.0,
        "waited for Retry-After: 1"
    );
}

#[test]
fn the_judgings_of_one_pair_run_side_by_side() {
    let double = JudgeDouble::start().expect("double");
    let run = RunFolder::new("parallel");
    let profile = run.dir.join("profile.json");
    std::fs::write(&profile, r#"{"weights": {"semantic_similarity": 1, "query_correctness": 1, "table_accuracy": 1}, "threshold": 0.5}"#).expect("profile");
    let pairs = run.pairs(&[pair(1)]);
    let started = Instant::now();
    let (records, _) = run.score(
        &pairs,
        &double,
        "openai",
        "slow-1500",
        &[
            "--no-cache",
            "--profile-file",
            profile.to_str().unwrap_or_default(),
        ],
    );
    let elapsed = started.elapsed().as_secs_f64();
    assert_eq!(double.requests(), 2, "two LLM metrics");
    assert_eq!(
        records[0]["metrics"]["query_correctness"]["details"]["judge"],
        "llm"
    );
    // Two 1.5 s judgings side by side take about 1.5 s, not 3.
    assert!(elapsed < 2.6, "took {elapsed:.2} s");
}

#[test]
fn scores_go_to_langfuse() {
    let double = JudgeDouble::start().expect("double");
    let run = RunFolder::new("langfuse");
    let pairs = run.pairs(&[json!({"id": "q1", "trace_id": "trace-7", "generated_sql": "SELECT 1 FROM t", "expected_sql": "SELECT 2 FROM t"})]);
    let output = Command::new(env!("CARGO_BIN_EXE_qeval"))
        .args(["score", "--pairs"])
        .arg(&pairs)
        .args(["--langfuse-host", &double.url])
        .env("LANGFUSE_PUBLIC_KEY", "pk-test")
        .env("LANGFUSE_SECRET_KEY", "sk-test")
        .output()
        .expect("qeval runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let scores = double.langfuse_scores();
    assert!(!scores.is_empty(), "{stderr}");
    assert!(scores.iter().all(|s| s["traceId"] == "trace-7"));
    let names: Vec<&str> = scores.iter().filter_map(|s| s["name"].as_str()).collect();
    assert!(
        names.contains(&"table_accuracy") && names.contains(&"semantic_similarity"),
        "{names:?}"
    );
    assert!(
        stderr.contains(&format!("sent {} scores, 0 failed", scores.len())),
        "{stderr}"
    );
    let output = Command::new(env!("CARGO_BIN_EXE_qeval"))
        .args(["score", "--pairs"])
        .arg(&pairs)
        .args(["--langfuse-host", &double.url])
        .env("LANGFUSE_PUBLIC_KEY", "pk-test")
        .env_remove("LANGFUSE_SECRET_KEY")
        .output()
        .expect("qeval runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("LANGFUSE_SECRET_KEY"));
}

#[test]
fn the_api_key_goes_to_the_judge_and_nowhere_else() {
    let double = JudgeDouble::start().expect("double");
    let run = RunFolder::new("key");
    let pairs = run.pairs(&[pair(1), pair(2)]);
    let key = format!("sk-cli-{}", std::process::id());
    let output = Command::new(env!("CARGO_BIN_EXE_qeval"))
        .args(["score", "--pairs"])
        .arg(&pairs)
        .args(["--judge", "openai", "--judge-url"])
        .arg(format!("{}/v1", double.url))
        .args(["--judge-model", "m", "--cache-dir"])
        .arg(run.dir.join("cache"))
        .env("OPENAI_API_KEY", &key)
        .output()
        .expect("qeval runs");
    assert!(output.status.success());
    assert_eq!(
        double.keys(),
        vec![key.clone()],
        "the judge received the key"
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stdout.contains("semantic_similarity"));
    assert!(!stdout.contains(&key), "scorecards");
    assert!(!stderr.contains(&key), "log and summary");
    let mut cached = 0;
    for entry in walk(&run.dir.join("cache")) {
        let text = std::fs::read_to_string(&entry).unwrap_or_default();
        assert!(!text.contains(&key), "{}", entry.display());
        cached += 1;
    }
    assert_eq!(cached, 2, "one cache file per verdict");
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files
}

#[test]
fn an_agent_answer_gets_its_three_quality_scores_from_the_judge() {
    let double = JudgeDouble::start().expect("double");
    let run = RunFolder::new("agent");
    let pairs = run.pairs(&[json!({
        "id": "scenario-1", "session_id": "sess-9", "question": "Who wrote the paper?",
        "answer": "Ada Lovelace, in 1843.", "expected_answer_criteria": "Names the author",
        "sources": ["paper.pdf p.1"], "agents_called": ["orchestrator", "research"],
        "tools_used": ["pdf_retrieval"], "agents_should_include": ["research"],
        "tools_should_include": ["pdf_retrieval"]
    })]);
    let output = Command::new(env!("CARGO_BIN_EXE_qeval"))
        .args(["score", "--profile", "agent", "--pairs"])
        .arg(&pairs)
        .args(["--judge", "openai", "--judge-url"])
        .arg(format!("{}/v1", double.url))
        .args([
            "--judge-model",
            "m",
            "--no-cache",
            "--langfuse-host",
            &double.url,
        ])
        .env("LANGFUSE_PUBLIC_KEY", "pk-test")
        .env("LANGFUSE_SECRET_KEY", "sk-test")
        .output()
        .expect("qeval runs");
    let card: Value = serde_json::from_slice(&output.stdout).expect("one JSON scorecard");
    assert_eq!(card["metrics"]["answer_quality"]["score"], 0.9, "{card}");
    assert_eq!(card["metrics"]["factual_correctness"]["score"], 0.95);
    assert_eq!(card["metrics"]["completeness"]["score"], 0.85);
    assert_eq!(card["metrics"]["workflow"]["score"], 1.0);
    assert_eq!(card["profile"]["passed"], true);
    assert_eq!(double.requests(), 1, "one judging for all three scores");
    let names: Vec<String> = double
        .langfuse_scores()
        .iter()
        .filter(|s| s["traceId"] == "sess-9")
        .filter_map(|s| s["name"].as_str().map(str::to_string))
        .collect();
    for name in [
        "quality_answer_quality",
        "quality_factual_correctness",
        "quality_completeness",
        "workflow",
    ] {
        assert!(names.iter().any(|n| n == name), "{name} in {names:?}");
    }
}

#[test]
fn a_run_whose_every_judge_call_failed_exits_1_and_says_so() {
    let double = JudgeDouble::start().expect("double");
    let run = RunFolder::new("all-failed");
    let pairs = run.pairs(&[pair(1), pair(2)]);
    let output = Command::new(env!("CARGO_BIN_EXE_qeval"))
        .args(["score", "--no-cache", "--pairs"])
        .arg(&pairs)
        .args(["--judge", "openai", "--judge-url", &double.url])
        .args(["--judge-model", "fault-500"])
        .env_remove("OPENAI_API_KEY")
        .output()
        .expect("qeval runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("every LLM judge call failed"), "{stderr}");
    // Standard error says what the scorecards hold: the structural judge's score, not 0.0.
    assert!(
        stderr.contains("carry the structural judge's score") && !stderr.contains("are 0.0"),
        "{stderr}"
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    for line in stdout.lines() {
        let card: Value = serde_json::from_str(line).expect("JSON line");
        let semantic = &card["metrics"]["semantic_similarity"];
        assert_eq!(semantic["score"], 0.75, "{semantic}");
        assert!(
            semantic["details"]["llm_judge_error"]
                .as_str()
                .is_some_and(|e| e.contains("HTTP 500")),
            "{semantic}"
        );
    }
    // With a working judge the same run exits 0.
    let output = Command::new(env!("CARGO_BIN_EXE_qeval"))
        .args(["score", "--no-cache", "--pairs"])
        .arg(&pairs)
        .args(["--judge", "openai", "--judge-url", &double.url])
        .args(["--judge-model", "model-ok"])
        .env_remove("OPENAI_API_KEY")
        .output()
        .expect("qeval runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn the_same_question_asked_three_times_at_once_is_one_call() {
    let double = JudgeDouble::start().expect("double");
    let run = RunFolder::new("in-flight");
    let pairs = run.pairs(&[pair(1), pair(1), pair(1)]);
    let (records, _) = run.score(
        &pairs,
        &double,
        "openai",
        "slow-1500",
        &["--no-cache", "--concurrency", "3"],
    );
    assert_eq!(records.len(), 3);
    for record in &records {
        assert_eq!(
            record["metrics"]["semantic_similarity"]["score"], 0.5,
            "{record}"
        );
    }
    assert_eq!(
        double.requests(),
        1,
        "one call for three identical questions"
    );
}

#[test]
fn a_failed_quality_judging_is_not_scored_and_gives_no_verdict() {
    let double = JudgeDouble::start().expect("double");
    let run = RunFolder::new("agent-fault");
    let pairs = run.pairs(&[json!({
        "id": "scenario-2", "question": "Who wrote the paper?", "answer": "Ada Lovelace.",
        "agents_called": ["research"], "agents_should_include": ["research"]
    })]);
    let (records, _) = run.score(
        &pairs,
        &double,
        "openai",
        "fault-500",
        &["--profile", "agent", "--no-cache"],
    );
    let card = &records[0];
    let quality = &card["metrics"]["answer_quality"];
    assert_eq!(quality["score"], Value::Null, "not a 0.0: {card}");
    assert!(
        quality["explanation"]
            .as_str()
            .unwrap_or_default()
            .starts_with("Not scored: the LLM judge failed"),
        "{quality}"
    );
    assert_eq!(card["profile"]["passed"], Value::Null, "no verdict: {card}");
    assert_eq!(card["diagnostics"][0]["source"], "llm_judge");
}

#[test]
fn an_answer_without_a_query_is_not_scored_without_a_judge_and_judged_with_one() {
    let double = JudgeDouble::start().expect("double");
    let run = RunFolder::new("answers");
    let folder = run.dir.join("run");
    std::fs::create_dir_all(&folder).expect("run folder");
    std::fs::write(
        folder.join("test-results.jsonl"),
        "{\"test_id\": 1, \"answer\": \"There are 1284 customers.\"}\n{\"test_id\": 2, \"answer\": 6102}\n{\"test_id\": 3, \"generated_sql\": \"SELECT COUNT(*) FROM customers\", \"actual_results\": 1284}\n",
    )
    .expect("tests");
    std::fs::write(
        run.dir.join("questions.json"),
        r#"[{"id": 1, "question": "How many customers?", "expected_sql": "SELECT COUNT(*) FROM customers", "expected_results": 1284, "expected_answer": "1284"},
            {"id": 2, "question": "Orders in 2025?", "expected_results": 5311},
            {"id": 3, "question": "How many customers?", "expected_sql": "SELECT COUNT(*) FROM customers", "expected_results": 1284}]"#,
    )
    .expect("questions");
    let qeval = |judge: bool| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_qeval"));
        command.arg("run").arg(&folder);
        if judge {
            command
                .args(["--judge", "openai", "--judge-url"])
                .arg(format!("{}/v1", double.url))
                .args(["--judge-model", "m", "--no-cache"]);
        }
        let output = command.output().expect("qeval runs");
        let records: Vec<Value> = std::fs::read_to_string(folder.join("evaluation-results.jsonl"))
            .expect("records")
            .lines()
            .map(|l| serde_json::from_str(l).expect("JSON"))
            .collect();
        (
            records,
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    };
    let (records, stderr) = qeval(false);
    assert!(
        stderr.contains("3 tests, 1 passed, 0 failed, 2 not scored"),
        "{stderr}"
    );
    assert_eq!(records[0]["qas_evaluation"], Value::Null);
    assert!(
        records[0]["not_scored"]
            .as_str()
            .unwrap()
            .starts_with("Not scored: the agent answered without a query"),
        "{}",
        records[0]
    );
    assert_eq!(
        records[0]["answer"], "There are 1284 customers.",
        "the answer is kept"
    );

    let (records, stderr) = qeval(true);
    assert!(stderr.contains("3 tests, "), "{stderr}");
    // The double judges every answer 0.95 correct; 6102 against 5311 is 14.9% off.
    let semantic = &records[1]["qas_evaluation"]["semantic_score"];
    assert_eq!(semantic, 0.95, "{}", records[1]);
    assert!(
        records[1]["qas_evaluation"]["breakdown"]["execution_explanation"]
            .as_str()
            .unwrap()
            .contains("6102 vs expected 5311"),
        "{}",
        records[1]
    );
    assert!(
        records[0]["qas_evaluation"]["breakdown"]["semantic_explanation"]
            .as_str()
            .unwrap()
            .starts_with("The answer (no query) against the expected answer"),
        "{}",
        records[0]
    );
}

#[test]
fn several_acceptable_queries_are_judged_each_and_the_best_is_kept() {
    let double = JudgeDouble::start().expect("double");
    let run = RunFolder::new("alternatives");
    let pairs = run.pairs(&[json!({"id": 1, "generated_sql": "SELECT name FROM users WHERE id = 2",
        "expected_sql": ["SELECT name FROM users WHERE id = 3", "SELECT name FROM users WHERE id = 4", "select name from users where id = 2"]})]);
    let (cards, stderr) = run.score(&pairs, &double, "openai", "m", &["--no-cache"]);
    // The two differing queries are asked of the judge; the identical one needs no call.
    assert_eq!(double.requests(), 2, "{stderr}");
    assert_eq!(cards[0]["expected_match"]["index"], 2, "{}", cards[0]);
    assert_eq!(cards[0]["expected_match"]["of"], 3);
    assert_eq!(cards[0]["metrics"]["semantic_similarity"]["score"], 1.0);
}

#[test]
fn both_prompt_versions_are_measured_against_labelled_pairs_and_cached_apart() {
    let double = JudgeDouble::start().expect("double");
    let run = RunFolder::new("prompt-versions");
    let schema = "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)";
    let pairs = run.pairs(&[
        json!({"id": "a", "label": "different", "schema": schema, "generated_sql": "SELECT name FROM users WHERE id = 1", "expected_sql": "SELECT name FROM users WHERE id = 2"}),
        json!({"id": "b", "label": "equivalent", "schema": schema, "generated_sql": "SELECT u.name FROM users u WHERE u.id = 1", "expected_sql": "SELECT name FROM users WHERE id = 1"}),
        json!({"id": "c", "human_label": "maybe", "generated_sql": "SELECT 1", "expected_sql": "SELECT 1"}),
    ]);
    let score = |version: &str| {
        run.score(
            &pairs,
            &double,
            "openai",
            "m",
            &[
                "--profile",
                "sql-metrics",
                "--no-equivalence",
                "--judge-prompt",
                version,
            ],
        )
    };
    let (_, stderr) = score("v1");
    assert!(
        stderr.contains("line 3: field `human_label`: \"maybe\" is not a verdict"),
        "{stderr}"
    );
    assert!(
        stderr.contains("qeval: judges against the human labels:"),
        "{stderr}"
    );
    assert!(
        stderr.contains("query_correctness: 2 labelled, agreement "),
        "{stderr}"
    );
    let after_v1 = double.requests();
    assert!(after_v1 > 0);
    // Version 2 is another prompt: nothing cached under version 1 answers it...
    let (_, stderr) = score("v2");
    assert_eq!(double.requests(), 2 * after_v1, "{stderr}");
    // ...and a second run of it asks nothing.
    score("v2");
    assert_eq!(double.requests(), 2 * after_v1);
}

#[test]
fn a_judge_timeout_that_is_not_a_time_is_refused_before_any_call() {
    let run = RunFolder::new("bad-timeout");
    let double = JudgeDouble::start().expect("double starts");
    let pairs = run.pairs(&[pair(1)]);
    for timeout in [
        "--judge-timeout=-1",
        "--judge-timeout=0",
        "--judge-timeout=NaN",
    ] {
        let (records, stderr) = run.score(&pairs, &double, "openai", "m", &[timeout]);
        assert!(records.is_empty(), "{timeout}: nothing scored");
        assert!(
            stderr.contains("--judge-timeout")
                && stderr.contains("takes a number of seconds above 0"),
            "{timeout}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{timeout}: {stderr}");
    }
    assert_eq!(double.requests(), 0);
}

#[test]
fn a_redirect_is_not_followed_so_no_key_header_reaches_another_host() {
    let double = JudgeDouble::start().expect("double");
    let thief = JudgeDouble::start().expect("a second server");
    let port = thief.url.rsplit(':').next().unwrap_or_default().to_string();
    let run = RunFolder::new("redirect");
    let pairs = run.pairs(&[pair(1)]);
    // Each provider's own key header, and a custom one.
    let cases: [(&str, &[&str]); 4] = [
        ("anthropic", &[]),
        ("gemini", &[]),
        ("openai", &["--judge-key-header", "api-key"]),
        ("openai", &["--judge-key-header", "x-team-secret"]),
    ];
    for (provider, extra) in cases {
        let output = Command::new(env!("CARGO_BIN_EXE_qeval"))
            .args(["score", "--no-cache", "--pairs"])
            .arg(&pairs)
            .args(["--judge", provider, "--judge-url"])
            .arg(base_url(&double, provider))
            .args(["--judge-model", &format!("redirect-{port}")])
            .args(["--judge-key-env", "QEVAL_TEST_KEY"])
            .args(extra)
            .env("QEVAL_TEST_KEY", "sk-must-stay-home")
            .output()
            .expect("qeval runs");
        let card: Value = serde_json::from_slice(&output.stdout).expect("one scorecard");
        let semantic = &card["metrics"]["semantic_similarity"];
        assert_eq!(semantic["details"]["judge"], "structural", "{card}");
        let explanation = semantic["explanation"].as_str().unwrap_or_default();
        assert!(
            explanation.contains("redirect") && explanation.contains("not followed"),
            "{provider} {extra:?}: {explanation}"
        );
        assert_eq!(
            double.keys(),
            ["sk-must-stay-home"],
            "the judge got the key"
        );
    }
    assert_eq!(thief.requests(), 0, "nothing reached the other host");
}

#[test]
fn a_gzip_reply_that_inflates_past_the_cap_is_an_error_not_memory() {
    let double = JudgeDouble::start().expect("double");
    let run = RunFolder::new("gzip-bomb");
    let pairs = run.pairs(&[pair(1)]);
    let (records, _) = run.score(
        &pairs,
        &double,
        "openai",
        "fault-gzip-bomb",
        &["--no-cache"],
    );
    let semantic = &records[0]["metrics"]["semantic_similarity"];
    assert_eq!(semantic["details"]["judge"], "structural", "{semantic}");
    let explanation = semantic["explanation"].as_str().unwrap_or_default();
    assert!(
        explanation.contains("larger than 10 MB once decompressed"),
        "{explanation}"
    );
}

#[test]
fn a_retry_after_longer_than_the_judge_timeout_fails_at_once() {
    let double = JudgeDouble::start().expect("double");
    let run = RunFolder::new("retry-hour");
    let pairs = run.pairs(&[pair(1)]);
    let started = Instant::now();
    let (records, _) = run.score(
        &pairs,
        &double,
        "openai",
        "fault-retry-hour",
        &["--no-cache", "--judge-timeout", "5"],
    );
    assert!(
        started.elapsed().as_secs_f64() < 4.0,
        "no wait for an hour, nor for the timeout"
    );
    assert_eq!(double.requests(), 1);
    let explanation = records[0]["metrics"]["semantic_similarity"]["explanation"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        explanation.contains("asked to wait 3600 s"),
        "{explanation}"
    );
}

#[test]
fn a_score_given_as_a_string_is_not_a_verdict() {
    let double = JudgeDouble::start().expect("double");
    let run = RunFolder::new("string-score");
    let pairs = run.pairs(&[pair(1)]);
    let (records, _) = run.score(
        &pairs,
        &double,
        "openai",
        "fault-string-score",
        &["--no-cache"],
    );
    let semantic = &records[0]["metrics"]["semantic_similarity"];
    assert_eq!(semantic["details"]["judge"], "structural", "{semantic}");
    assert!(
        semantic["explanation"]
            .as_str()
            .is_some_and(|e| e.contains("`score` is the string \"1.0\", not a number")),
        "{semantic}"
    );
    assert_eq!(double.requests(), 2, "asked once more, quoting the error");
}
