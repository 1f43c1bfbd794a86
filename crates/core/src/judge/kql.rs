//! The structural judge for KQL: the features of each pipeline (tables, output columns, filters,
//! grouping, ordering, limits, steps) compared as components.

use crate::kql::{KqlQuery, KqlToken, KqlTokenKind, depth_change, split_top, split_top_where};

use super::{Components, FILTERS, GROUPING, Judgement, ORDERING, OUTPUT, TABLES};

/// The structural judge for KQL.
pub(crate) fn judge(expected: &KqlQuery, generated: &KqlQuery) -> Judgement {
    if expected.normalized == generated.normalized {
        return Judgement::identical();
    }
    let (e, g) = (KqlFeatures::of(expected), KqlFeatures::of(generated));
    let mut parts = Components::default();
    parts.set("tables", TABLES, &e.tables, &g.tables);
    parts.set("columns", OUTPUT, &e.columns, &g.columns);
    parts.set("filters", FILTERS, &e.filters, &g.filters);
    parts.set("grouping", GROUPING, &e.grouping, &g.grouping);
    parts.sequence("ordering", ORDERING * 0.4, &e.ordering, &g.ordering);
    parts.set("limits", ORDERING * 0.3, &e.limits, &g.limits);
    parts.sequence("steps", ORDERING * 0.3, &e.steps, &g.steps);
    parts.judge("tables")
}

#[derive(Default)]
struct KqlFeatures {
    tables: Vec<String>,
    columns: Vec<String>,
    filters: Vec<String>,
    grouping: Vec<String>,
    ordering: Vec<String>,
    limits: Vec<String>,
    steps: Vec<String>,
}

fn text(tokens: &[KqlToken]) -> String {
    tokens
        .iter()
        .map(|t| t.kind.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A comparison written either way round reads one way: `a == b` and `b == a`; `a > b` as `b < a`.
fn canonical_condition(tokens: &[KqlToken]) -> String {
    let mut depth = 0;
    let mut at = None;
    for (i, token) in tokens.iter().enumerate() {
        depth += depth_change(token);
        if depth == 0
            && let KqlTokenKind::Punct(p @ ("==" | "!=" | "<" | ">" | "<=" | ">=" | "=~")) =
                token.kind
        {
            if at.is_some() {
                return text(tokens);
            }
            at = Some((i, p));
        }
    }
    let Some((i, op)) = at else {
        return text(tokens);
    };
    let (left, right) = (text(&tokens[..i]), text(&tokens[i + 1..]));
    match op {
        ">" => format!("{right} < {left}"),
        ">=" => format!("{right} <= {left}"),
        "==" | "!=" | "=~" if left > right => format!("{right} {op} {left}"),
        _ => format!("{left} {op} {right}"),
    }
}

/// The conditions joined by top-level `and`, each read one way.
fn conjuncts(tokens: &[KqlToken]) -> Vec<String> {
    split_top_where(
        tokens,
        |kind| matches!(kind, KqlTokenKind::Name(name) if name == "and"),
    )
    .into_iter()
    .map(canonical_condition)
    .collect()
}

/// Splits `items by keys` at the top-level `by`.
fn split_by(tokens: &[KqlToken]) -> (&[KqlToken], &[KqlToken]) {
    let mut depth = 0;
    for (i, token) in tokens.iter().enumerate() {
        depth += depth_change(token);
        if depth == 0 && token.kind == KqlTokenKind::Name("by".into()) {
            return (&tokens[..i], &tokens[i + 1..]);
        }
    }
    (tokens, &tokens[tokens.len()..])
}

fn items(tokens: &[KqlToken]) -> Vec<String> {
    split_top(tokens, ",")
        .into_iter()
        .filter(|s| !s.is_empty())
        .map(text)
        .collect()
}

impl KqlFeatures {
    fn of(query: &KqlQuery) -> KqlFeatures {
        let mut f = KqlFeatures {
            tables: query.tables.clone(),
            ..KqlFeatures::default()
        };
        for op in &query.operators {
            f.steps.push(op.name.clone());
            let args = op.args.as_slice();
            match op.name.as_str() {
                "where" | "filter" => f.filters.extend(conjuncts(args)),
                "project" | "project-away" | "project-keep" | "project-rename"
                | "project-reorder" | "extend" => {
                    f.columns.extend(
                        items(args)
                            .into_iter()
                            .map(|item| format!("{}: {item}", op.name)),
                    );
                }
                "summarize" => {
                    let (aggregates, keys) = split_by(args);
                    f.columns.extend(
                        items(aggregates)
                            .into_iter()
                            .map(|item| format!("summarize: {item}")),
                    );
                    f.grouping.extend(items(keys));
                }
                "count" => f.columns.push("summarize: count()".to_string()),
                "distinct" => f.grouping.extend(items(args)),
                "sort" | "order" => f.ordering.extend(items(split_by(args).1)),
                "take" | "limit" => f.limits.push(format!("take {}", text(args))),
                "top" => {
                    let (count, keys) = split_by(args);
                    f.limits.push(format!("take {}", text(count)));
                    f.ordering.extend(items(keys));
                }
                _ => f.columns.push(format!("{}: {}", op.name, text(args))),
            }
        }
        for list in [&mut f.columns, &mut f.filters, &mut f.grouping] {
            list.sort();
            list.dedup();
        }
        f
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kql::parse;

    fn q(text: &str) -> KqlQuery {
        parse(text, 1 << 20).unwrap_or_else(|err| panic!("{text}: {err}"))
    }

    #[test]
    fn kql_batch_scenarios() {
        let exact = judge(
            &q("Traces | where timestamp > ago(1h) | summarize count() by level"),
            &q("Traces | where timestamp > ago(1h) | summarize count() by level"),
        );
        assert_eq!(exact.similarity, 1.0);

        let minor = judge(
            &q("Traces | where timestamp > ago(60m) | project timestamp, level, message"),
            &q("Traces | where timestamp > ago(1h) | project timestamp, level, message"),
        );
        assert!(minor.similarity >= 0.95, "{minor:?}");

        let wrong = judge(
            &q("Traces | where timestamp > ago(1h) | summarize count() by level"),
            &q("AppTraces | where timestamp > ago(1h) | summarize count()"),
        );
        assert!(wrong.similarity < 0.5, "{wrong:?}");
        assert_eq!(wrong.reasoning, "Query accesses wrong table");
    }

    #[test]
    fn conditions_read_the_same_either_way_round() {
        let a = judge(
            &q("T | where x > 5 and y == 'a'"),
            &q("T | where 'a' == y and 5 < x"),
        );
        assert_eq!(a.verdict, 1.0, "{a:?}");
        let b = judge(&q("T | where x > 5"), &q("T | where x > 6"));
        assert!(b.verdict < 1.0);
    }
}
