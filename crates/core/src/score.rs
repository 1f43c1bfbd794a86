//! Scoring one pair: analyse both queries, run every metric, collect the scorecard.
//!
//! Each metric runs on its own: one that fails becomes a 0.0 with its error and the others still
//! run (seed 002, MC-REQ-07).

use std::collections::BTreeMap;

use serde_json::json;
use sqlparser::ast::Statement;

use crate::metrics::{TableAccuracy, TableMatch, table_accuracy};
use crate::pairs::PairInput;
use crate::scorecard::{Diagnostic, Metric, MetricError, QueryReport, Scorecard, Severity, Source};
use crate::sql::{self, ParseError, ParseLimits, SqlDialect, TableName};

/// How pairs are scored. `Default` gives the documented defaults.
#[derive(Debug, Clone, Default)]
pub struct ScoreOptions {
    /// Used for pairs that do not name their own dialect.
    pub dialect: SqlDialect,
    pub table_match: TableMatch,
    pub limits: ParseLimits,
    /// A timestamp for error records, supplied by the caller because the core has no clock.
    pub evaluated_at: Option<String>,
}

/// One query, parsed and analysed.
#[derive(Debug, Clone)]
pub struct Analysis {
    pub tables: Vec<TableName>,
    /// The canonical text (see `sql::normalize`).
    pub normalized: String,
    /// The statements in canonical form, when the query parses.
    pub statements: Option<Vec<Statement>>,
    pub parse_error: Option<ParseError>,
}

/// Parses `sql` and extracts what the metrics need. Never fails: a parse error is kept in the
/// analysis.
pub fn analyse(sql_text: &str, dialect: SqlDialect, limits: ParseLimits) -> Analysis {
    match sql::parse(sql_text, dialect, limits) {
        Ok(mut statements) => {
            let tables = sql::extract_tables(&statements);
            sql::canonicalize(&mut statements);
            Analysis {
                tables,
                normalized: sql::canonical_text(&statements),
                statements: Some(statements),
                parse_error: None,
            }
        }
        Err(err) => Analysis {
            tables: Vec::new(),
            normalized: sql::normalize_tokens(sql_text, dialect),
            statements: None,
            parse_error: Some(err),
        },
    }
}

impl Analysis {
    /// True when both are the same query up to normalization: equal canonical syntax trees, or,
    /// when neither parses, equal token-level forms.
    pub fn same_query_as(&self, other: &Analysis) -> bool {
        match (&self.statements, &other.statements) {
            (Some(mine), Some(theirs)) => mine == theirs,
            (None, None) => self.normalized == other.normalized,
            _ => false,
        }
    }

    fn report(&self) -> QueryReport {
        QueryReport {
            normalized: self.normalized.clone(),
            tables: self.tables.clone(),
            parse_error: self.parse_error.clone(),
        }
    }
}

/// Table accuracy of a generated query against listed tables: parse, extract, Jaccard. The
/// pair-free form of the `table_accuracy` metric, for callers that only want this one number.
pub fn table_accuracy_of_sql(
    generated_sql: &str,
    expected: &[TableName],
    options: &ScoreOptions,
) -> Result<TableAccuracy, ParseError> {
    let statements = sql::parse(generated_sql, options.dialect, options.limits)?;
    let generated = sql::extract_tables(&statements);
    Ok(table_accuracy(&generated, expected, options.table_match))
}

/// Scores one pair.
pub fn score_pair(pair: &PairInput, options: &ScoreOptions) -> Scorecard {
    let dialect = pair.dialect.unwrap_or(options.dialect);
    let generated = analyse(&pair.generated_sql, dialect, options.limits);
    let expected = pair
        .expected_sql
        .as_deref()
        .map(|sql_text| analyse(sql_text, dialect, options.limits));

    let mut diagnostics = Vec::new();
    push_parse_diagnostic(&mut diagnostics, Source::GeneratedSql, &generated);
    if let Some(expected) = &expected {
        push_parse_diagnostic(&mut diagnostics, Source::ExpectedSql, expected);
    }

    let identical = expected
        .as_ref()
        .is_some_and(|expected| expected.same_query_as(&generated));

    let mut metrics = BTreeMap::new();
    metrics.insert(
        "table_accuracy".to_string(),
        table_accuracy_metric(
            pair,
            &generated,
            expected.as_ref(),
            options,
            &mut diagnostics,
        ),
    );
    if expected.is_some() {
        metrics.insert("exact_match".to_string(), exact_match_metric(identical));
    }

    Scorecard {
        line: None,
        id: pair.id.clone(),
        dialect,
        identical,
        generated: generated.report(),
        expected: expected.as_ref().map(Analysis::report),
        metrics,
        diagnostics,
    }
}

fn push_parse_diagnostic(diagnostics: &mut Vec<Diagnostic>, source: Source, analysis: &Analysis) {
    if let Some(err) = &analysis.parse_error {
        diagnostics.push(Diagnostic {
            severity: Severity::Error,
            source,
            message: err.message.clone(),
            line: err.line,
            column: err.column,
        });
    }
}

fn exact_match_metric(identical: bool) -> Metric {
    Metric {
        score: Some(if identical { 1.0 } else { 0.0 }),
        passed: Some(identical),
        explanation: if identical {
            "Queries are identical".to_string()
        } else {
            "Queries differ after normalization".to_string()
        },
        details: serde_json::Value::Null,
        error: None,
    }
}

fn table_accuracy_metric(
    pair: &PairInput,
    generated: &Analysis,
    expected: Option<&Analysis>,
    options: &ScoreOptions,
    diagnostics: &mut Vec<Diagnostic>,
) -> Metric {
    let fail = |message: String, inputs: &[(&str, &str)]| {
        Metric::failed(MetricError {
            metric: "table_accuracy".to_string(),
            message,
            inputs: inputs
                .iter()
                .map(|(name, value)| ((*name).to_string(), (*value).to_string()))
                .collect(),
            at: options.evaluated_at.clone(),
        })
    };
    if let Some(err) = &generated.parse_error {
        return fail(
            format!("The generated SQL could not be parsed: {err}"),
            &[("generated_sql", &pair.generated_sql)],
        );
    }
    let (expected_tables, source) = if let Some(listed) = &pair.expected_tables {
        let mut tables = Vec::with_capacity(listed.len());
        for (index, name) in listed.iter().enumerate() {
            match TableName::parse_listed(name) {
                Ok(table) => tables.push(table),
                Err(err) => {
                    diagnostics.push(Diagnostic {
                        severity: Severity::Error,
                        source: Source::ExpectedTables,
                        message: format!("expected_tables[{index}]: {err}"),
                        line: None,
                        column: None,
                    });
                    return fail(
                        format!("expected_tables[{index}] is not a table name: {err}"),
                        &[("expected_table", name)],
                    );
                }
            }
        }
        (tables, "expected_tables")
    } else {
        match expected {
            Some(Analysis {
                parse_error: Some(err),
                ..
            }) => {
                return fail(
                    format!("The expected SQL could not be parsed: {err}"),
                    &[(
                        "expected_sql",
                        pair.expected_sql.as_deref().unwrap_or_default(),
                    )],
                );
            }
            Some(expected) => (expected.tables.clone(), "expected_sql"),
            None => {
                return fail(
                    "Nothing to compare with: give expected_sql or expected_tables".to_string(),
                    &[],
                );
            }
        }
    };
    let accuracy = table_accuracy(&generated.tables, &expected_tables, options.table_match);
    Metric {
        score: Some(accuracy.score),
        passed: None,
        explanation: accuracy.explanation(),
        details: json!({
            "generated": accuracy.generated,
            "expected": accuracy.expected,
            "intersection": accuracy.intersection,
            "union": accuracy.union,
            "expected_from": source,
            "match": options.table_match,
        }),
        error: None,
    }
}
