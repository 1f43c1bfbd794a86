//! A scored run in the formats CI systems read: CSV (one row per test, for spreadsheets and
//! pandas), JUnit XML (one test case per record, so a CI server lists the failing tests with
//! their explanations) and a Markdown summary short enough for a pull-request comment.
//!
//! Record text is untrusted: in CSV a cell that a spreadsheet would read as a formula (`=`, `+`,
//! `-`, `@`, tab or carriage return first) gets a leading `'`; in XML every markup character is
//! escaped and characters XML cannot hold are dropped; in Markdown, HTML and the characters
//! that make links, emphasis or table cells are escaped, and long text is cut.

use std::fmt::Write as _;

use super::record::EvaluationRecord;
use super::summary::Summary;

/// The CSV columns, in order.
pub(crate) const CSV_COLUMNS: [&str; 15] = [
    "test_id",
    "passed",
    "final_score",
    "semantic_score",
    "execution_score",
    "datatype_score",
    "unsafe",
    "error",
    "question",
    "agent_used",
    "difficulty",
    "sql_hardness",
    "generated_sql",
    "expected_sql",
    "explanation",
];

/// One row per record (RFC 4180: commas, quotes and line breaks inside quoted cells). An
/// unscored record has empty score cells.
pub fn csv(records: &[EvaluationRecord]) -> String {
    let mut out = String::with_capacity(records.len() * 256);
    out.push_str(&CSV_COLUMNS.join(","));
    out.push_str("\r\n");
    for record in records {
        let scores = record.qas_evaluation.as_ref();
        let number = |pick: fn(&super::QasEvaluation) -> f64| {
            scores.map(|s| format_score(pick(s))).unwrap_or_default()
        };
        let cells = [
            text_cell(&record.key()),
            scores.map(|s| s.passed.to_string()).unwrap_or_default(),
            number(|s| s.final_score),
            number(|s| s.semantic_score),
            number(|s| s.execution_score),
            number(|s| s.datatype_score),
            scores
                .map(|_| record.is_unsafe().to_string())
                .unwrap_or_default(),
            text_cell(&record.error().unwrap_or_default()),
            text_cell(&record.question),
            text_cell(record.agent_used.as_deref().unwrap_or_default()),
            text_cell(record.difficulty.as_deref().unwrap_or_default()),
            text_cell(record.sql_hardness.as_deref().unwrap_or_default()),
            text_cell(record.generated_sql.as_deref().unwrap_or_default()),
            text_cell(record.expected_sql.as_deref().unwrap_or_default()),
            text_cell(&explanation(record)),
        ];
        out.push_str(&cells.join(","));
        out.push_str("\r\n");
    }
    out
}

/// A score as it is stored: up to four decimals, no float noise.
fn format_score(score: f64) -> String {
    let text = format!("{score:.4}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text.is_empty() || text == "-" {
        "0".into()
    } else {
        text.to_string()
    }
}

/// A text cell: quoted when needed, and never read as a formula.
fn text_cell(text: &str) -> String {
    let guarded = if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{text}")
    } else {
        text.to_string()
    };
    if guarded.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", guarded.replace('"', "\"\""))
    } else {
        guarded
    }
}

/// Why a test scored as it did: the three components' explanations, and the agent's error.
pub(crate) fn explanation(record: &EvaluationRecord) -> String {
    let mut parts = Vec::new();
    if let Some(error) = record.error() {
        parts.push(format!("error: {error}"));
    }
    if record.is_unsafe() {
        parts.push("the generated query is not read-only".to_string());
    }
    if let Some(scores) = &record.qas_evaluation {
        let b = &scores.breakdown;
        for (name, score, text) in [
            ("semantic", scores.semantic_score, &b.semantic_explanation),
            (
                "execution",
                scores.execution_score,
                &b.execution_explanation,
            ),
            ("datatype", scores.datatype_score, &b.datatype_explanation),
        ] {
            if text.trim().is_empty() {
                parts.push(format!("{name} {}", format_score(score)));
            } else {
                parts.push(format!("{name} {}: {}", format_score(score), text.trim()));
            }
        }
    }
    parts.join("; ")
}

/// JUnit XML: one suite named `name`, one test case per record (class `qeval.<name>`, name the
/// test id). A failed test carries a `<failure>` whose message gives the final score and whose
/// text gives the explanations and both queries; an unscored one is `<skipped>`.
pub fn junit(name: &str, records: &[EvaluationRecord]) -> String {
    let failures = records.iter().filter(|r| r.passed() == Some(false)).count();
    let skipped = records.iter().filter(|r| r.passed().is_none()).count();
    let mut out = String::with_capacity(records.len() * 512);
    let _ = write!(
        out,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"qeval\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" skipped=\"{skipped}\">\n<testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" skipped=\"{skipped}\">\n",
        records.len(),
        crate::escape::markup(name),
        records.len(),
    );
    let class = crate::escape::markup(&format!("qeval.{name}"));
    for record in records {
        let _ = write!(
            out,
            "  <testcase classname=\"{class}\" name=\"{}\"",
            crate::escape::markup(&record.key())
        );
        match &record.qas_evaluation {
            None => out.push_str(">\n    <skipped message=\"not scored\"/>\n  </testcase>\n"),
            Some(scores) if scores.passed => out.push_str("/>\n"),
            Some(scores) => {
                let message = if record.is_unsafe() {
                    format!(
                        "final score {}: the generated query is not read-only",
                        format_score(scores.final_score)
                    )
                } else {
                    format!("final score {}", format_score(scores.final_score))
                };
                let mut body = explanation(record);
                if !record.question.is_empty() {
                    let _ = write!(body, "\nquestion: {}", record.question);
                }
                if let Some(sql) = &record.generated_sql {
                    let _ = write!(body, "\ngenerated: {sql}");
                }
                if let Some(sql) = &record.expected_sql {
                    let _ = write!(body, "\nexpected: {sql}");
                }
                let _ = write!(
                    out,
                    ">\n    <failure message=\"{}\" type=\"failed\">{}</failure>\n  </testcase>\n",
                    crate::escape::markup(&message),
                    crate::escape::markup(&body)
                );
            }
        }
    }
    out.push_str("</testsuite>\n</testsuites>\n");
    out
}

/// How many failing tests the Markdown summary lists.
pub(crate) const MARKDOWN_FAILURES: usize = 20;

/// A Markdown summary for a pull-request comment: the pass rate, the mean scores, the pass rate
/// by each grouping of the summary, and the first failing tests with their final scores.
pub fn markdown(name: &str, summary: &Summary, records: &[EvaluationRecord]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "### qeval: {}\n", md(name, 120));
    let _ = writeln!(
        out,
        "**Pass rate {:.1}%**: {} of {} scored test{} passed, {} failed{}.\n",
        summary.pass_rate * 100.0,
        summary.passed,
        summary.scored,
        crate::words::plural(summary.scored),
        summary.failed,
        match summary.tests - summary.scored {
            0 => String::new(),
            n => format!(", {n} not scored"),
        }
    );
    out.push_str("| mean final | semantic | execution | datatype | with errors | unsafe |\n");
    out.push_str("|---:|---:|---:|---:|---:|---:|\n");
    let _ = writeln!(
        out,
        "| {:.3} | {:.3} | {:.3} | {:.3} | {} | {} |",
        summary.mean_final,
        summary.mean_semantic,
        summary.mean_execution,
        summary.mean_datatype,
        summary.errors,
        summary.unsafe_queries
    );
    if let Some(e) = &summary.efficiency {
        let _ = writeln!(
            out,
            "\nEfficiency: R-VES {:.1} by SQLite VM steps over {} tests.",
            e.r_ves, e.tests
        );
    }
    for grouping in &summary.groupings {
        let _ = writeln!(out, "\n**By {}**\n", md(&grouping.label(), 60));
        out.push_str("| group | tests | passed | pass rate |\n|---|---:|---:|---:|\n");
        for (group, counts) in &grouping.groups {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {:.1}% |",
                md(group, 60),
                counts.tests,
                counts.passed,
                counts.pass_rate() * 100.0
            );
        }
    }
    let classification = summary.classification.lines();
    if !classification.is_empty() {
        out.push_str("\n**Classification metrics**\n\n");
        for line in classification {
            let _ = writeln!(out, "- {}", md(&line, 400));
        }
    }
    if !summary.agreement.is_empty() {
        out.push_str("\n**Judges against human labels**\n\n");
        out.push_str("| judge | labelled | agreement | Cohen's kappa | both correct | judge only | person only | both incorrect |\n|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for judge in &summary.agreement {
            let _ = writeln!(
                out,
                "| {} | {} | {:.1}% | {} | {} | {} | {} | {} |",
                md(&judge.judge, 40),
                judge.labelled,
                judge.agreement * 100.0,
                judge.kappa_text(),
                judge.both_correct,
                judge.judge_correct_human_incorrect,
                judge.judge_incorrect_human_correct,
                judge.both_incorrect
            );
        }
    }
    let failing: Vec<&EvaluationRecord> = records
        .iter()
        .filter(|r| r.passed() == Some(false))
        .collect();
    if !failing.is_empty() {
        let _ = writeln!(
            out,
            "\n<details><summary>Failing tests ({})</summary>\n",
            failing.len()
        );
        out.push_str("| test | final | question | why |\n|---|---:|---|---|\n");
        for record in failing.iter().take(MARKDOWN_FAILURES) {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} |",
                md(&record.key(), 40),
                record.final_score().map(format_score).unwrap_or_default(),
                md(&record.question, 80),
                md(&explanation(record), 160)
            );
        }
        if failing.len() > MARKDOWN_FAILURES {
            let _ = writeln!(out, "\n…and {} more.", failing.len() - MARKDOWN_FAILURES);
        }
        out.push_str("\n</details>\n");
    }
    out
}

/// Text for a Markdown table cell: one line, at most `limit` characters, with HTML and the
/// characters of Markdown syntax escaped so record text can neither add markup nor break the
/// table.
fn md(text: &str, limit: usize) -> String {
    let one_line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let cut: String = if one_line.chars().count() > limit {
        let mut cut: String = one_line.chars().take(limit.saturating_sub(1)).collect();
        cut.push('…');
        cut
    } else {
        one_line
    };
    let mut out = String::with_capacity(cut.len());
    for c in cut.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '|' | '\\' | '`' | '*' | '_' | '[' | ']' | '#' | '~' | '!' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::read::records_of as records;
    use crate::run::summary::summarize;

    const RUN: &str = r#"{"test_id": 1, "question": "How many users?", "difficulty": "easy", "generated_sql": "SELECT 1", "qas_evaluation": {"semantic_score": 1, "execution_score": 1, "datatype_score": 1, "final_score": 1.0, "passed": true}}
{"test_id": "a,\"b\"", "question": "=HYPERLINK(\"http://x\")", "difficulty": "hard", "generated_sql": "SELECT *\nFROM t", "expected_sql": "SELECT a FROM t", "qas_evaluation": {"semantic_score": 0.5, "execution_score": 0, "datatype_score": 1, "final_score": 0.4, "passed": false, "breakdown": {"semantic_explanation": "columns differ <b>", "execution_explanation": "different rows", "datatype_explanation": "ok"}}}
{"test_id": 3, "error": "timeout"}
"#;

    #[test]
    fn csv_quotes_cells_and_guards_formulas() {
        let text = csv(&records(RUN));
        let lines: Vec<&str> = text.split("\r\n").collect();
        assert_eq!(lines[0], CSV_COLUMNS.join(","));
        assert!(lines[1].starts_with("1,true,1,1,1,1,false,,How many users?,,easy,"));
        assert!(
            text.contains(r#""a,""b""",false,0.4,0.5,0,1,false,,"'=HYPERLINK(""http://x"")""#),
            "{text}"
        );
        assert!(
            text.contains("\"SELECT *\nFROM t\""),
            "line breaks stay inside quotes"
        );
        assert!(
            text.contains("\r\n3,,,,,,,timeout,"),
            "unscored: empty scores"
        );
    }

    #[test]
    fn junit_has_a_case_per_record_failures_with_reasons_and_escaped_text() {
        let xml = junit("run <1>", &records(RUN));
        assert!(
            xml.contains(
                r#"<testsuite name="run &lt;1&gt;" tests="3" failures="1" errors="0" skipped="1">"#
            ),
            "{xml}"
        );
        assert!(xml.contains(r#"<testcase classname="qeval.run &lt;1&gt;" name="1"/>"#));
        assert!(xml.contains(r#"name="a,&quot;b&quot;">"#));
        assert!(xml.contains(r#"<failure message="final score 0.4" type="failed">semantic 0.5: columns differ &lt;b&gt;; execution 0: different rows"#), "{xml}");
        assert!(xml.contains("<skipped message=\"not scored\"/>"));
        assert!(!xml.contains("<b>"));
    }

    #[test]
    fn markdown_states_the_pass_rate_groups_and_failing_tests_without_markup() {
        let records = records(RUN);
        let summary = summarize(&records);
        let text = markdown("nightly", &summary, &records);
        assert!(
            text.contains(
                "**Pass rate 50.0%**: 1 of 2 scored tests passed, 1 failed, 1 not scored."
            ),
            "{text}"
        );
        assert!(text.contains("**By difficulty**"));
        assert!(
            text.contains("| easy | 1 | 1 | 100.0% |\n| hard | 1 | 0 | 0.0% |"),
            "{text}"
        );
        assert!(text.contains("Failing tests (1)"));
        assert!(text.contains("columns differ &lt;b&gt;"));
        assert!(!text.contains("<b>"));
    }

    #[test]
    fn markdown_cells_cannot_break_the_table_or_add_links() {
        assert_eq!(md("a | b\nc", 80), r"a \| b c");
        assert_eq!(
            md("[x](javascript:alert(1))", 80),
            r"\[x\](javascript:alert(1))"
        );
        assert_eq!(md("abcdef", 4), "abc…");
    }
}
