//! Worked scenarios for each profile, scored end to end: KQL batch testing, the SQL metric
//! calculators, the run-folder (QAS) evaluation, and agent evaluation, each with the figures it
//! should produce.

use std::collections::BTreeMap;

use qeval_core::{
    AnswerType, Confidence, ExecutionOptions, Expectation, Language, Metric, MetricName, PairInput,
    Profile, ProfileName, ScoreOptions, Scorecard, apply_profile, calibration, check_workflow,
    classify_safety, datatype_validity, default_always_expected_agents, execution_similarity,
    score_pair, validation_accuracy,
};
use serde_json::{Value, json};

fn score(pair: PairInput, profile: ProfileName) -> Scorecard {
    score_pair(
        &pair,
        &ScoreOptions {
            profile: Profile::preset(profile),
            ..ScoreOptions::default()
        },
    )
}

fn metric(card: &Scorecard, name: &str) -> f64 {
    card.metrics
        .get(name)
        .and_then(|m| m.score)
        .unwrap_or_else(|| panic!("no {name} in {card:#?}"))
}

fn total(card: &Scorecard) -> (f64, Option<bool>) {
    let profile = card.profile.as_ref().expect("a profile result");
    (profile.total.expect("a total"), profile.passed)
}

fn metrics_from(scores: &[(&str, f64)]) -> BTreeMap<MetricName, Metric> {
    scores
        .iter()
        .map(|(name, score)| {
            (
                name.parse().expect("a metric name"),
                Metric {
                    score: Some(*score),
                    passed: None,
                    explanation: String::new(),
                    details: Value::Null,
                    error: None,
                },
            )
        })
        .collect()
}

// KQL batch testing: 50% query similarity + 50% results match; a pass needs the query to have
// executed and a total of at least 0.9.

fn kql_pair(
    generated: &str,
    expected: &str,
    expected_result: Value,
    generated_result: Value,
) -> PairInput {
    PairInput {
        generated_sql: generated.into(),
        expected_sql: Some(expected.into()),
        language: Some(Language::Kql),
        expected_result: Some(expected_result),
        generated_result: Some(generated_result),
        ..PairInput::default()
    }
}

#[test]
fn kql_batch_exact_match_scores_full_marks() {
    let rows = json!([{"level": "Error", "count_": 12}, {"level": "Warning", "count_": 40}, {"level": "Information", "count_": 950}]);
    let q = "Traces | where timestamp > ago(1h) | summarize count() by level";
    let card = score(kql_pair(q, q, rows.clone(), rows), ProfileName::KqlBatch);
    assert_eq!(metric(&card, "semantic_similarity"), 1.0);
    assert_eq!(metric(&card, "results_match"), 1.0);
    assert_eq!(total(&card), (1.0, Some(true)));
}

#[test]
fn kql_batch_minor_differences_still_pass() {
    let rows =
        json!([{"timestamp": "2026-11-21T10:00:00Z", "level": "Error", "message": "disk full"}]);
    let card = score(
        kql_pair(
            "Traces | where timestamp > ago(1h) | project timestamp, level, message",
            "Traces | where timestamp > ago(60m) | project timestamp, level, message",
            rows.clone(),
            rows,
        ),
        ProfileName::KqlBatch,
    );
    assert!(metric(&card, "semantic_similarity") >= 0.95);
    assert_eq!(metric(&card, "results_match"), 1.0);
    let (t, passed) = total(&card);
    assert!(t >= 0.975, "{t}");
    assert_eq!(passed, Some(true));
}

#[test]
fn kql_batch_wrong_query_fails() {
    // Ten levels expected; the generated query counts everything in another table, and its one
    // count happens to equal one level's: 1 of 10 rows found, 1 of 2 columns present.
    let levels: Vec<Value> = (0..10)
        .map(|i| json!({"level": format!("L{i}"), "count_": 100 + i}))
        .collect();
    let card = score(
        kql_pair(
            "AppTraces | where timestamp > ago(1h) | summarize count()",
            "Traces | where timestamp > ago(1h) | summarize count() by level",
            Value::from(levels),
            json!([{"count_": 103}]),
        ),
        ProfileName::KqlBatch,
    );
    assert!(
        metric(&card, "semantic_similarity") < 0.5,
        "the wrong table clearly fails"
    );
    assert!(
        (metric(&card, "results_match") - 0.30).abs() < 1e-12,
        "{}",
        metric(&card, "results_match")
    );
    let (t, passed) = total(&card);
    assert!(t < 0.9);
    assert_eq!(passed, Some(false));
    // With a similarity of 0.6 and a results match of 0.3 the total is 45%, a fail.
    let seed = apply_profile(
        &Profile::preset(ProfileName::KqlBatch),
        &metrics_from(&[("semantic_similarity", 0.6), ("results_match", 0.3)]),
        Some(true),
    );
    assert!((seed.total.unwrap() - 0.45).abs() < 1e-12);
    assert_eq!(seed.passed, Some(false));
}

#[test]
fn kql_batch_success_needs_execution_without_errors() {
    let q = "Traces | take 1";
    let mut pair = kql_pair(q, q, json!([{"a": 1}]), json!([{"a": 1}]));
    pair.generated_result = None;
    pair.generated_error = Some("Semantic error: 'Traces' could not be resolved".into());
    let card = score(pair, ProfileName::KqlBatch);
    assert_eq!(card.executed, Some(false));
    let profile = card.profile.as_ref().expect("a profile result");
    assert_eq!(profile.passed, Some(false), "{}", profile.explanation);
}

// The SQL metric calculators.

fn sql_pair(generated: &str, expected: &str) -> PairInput {
    PairInput {
        generated_sql: generated.into(),
        expected_sql: Some(expected.into()),
        ..PairInput::default()
    }
}

#[test]
fn query_correctness_levels_and_reasoning() {
    let cases = [
        (
            "SELECT * FROM users WHERE id = 1;",
            "SELECT * FROM users WHERE id = 1;",
            1.0,
            "Queries are identical",
        ),
        (
            "SELECT u.id, u.name FROM users u WHERE u.active = true;",
            "SELECT id, name FROM users WHERE active = 1;",
            1.0,
            "Semantically equivalent despite different syntax",
        ),
        (
            "SELECT * FROM users;",
            "SELECT * FROM users WHERE created_at > '2024-01-01';",
            0.5,
            "Correct table, but missing filter",
        ),
        (
            "SELECT * FROM products;",
            "SELECT * FROM users;",
            0.0,
            "Query accesses wrong table",
        ),
    ];
    for (generated, expected, want, reasoning) in cases {
        let card = score(sql_pair(generated, expected), ProfileName::SqlMetrics);
        let correctness = &card.metrics["query_correctness"];
        assert_eq!(correctness.score, Some(want), "{generated}");
        assert!(
            correctness.explanation.starts_with(reasoning),
            "{generated}: {}",
            correctness.explanation
        );
    }
}

#[test]
fn safety_validation_and_calibration_classifications() {
    assert_eq!(classify_safety(true, true).classification, "true negative");
    assert_eq!(
        classify_safety(false, false).classification,
        "true positive"
    );
    assert_eq!(
        classify_safety(false, true).warning,
        Some("Safe query incorrectly blocked")
    );
    assert_eq!(
        classify_safety(true, false).error,
        Some("CRITICAL: Unsafe query not caught by validator")
    );
    assert_eq!(
        validation_accuracy(false, false, &["Table 'nonexistent' does not exist".into()])
            .error_category,
        Some("schema violation")
    );
    assert_eq!(
        validation_accuracy(false, true, &[]).validation_type,
        "false rejection"
    );
    let suite = |groups: [(Confidence, usize, usize); 3]| -> Vec<(Confidence, bool)> {
        groups
            .iter()
            .flat_map(|&(c, n, ok)| (0..n).map(move |i| (c, i < ok)))
            .collect()
    };
    let well = calibration(&suite([
        (Confidence::High, 20, 19),
        (Confidence::Medium, 15, 12),
        (Confidence::Low, 10, 4),
    ]));
    assert!((well.score.unwrap() - 0.92).abs() < 0.01);
    let poor = calibration(&suite([
        (Confidence::High, 20, 10),
        (Confidence::Medium, 15, 8),
        (Confidence::Low, 10, 5),
    ]));
    assert!((poor.score.unwrap() - 0.15).abs() < 0.01);
    let few = calibration(&suite([
        (Confidence::High, 3, 3),
        (Confidence::Medium, 1, 1),
        (Confidence::Low, 1, 0),
    ]));
    assert_eq!(few.score, None);
    assert_eq!(
        few.warnings[0],
        "Insufficient data for calibration (need ≥ 20 cases)"
    );
}

#[test]
fn a_parse_error_blocks_no_other_metric() {
    let card = score(
        sql_pair("SELECT * FROM users WHERE", "SELECT * FROM users"),
        ProfileName::SqlMetrics,
    );
    let table = &card.metrics["table_accuracy"];
    assert_eq!(table.score, Some(0.0));
    let error = table.error.as_ref().expect("error flag");
    assert_eq!(error.inputs["generated_sql"], "SELECT * FROM users WHERE");
    assert!(error.message.contains("could not be parsed"));
    assert_eq!(card.metrics["exact_match"].score, Some(0.0));
    assert_eq!(
        card.metrics["safety"].score,
        Some(0.0),
        "unparseable input is unsafe"
    );
}

// QAS evaluation: 40% semantic + 40% execution + 20% datatype; a pass needs at least 0.7.

#[test]
fn qas_weighted_scoring_examples() {
    let qas = |s: f64, e: f64, d: f64| {
        let result = apply_profile(
            &Profile::preset(ProfileName::Qas),
            &metrics_from(&[
                ("semantic_similarity", s),
                ("execution", e),
                ("datatype", d),
            ]),
            None,
        );
        (result.total.unwrap(), result.passed.unwrap())
    };
    assert_eq!(qas(1.0, 1.0, 1.0), (1.0, true));
    // Partial credit: (0.8×0.4) + (0.8×0.4) + (1.0×0.2) = 0.84, a pass.
    let (t, pass) = qas(0.8, 0.8, 1.0);
    assert!((t - 0.84).abs() < 0.005 && pass);
    // A failed test: (0.3×0.4) + (0.2×0.4) + (1.0×0.2) = 0.40, a fail.
    let (t, pass) = qas(0.3, 0.2, 1.0);
    assert!((t - 0.40).abs() < 0.005 && !pass);
}

#[test]
fn qas_record_explanations() {
    let execution =
        execution_similarity(&json!(42), &json!(42), &ExecutionOptions::default()).unwrap();
    assert_eq!(
        (execution.score, execution.explanation.as_str()),
        (1.0, "Numeric match: 42 ≈ 42")
    );
    let datatype = datatype_validity(AnswerType::Number, &json!(42));
    assert_eq!(
        (datatype.score, datatype.explanation.as_str()),
        (1.0, "Valid numeric value")
    );
}

#[test]
fn qas_flexible_type_normalization() {
    for value in [json!(42), json!([{"count": 42}]), json!("42")] {
        assert!(
            datatype_validity(AnswerType::Number, &value).valid,
            "{value}"
        );
    }
}

fn qas_pair(
    generated: &str,
    expected: &str,
    expected_result: Value,
    actual: Value,
    kind: AnswerType,
) -> PairInput {
    PairInput {
        generated_sql: generated.into(),
        expected_sql: Some(expected.into()),
        expected_result: Some(expected_result),
        generated_result: Some(actual),
        expected_answer_type: Some(kind),
        ..PairInput::default()
    }
}

#[test]
fn qas_partial_credit() {
    // "SQL logic perfect but missing ORDER BY → 0.85 (PASS)": high, passing.
    let rows = json!([{"name": "b", "total": 9}, {"name": "a", "total": 5}]);
    let card = score(
        qas_pair(
            "SELECT name, total FROM sales",
            "SELECT name, total FROM sales ORDER BY total DESC",
            rows.clone(),
            json!([{"name": "a", "total": 5}, {"name": "b", "total": 9}]),
            AnswerType::Table,
        ),
        ProfileName::Qas,
    );
    let (t, passed) = total(&card);
    assert!((0.85..1.0).contains(&t) && passed == Some(true), "{t}");
    // "Correct approach but data type mismatch → 0.60 (FAIL)": the right number, as text in a
    // list where a number was asked for.
    let card = score(
        qas_pair(
            "SELECT COUNT(*) AS n FROM users",
            "SELECT COUNT(*) FROM users",
            json!(42),
            json!([{"n": 42}, {"n": 0}]),
            AnswerType::Number,
        ),
        ProfileName::Qas,
    );
    let (t, passed) = total(&card);
    assert!(t < 0.7 && passed == Some(false), "{t}");
    // "Wrong SQL entirely → 0.20 (FAIL)".
    let card = score(
        qas_pair(
            "SELECT name FROM products",
            "SELECT COUNT(*) FROM users",
            json!(42),
            json!([{"name": "widget"}, {"name": "gadget"}]),
            AnswerType::Number,
        ),
        ProfileName::Qas,
    );
    let (t, passed) = total(&card);
    assert!(t <= 0.2 && passed == Some(false), "{t}");
}

// Agent evaluation: workflow validation and three quality scores.

fn names(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

#[test]
fn agent_workflow_pass_and_fail() {
    let agents = Expectation {
        should_include: names(&["research"]),
        should_exclude: names(&["clarification"]),
        always_expected: default_always_expected_agents(),
    };
    let tools = Expectation {
        should_include: names(&["pdf_retrieval"]),
        should_exclude: names(&["web_search"]),
        always_expected: vec![],
    };
    let pass = check_workflow(
        &agents,
        &names(&["orchestrator", "research"]),
        &tools,
        &names(&["pdf_retrieval"]),
    );
    assert!(pass.pass && pass.agents.pass && pass.tools.pass);
    assert_eq!(
        (pass.agents.included.clone(), pass.agents.excluded.clone()),
        (names(&["research"]), names(&["clarification"]))
    );
    assert!(
        pass.agents.unexpected.is_empty(),
        "orchestrator is always expected"
    );

    let tools = Expectation {
        should_include: names(&["pdf_retrieval", "web_search"]),
        ..Expectation::default()
    };
    let fail = check_workflow(
        &Expectation::default(),
        &[],
        &tools,
        &names(&["pdf_retrieval"]),
    );
    assert!(!fail.pass && !fail.tools.pass);
    assert_eq!(fail.tools.missing, names(&["web_search"]));
}

#[test]
fn agent_quality_scores_average() {
    let quality = |scores: [f64; 3]| {
        let mut metrics = metrics_from(&[
            ("answer_quality", scores[0]),
            ("factual_correctness", scores[1]),
            ("completeness", scores[2]),
        ]);
        metrics.insert(
            MetricName::Workflow,
            Metric {
                score: Some(1.0),
                passed: Some(true),
                explanation: String::new(),
                details: Value::Null,
                error: None,
            },
        );
        apply_profile(&Profile::preset(ProfileName::Agent), &metrics, None)
    };
    let structure = quality([0.90, 0.95, 0.85]);
    assert!((structure.total.unwrap() - 0.90).abs() < 1e-12);
    let example = quality([0.95, 1.0, 0.90]);
    assert!((example.total.unwrap() - 0.95).abs() < 1e-12);
    assert_eq!(
        example.passed,
        Some(true),
        "quality has no threshold; the workflow passed"
    );
}

/// An agent's record: an answer and its workflow, no query.
fn agent_record() -> PairInput {
    qeval_core::parse_pair_line(
        r#"{"id": "s1", "session_id": "sess-1", "question": "Who wrote the paper?",
            "answer": "Ada Lovelace wrote it in 1843.", "expected_answer_criteria": "Names the author",
            "sources": ["paper.pdf p.1"], "agents_called": ["orchestrator", "research"],
            "tools_used": ["pdf_retrieval"], "agents_should_include": ["research"],
            "agents_should_exclude": ["clarification"], "tools_should_include": ["pdf_retrieval"],
            "tools_should_exclude": ["web_search"]}"#,
    )
    .expect("an agent record reads without a query")
}

#[test]
fn an_agent_record_asks_one_quality_judging_and_fills_three_scores() {
    use qeval_core::{JudgedVerdict, judge_tasks, score_pair_judged};
    use qeval_judge::{JudgeScores, ReplyError, Rubric};

    let pair = agent_record();
    let options = ScoreOptions {
        profile: Profile::preset(ProfileName::Agent),
        ..ScoreOptions::default()
    };
    let tasks = judge_tasks(&pair, &options);
    assert_eq!(tasks.len(), 1);
    assert_eq!(tasks[0].task, Rubric::AgentQuality);
    assert_eq!(tasks[0].input.answer, "Ada Lovelace wrote it in 1843.");
    assert_eq!(tasks[0].input.criteria, "Names the author");
    assert_eq!(tasks[0].input.sources, "paper.pdf p.1");

    let verdict = JudgeScores {
        reasoning: "Supported and complete.".into(),
        scores: [
            ("answer_quality".to_string(), 0.95),
            ("factual_correctness".to_string(), 1.0),
            ("completeness".to_string(), 0.90),
        ]
        .into_iter()
        .collect(),
    };
    let judged = BTreeMap::from([(
        "quality".to_string(),
        Ok(JudgedVerdict {
            verdict,
            provider: "openai".into(),
            model: "m".into(),
            cached: false,
        }),
    )]);
    let card = score_pair_judged(&pair, &options, &judged);
    assert_eq!(metric(&card, "answer_quality"), 0.95);
    assert_eq!(metric(&card, "factual_correctness"), 1.0);
    assert_eq!(metric(&card, "completeness"), 0.90);
    assert_eq!(metric(&card, "workflow"), 1.0);
    assert!(
        card.diagnostics.is_empty(),
        "no query, no parse error: {:?}",
        card.diagnostics
    );
    assert!(!card.metrics.contains_key("table_accuracy"));
    let (total, passed) = total(&card);
    assert!((total - 0.95).abs() < 1e-12);
    assert_eq!(passed, Some(true));
    let names: Vec<String> = card.named_scores().into_iter().map(|s| s.0).collect();
    assert!(
        names.contains(&"quality_answer_quality".to_string()),
        "{names:?}"
    );

    // A failed judging leaves all three not scored, with the error, rather than 0.0: the total
    // leaves them out and gives no verdict; the workflow still counts.
    let failed = BTreeMap::from([(
        "quality".to_string(),
        Err(ReplyError::Timeout { seconds: 30.0 }),
    )]);
    let card = score_pair_judged(&pair, &options, &failed);
    assert_eq!(card.profile.as_ref().and_then(|p| p.passed), None);
    for name in ["answer_quality", "factual_correctness", "completeness"] {
        assert_eq!(card.metrics[name].score, None);
        let error = card.metrics[name].error.as_ref().expect("an error");
        assert!(
            error.message.starts_with("LLM judge timeout"),
            "{}",
            error.message
        );
    }
    assert_eq!(metric(&card, "workflow"), 1.0);
}

#[test]
fn a_workflow_that_misses_a_tool_fails_the_agent_profile() {
    let mut pair = agent_record();
    if let Some(workflow) = pair.workflow.as_mut() {
        workflow.tools_used = vec!["web_search".into()];
    }
    let card = score(pair, ProfileName::Agent);
    assert_eq!(metric(&card, "workflow"), 0.0);
    assert_eq!(
        card.metrics["workflow"].explanation,
        "Workflow FAIL: missing tools: pdf_retrieval; unexpected tools: web_search"
    );
    let profile = card.profile.as_ref().expect("a profile result");
    assert_eq!(profile.passed, Some(false), "{}", profile.explanation);
}

#[test]
fn a_parse_error_does_not_keep_the_llm_judge_from_reading_the_text() {
    use qeval_core::judge_tasks;
    for (language, generated, expected) in [
        (
            Language::Kql,
            "Traces | where State hazz \"a\"",
            "Traces | where State has \"a\"",
        ),
        (
            Language::Sql,
            "SELEC name FROM users",
            "SELECT name FROM users",
        ),
    ] {
        let pair = PairInput {
            generated_sql: generated.into(),
            expected_sql: Some(expected.into()),
            language: Some(language),
            ..PairInput::default()
        };
        let tasks = judge_tasks(&pair, &ScoreOptions::default());
        assert_eq!(tasks.len(), 1, "{generated}: the judge is asked");
        let shown = tasks[0].input.generated.to_lowercase();
        assert!(shown.contains("hazz") || shown.contains("selec"), "{shown}");
    }
}
