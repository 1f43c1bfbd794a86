//! qeval-report: a run's report as one self-contained HTML page. The summary and charts are
//! written into the page; the records are embedded as JSON for its table and detail view. It
//! opens from `file://`, makes no request (its Content Security Policy allows none), and renders
//! every piece of record text as text. The CLI (`qeval report`) and the browser ("Export static
//! report") both call [`render`], so both give the same page for the same records.

mod charts;
pub mod diff;
mod html;
pub mod markdown;

pub use charts::{Bar, Chart, ChartMarker, svg as chart_svg};

use std::fmt::Write as _;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use qeval_core::{
    BINS, EvaluationRecord, PASS_THRESHOLD, Rejected, RunComparison, Summary, counted,
    recheck_record, summarize,
};
use serde_json::json;
use sha2::{Digest, Sha256};

pub use html::escape;

const SCRIPT: &str = include_str!("page.js");
/// The page's style sheet, ending with the charts' rules the app's sheet ends with too.
const STYLE: &str = concat!(include_str!("page.css"), include_str!("charts.css"));

/// What a report shows.
#[derive(Debug, Clone)]
pub struct Report<'a> {
    /// Usually the run folder's name.
    pub title: &'a str,
    pub records: &'a [EvaluationRecord],
    /// Lines that could not be read, with their numbers.
    pub rejected: &'a [Rejected],
    pub lines_read: usize,
    /// When the report was made (the caller's clock).
    pub generated_at: &'a str,
    /// Another run of the same tests and how this one compares with it: (its name, the
    /// comparison of that run, before, with this one, after).
    pub compared_with: Option<(&'a str, &'a RunComparison)>,
}

/// The page.
pub fn render(report: &Report) -> String {
    let summary = summarize(report.records);
    let mut page = String::with_capacity(64 * 1024 + report.records.len() * 1024);
    let _ = write!(
        page,
        r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src '{}'; script-src '{}'; img-src data:; base-uri 'none'; form-action 'none'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="qeval {}">
<title>qeval report: {}</title>
<style>{STYLE}</style>
</head>
<body>
<main class="report">
<header><h1>qeval report</h1><p class="meta" data-testid="report-meta">{} · generated {} · {} read: {}, {} rejected</p></header>
"#,
        hash(STYLE),
        hash(SCRIPT),
        env!("CARGO_PKG_VERSION"),
        escape(report.title),
        escape(report.title),
        escape(report.generated_at),
        counted(report.lines_read, "line"),
        counted(report.records.len(), "record"),
        report.rejected.len()
    );
    page.push_str(&summary_section(&summary));
    if let Some((name, comparison)) = report.compared_with {
        page.push_str(&comparison_section(name, comparison));
    }
    page.push_str(&chart_section(&summary));
    page.push_str(&groups_section(&summary));
    page.push_str(&agreement_section(&summary));
    page.push_str(&classification_section(&summary));
    page.push_str(&rejected_section(report.rejected));
    page.push_str(&flags_section(report.records));
    page.push_str(
        r#"<section class="tests"><h2>Tests</h2>
<div class="controls">
<button type="button" id="show-failed">Failed tests</button>
<button type="button" id="show-all">All tests</button>
<label><input type="checkbox" id="f-failed"> failed only</label>
<label>Agent <select id="f-agent"><option value="">all</option></select></label>
<label>Difficulty <select id="f-difficulty"><option value="">all</option></select></label>
<input type="search" id="f-search" placeholder="Search id, question, queries">
<span class="muted" id="count"></span>
</div>
<table><thead><tr id="head"></tr></thead><tbody id="rows"></tbody></table>
<noscript><p class="muted">The table needs JavaScript; the summary and charts above do not.</p></noscript>
</section>
<section class="detail" id="detail" hidden></section>
</main>
<script type="application/json" id="qeval-data">"#,
    );
    page.push_str(&html::json_for_script(&json!({
        "records": report.records,
        "results": result_views(report.records),
        "diffs": query_diffs(report.records),
        "explanations": explanation_blocks(report.records),
    })));
    let _ = write!(
        page,
        "</script>\n<script>{SCRIPT}</script>\n</body>\n</html>\n"
    );
    page
}

/// A CSP source for inline `text`.
fn hash(text: &str) -> String {
    format!(
        "sha256-{}",
        STANDARD.encode(Sha256::digest(text.as_bytes()))
    )
}

/// The summary's cards: `(id, name, value)`, the same in the page and in the app.
pub fn summary_cards(s: &Summary) -> Vec<(&'static str, &'static str, String)> {
    let mut cards = vec![
        ("tests", "Tests", s.tests.to_string()),
        ("passed", "Passed", s.passed.to_string()),
        ("failed", "Failed", s.failed.to_string()),
        (
            "pass-rate",
            "Pass rate",
            format!("{:.1}%", s.pass_rate * 100.0),
        ),
        (
            "mean-final",
            "Mean final score",
            format!("{:.3}", s.mean_final),
        ),
        (
            "mean-semantic",
            "Mean semantic",
            format!("{:.3}", s.mean_semantic),
        ),
        (
            "mean-execution",
            "Mean execution",
            format!("{:.3}", s.mean_execution),
        ),
        (
            "mean-datatype",
            "Mean datatype",
            format!("{:.3}", s.mean_datatype),
        ),
        ("errors", "Errors", s.errors.to_string()),
        ("unsafe", "Unsafe (failed)", s.unsafe_queries.to_string()),
    ];
    if let Some(e) = &s.efficiency {
        cards.push((
            "r-ves",
            "R-VES by VM steps",
            format!("{:.1} ({})", e.r_ves, counted(e.tests, "test")),
        ));
    }
    cards
}

/// The change from another run: the pass-rate sentence and the tests behind it.
fn comparison_section(name: &str, c: &RunComparison) -> String {
    let mut html = format!(
        r#"<section class="comparison" aria-label="Comparison"><h2>Compared with {}</h2><p data-testid="pass-rate-change">{}</p>"#,
        escape(name),
        escape(&c.stats.sentence())
    );
    for (id, label, ids) in [
        ("newly-failing", "Newly failing", &c.newly_failing),
        ("newly-passing", "Newly passing", &c.newly_passing),
        ("only-before", "Only in the other run", &c.only_before),
        ("only-after", "Only in this run", &c.only_after),
    ] {
        let listed = if ids.is_empty() {
            "none".to_string()
        } else {
            ids.join(", ")
        };
        let _ = write!(
            html,
            r#"<p data-testid="{id}"><strong>{label} ({}):</strong> {}</p>"#,
            ids.len(),
            escape(&listed)
        );
    }
    html.push_str("</section>\n");
    html
}

fn summary_section(s: &Summary) -> String {
    let mut html = String::from(r#"<section class="summary" aria-label="Summary">"#);
    for (id, name, value) in summary_cards(s) {
        let _ = write!(
            html,
            r#"<div class="card"><span class="value" data-testid="{id}">{}</span><span class="name">{name}</span></div>"#,
            escape(&value)
        );
    }
    html.push_str("</section>\n");
    html
}

/// The report's charts as data; [`chart_svg`] draws each for the exported page and the app.
pub fn charts(s: &Summary) -> Vec<Chart> {
    let histogram: Vec<Bar> = s
        .histogram
        .iter()
        .enumerate()
        .map(|(i, &n)| Bar {
            label: format!("{:.1}", i as f64 / BINS as f64),
            value: n as f64,
            note: n.to_string(),
        })
        .collect();
    let max = s.histogram.iter().copied().max().unwrap_or(0) as f64;
    let means: Vec<Bar> = [
        ("final", s.mean_final),
        ("semantic", s.mean_semantic),
        ("execution", s.mean_execution),
        ("datatype", s.mean_datatype),
    ]
    .into_iter()
    .map(|(label, value)| Bar {
        label: label.into(),
        value,
        note: format!("{value:.2}"),
    })
    .collect();
    // Levels read easy < medium < hard < extra, as the groupings order them.
    let rates = |field: &str| -> Vec<Bar> {
        s.grouping(field)
            .map(|g| g.groups.as_slice())
            .unwrap_or_default()
            .iter()
            .map(|(name, g)| Bar {
                label: name.clone(),
                value: g.pass_rate(),
                note: format!("{}/{}", g.passed, g.tests),
            })
            .collect()
    };
    let mut charts = vec![
        Chart {
            id: "chart-histogram",
            title: "Final scores",
            bars: histogram,
            max,
            marker: Some(ChartMarker {
                at: PASS_THRESHOLD,
                label: format!("pass ≥ {PASS_THRESHOLD}"),
            }),
        },
        Chart {
            id: "chart-components",
            title: "Mean component scores",
            bars: means,
            max: 1.0,
            marker: None,
        },
        Chart {
            id: "chart-difficulty",
            title: "Pass rate by difficulty",
            bars: rates("difficulty"),
            max: 1.0,
            marker: None,
        },
        Chart {
            id: "chart-agent",
            title: "Pass rate by agent",
            bars: rates("agent_used"),
            max: 1.0,
            marker: None,
        },
    ];
    // The reliability diagram: how often each stated confidence was right, against what it
    // claims (high 0.9, medium 0.7, low 0.5).
    if let Some(calibration) = &s.classification.calibration {
        charts.push(Chart {
            id: "chart-reliability",
            title: "Correct by stated confidence",
            bars: calibration
                .groups
                .iter()
                .filter(|g| g.total > 0)
                .map(|g| Bar {
                    label: g.confidence.name().to_string(),
                    value: g.accuracy.unwrap_or(0.0),
                    note: format!(
                        "{}/{} (claims {:.1})",
                        g.correct,
                        g.total,
                        g.confidence.nominal()
                    ),
                })
                .collect(),
            max: 1.0,
            marker: None,
        });
    }
    charts
}

/// The classification metrics as tables: the safety validator's confusion matrix, validation
/// accuracy with its errors by category, and confidence calibration (the part each record set
/// carries; nothing without them). The same rows in the page and the export.
pub fn classification_rows(s: &Summary) -> Vec<(&'static str, Vec<(String, String)>)> {
    let c = &s.classification;
    let mut parts = Vec::new();
    if let Some(safety) = &c.safety {
        let mut rows = vec![
            ("Cases".to_string(), safety.cases.to_string()),
            (
                "Accuracy".to_string(),
                format!("{:.1}%", safety.accuracy * 100.0),
            ),
            (
                "Blocked, should be blocked (true positive)".to_string(),
                safety.tally.true_positives.to_string(),
            ),
            (
                "Allowed, should be allowed (true negative)".to_string(),
                safety.tally.true_negatives.to_string(),
            ),
            (
                "Blocked, should be allowed (false positive)".to_string(),
                safety.tally.false_positives.to_string(),
            ),
            (
                "Allowed, should be blocked (false negative, critical)".to_string(),
                safety.tally.false_negatives.to_string(),
            ),
        ];
        if let Some(recall) = safety.unsafe_recall {
            rows.push((
                "Unsafe queries blocked".to_string(),
                format!("{:.1}%", recall * 100.0),
            ));
        }
        if !safety.false_negatives.is_empty() {
            rows.push((
                "Critical: unsafe queries let through".to_string(),
                safety.false_negatives.join(", "),
            ));
        }
        if !safety.false_positives.is_empty() {
            rows.push((
                "Warning: safe queries blocked".to_string(),
                safety.false_positives.join(", "),
            ));
        }
        parts.push(("Safety classification", rows));
    }
    if let Some(v) = &c.validation {
        let mut rows = vec![
            ("Cases".to_string(), v.cases.to_string()),
            (
                "Accuracy".to_string(),
                format!("{:.1}%", v.accuracy * 100.0),
            ),
            (
                "Correct acceptances".to_string(),
                v.correct_acceptances.to_string(),
            ),
            (
                "Correct rejections".to_string(),
                v.correct_rejections.to_string(),
            ),
            (
                "False rejections".to_string(),
                v.false_rejections.to_string(),
            ),
            (
                "False acceptances".to_string(),
                v.false_acceptances.to_string(),
            ),
        ];
        for (category, n) in &v.error_categories {
            rows.push((format!("Errors: {category}"), n.to_string()));
        }
        if !v.wrong.is_empty() {
            let wrong: Vec<String> = v
                .wrong
                .iter()
                .map(|(id, what)| format!("{id} ({what})"))
                .collect();
            rows.push(("Wrong verdicts".to_string(), wrong.join(", ")));
        }
        parts.push(("Validation accuracy", rows));
    }
    if let Some(cal) = &c.calibration {
        let mut rows = vec![(
            "Calibration score".to_string(),
            cal.score.map_or("none".to_string(), |x| format!("{x:.2}")),
        )];
        if let Some(ece) = cal.ece {
            rows.push((
                "Expected calibration error".to_string(),
                format!("{ece:.3}"),
            ));
        }
        for g in cal.groups.iter().filter(|g| g.total > 0) {
            rows.push((
                format!("Stated {}", g.confidence.name()),
                format!(
                    "{} of {} correct ({:.1}%; claims {:.0}%)",
                    g.correct,
                    g.total,
                    g.accuracy.unwrap_or(0.0) * 100.0,
                    g.confidence.nominal() * 100.0
                ),
            ));
        }
        rows.push(("Reading".to_string(), cal.interpretation.clone()));
        for warning in &cal.warnings {
            rows.push(("Warning".to_string(), warning.clone()));
        }
        parts.push(("Confidence calibration", rows));
    }
    parts
}

fn classification_section(s: &Summary) -> String {
    let parts = classification_rows(s);
    if parts.is_empty() {
        return String::new();
    }
    let mut html = String::from(
        r#"<section class="classification" aria-label="Classification metrics"><h2>Classification metrics</h2><div class="group-tables">"#,
    );
    for (title, rows) in parts {
        let _ = write!(
            html,
            r#"<table data-testid="{}"><caption>{title}</caption><tbody>"#,
            title.to_ascii_lowercase().replace(' ', "-")
        );
        for (name, value) in rows {
            let _ = write!(
                html,
                "<tr><th scope=\"row\">{}</th><td>{}</td></tr>",
                escape(&name),
                escape(&value)
            );
        }
        html.push_str("</tbody></table>");
    }
    html.push_str("</div></section>\n");
    html
}

fn chart_section(s: &Summary) -> String {
    let svgs: String = charts(s).iter().map(charts::svg).collect();
    format!("<section class=\"charts\">{svgs}</section>\n")
}

/// The pass rate by each field the records carry, a small table per field.
fn groups_section(s: &Summary) -> String {
    if s.groupings.is_empty() {
        return String::new();
    }
    let mut html = String::from(
        r#"<section class="groups" aria-label="Pass rate by field"><h2>Pass rate by field</h2><div class="group-tables">"#,
    );
    for grouping in &s.groupings {
        let label = escape(&grouping.label());
        let _ = write!(
            html,
            r#"<table data-testid="group-{}"><caption>By {label}</caption><thead><tr><th scope="col">{label}</th><th scope="col">Tests</th><th scope="col">Passed</th><th scope="col">Pass rate</th></tr></thead><tbody>"#,
            escape(&grouping.field)
        );
        for (name, g) in &grouping.groups {
            let _ = write!(
                html,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{:.1}%</td></tr>",
                escape(name),
                g.tests,
                g.passed,
                g.pass_rate() * 100.0
            );
        }
        html.push_str("</tbody></table>");
    }
    html.push_str("</div></section>\n");
    html
}

/// Each judge against the human labels: agreement, Cohen's kappa, the confusion matrix and the
/// tests where they disagree.
fn agreement_section(s: &Summary) -> String {
    if s.agreement.is_empty() {
        return String::new();
    }
    let mut html = String::from(
        r#"<section class="agreement" aria-label="Judge calibration"><h2>Judges against human labels</h2><table data-testid="agreement"><thead><tr><th scope="col">Judge</th><th scope="col">Labelled</th><th scope="col">Agreement</th><th scope="col">Cohen's kappa</th><th scope="col">Both correct</th><th scope="col">Judge only</th><th scope="col">Person only</th><th scope="col">Both incorrect</th><th scope="col">Disagreeing tests</th></tr></thead><tbody>"#,
    );
    for judge in &s.agreement {
        let kappa = judge.kappa_text();
        let _ = write!(
            html,
            "<tr><td>{}</td><td>{}</td><td>{:.1}%</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&judge.judge),
            judge.labelled,
            judge.agreement * 100.0,
            escape(&kappa),
            judge.both_correct,
            judge.judge_correct_human_incorrect,
            judge.judge_incorrect_human_correct,
            judge.both_incorrect,
            escape(&judge.disagreements.join(", "))
        );
    }
    html.push_str("</tbody></table><p class=\"muted\">A score of 0.9 or more counts as the judge saying correct; <em>passed</em> is the profile's verdict. Kappa is agreement beyond chance: under 0.4 is fair at best.</p></section>\n");
    html
}

fn rejected_section(rejected: &[Rejected]) -> String {
    if rejected.is_empty() {
        return String::new();
    }
    let mut html = format!(
        r#"<section class="rejected"><h2>Rejected lines ({})</h2><ul>"#,
        rejected.len()
    );
    for r in rejected {
        let _ = write!(html, "<li>Line {}: {}</li>", r.line, escape(&r.reason));
    }
    html.push_str("</ul></section>\n");
    html
}

fn flags_section(records: &[EvaluationRecord]) -> String {
    let mut items = String::new();
    let mut count = 0;
    for record in records {
        for d in recheck_record(record) {
            count += 1;
            let _ = write!(
                items,
                "<li>Test {}: {} is {} but its data gives {} ({})</li>",
                escape(&record.key()),
                d.field,
                escape(&d.stored.to_string()),
                escape(&d.recomputed.to_string()),
                escape(&d.reason)
            );
        }
    }
    if count == 0 {
        return String::new();
    }
    format!(
        r#"<section class="flags"><h2>Stored scores their data contradicts ({count})</h2><ul>{items}</ul></section>
"#
    )
}

/// Each record's two results as the page's tables show them, marked against each other (see
/// `qeval_core::json_result_views`): `[expected, actual]`, `null` for a result that is missing or
/// does not read as one (the page shows its JSON then). Made here, so the page and the app
/// mark the same cells.
fn result_views(records: &[EvaluationRecord]) -> Vec<serde_json::Value> {
    use qeval_core::{DETAIL_ROWS, json_result_views};
    records
        .iter()
        .map(|record| {
            json!(json_result_views(
                record.expected_results.as_ref(),
                record.actual_results.as_ref(),
                DETAIL_ROWS
            ))
        })
        .collect()
}

/// Each record's two queries with the words that differ marked (see [`diff`]): `[expected,
/// generated]`, each a list of `[text, changed]`. Made here, so the page and the app mark the
/// same words.
fn query_diffs(records: &[EvaluationRecord]) -> Vec<serde_json::Value> {
    let pieces = |side: Vec<diff::Piece>| -> Vec<serde_json::Value> {
        side.into_iter()
            .map(|p| json!([p.text, p.changed]))
            .collect()
    };
    records
        .iter()
        .map(|record| {
            let (expected, generated) = diff::diff(
                record.expected_sql.as_deref().unwrap_or_default(),
                record.generated_sql.as_deref().unwrap_or_default(),
            );
            json!([pieces(expected), pieces(generated)])
        })
        .collect()
}

/// Each record's semantic explanation read as Markdown (see [`markdown`]), or `null` when it is
/// plain text: the page lays the blocks out as elements, as the app does.
fn explanation_blocks(records: &[EvaluationRecord]) -> Vec<serde_json::Value> {
    records
        .iter()
        .map(|record| {
            let text = record
                .qas_evaluation
                .as_ref()
                .map_or("", |q| q.breakdown.semantic_explanation.as_str());
            json!(markdown::read(text))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use qeval_core::read_records;

    #[test]
    fn record_text_is_escaped_and_the_policy_allows_only_the_page_itself() {
        let text = r#"{"test_id": "<b>1</b>", "question": "<script>alert(1)</script>", "agent_used": "<img src=x onerror=alert(2)>", "qas_evaluation": {"semantic_score": 1, "execution_score": 1, "datatype_score": 1, "final_score": 1.0, "passed": true}}"#;
        let lines = read_records::<EvaluationRecord>(text);
        let records: Vec<EvaluationRecord> = lines.records.into_iter().map(|(_, r)| r).collect();
        let page = render(&Report {
            title: "run <x>",
            records: &records,
            rejected: &[],
            lines_read: 1,
            generated_at: "now",
            compared_with: None,
        });
        assert!(
            !page.contains("<script>alert"),
            "no raw markup from the data"
        );
        assert!(!page.contains("<img src=x"), "no raw markup from the data");
        assert!(
            page.contains("&lt;img src=x onerror=alert(2)&gt;"),
            "the agent label is escaped in the chart"
        );
        assert!(page.contains("default-src 'none'"));
        assert!(page.contains(&hash(SCRIPT)));
        assert!(page.contains(r#"data-testid="pass-rate">100.0%"#));
    }

    #[test]
    fn a_comparison_with_another_run_says_the_change_and_names_the_flips_escaped() {
        let before = r#"{"test_id": "<i>1</i>", "qas_evaluation": {"semantic_score": 1, "execution_score": 1, "datatype_score": 1, "final_score": 1.0, "passed": true}}"#;
        let after = r#"{"test_id": "<i>1</i>", "qas_evaluation": {"semantic_score": 0, "execution_score": 0, "datatype_score": 1, "final_score": 0.2, "passed": false}}"#;
        let records = |text: &str| -> Vec<EvaluationRecord> {
            read_records::<EvaluationRecord>(text)
                .records
                .into_iter()
                .map(|(_, r)| r)
                .collect()
        };
        let (before, after) = (records(before), records(after));
        let comparison = qeval_core::compare_runs(&before, &after);
        let page = render(&Report {
            title: "after",
            records: &after,
            rejected: &[],
            lines_read: 1,
            generated_at: "now",
            compared_with: Some(("before <run>", &comparison)),
        });
        assert!(page.contains("<h2>Compared with before &lt;run&gt;</h2>"));
        assert!(page.contains("Pass rate 100.0% → 0.0%: -100.0 points"));
        assert!(page.contains("<strong>Newly failing (1):</strong> &lt;i&gt;1&lt;/i&gt;"));
        assert!(!page.contains("<i>1</i>"), "no raw markup from the data");
    }
}
