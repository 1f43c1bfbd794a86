//! Spider's exact set match (`evaluation.py --etype match`): the gold and the prediction in
//! Spider's SQL structure, rebuilt as `evaluate` rebuilds them, compared component by
//! component.
//!
//! qeval's own parser reads each query; `convert` writes the statement in Spider's structure
//! and refuses what Spider's grammar cannot hold, with the reason. The words Spider's tokenizer
//! would see are worked out first (`words`), because its parser fails on words a SQL parser
//! reads happily (`a=1`, `a<=1`, `T1.*`). A prediction Spider cannot read is scored as the
//! empty query, as `evaluate` does; a gold it cannot read stops the official script, and is
//! listed here as a gold problem.
//!
//! Modules: `words` (the tokenizer's words), `structure` (the `sql` dictionary), `convert`
//! (statements to the structure), `rebuild` (`rebuild_sql_val`, `rebuild_sql_col`, the
//! foreign-key map), `matching` (`eval_partial_match`, `eval_exact_match`), `table` (the
//! printed tables).

mod convert;
mod matching;
mod rebuild;
mod structure;
mod table;
mod words;

pub(crate) use convert::SpiderSchema;
pub(crate) use matching::{COMPONENTS, ComponentScore};
pub(crate) use rebuild::{ForeignKeyMap, TablesEntry, foreign_key_map};
pub(crate) use structure::Sql;
pub(crate) use table::{ExactLevel, ExactScores};
pub(crate) use table::{exact_table, turn_exact_table};

use serde::Serialize;

use crate::sql::{Hardness, HardnessCounts, ParseLimits, SqlDialect, parse};

/// A query in Spider's structure as `get_sql` reads it, or why Spider's parser cannot.
pub(crate) fn read_sql(query: &str, schema: &SpiderSchema) -> Result<Sql, String> {
    let text = words::official_text(query)?;
    let statements = parse(&text, SqlDialect::Sqlite, ParseLimits::default())
        .map_err(|err| format!("qeval's parser cannot read it: {}", err.message))?;
    convert::spider_sql(&statements, schema)
}

/// One prediction's exact-match verdict.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExactVerdict {
    /// The gold's level by `eval_hardness` on its structure.
    pub hardness: Hardness,
    pub exact: bool,
    /// The ten components, in [`COMPONENTS`]' order.
    pub components: [ComponentScore; 10],
    /// Why Spider's parser cannot read the prediction (it is then scored as the empty query).
    pub unreadable: Option<String>,
}

/// The gold, read and rebuilt once for all its predictions.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ExactGold {
    pub hardness: Hardness,
    rebuilt: Sql,
}

impl ExactGold {
    /// The gold as `evaluate` reads it (`get_sql`, then both rebuilds), with its level
    /// (`eval_hardness`, on the query before the rebuilds).
    pub(crate) fn read(
        gold: &str,
        schema: &SpiderSchema,
        keys: &ForeignKeyMap,
    ) -> Result<ExactGold, String> {
        let sql = read_sql(gold, schema)?;
        Ok(ExactGold {
            hardness: Hardness::of_counts(counts(&sql)),
            rebuilt: rebuild::rebuilt(sql, schema, keys),
        })
    }

    /// `eval_exact_match` of a prediction (as the prediction file gives it: `value` is
    /// replaced here) against this gold.
    pub(crate) fn judge(
        &self,
        prediction: &str,
        schema: &SpiderSchema,
        keys: &ForeignKeyMap,
    ) -> ExactVerdict {
        let text = super::prediction_text(prediction);
        let (sql, unreadable) = match read_sql(&text, schema) {
            Ok(sql) => (sql, None),
            Err(why) => (empty_sql(), Some(why)),
        };
        let pred = rebuild::rebuilt(sql, schema, keys);
        let (exact, components) = matching::exact_match(&pred, &self.rebuilt);
        ExactVerdict {
            hardness: self.hardness,
            exact,
            components,
            unreadable,
        }
    }
}

/// The query `evaluate` scores a prediction as when `get_sql` raises.
fn empty_sql() -> Sql {
    let mut sql = Sql::default();
    sql.select.distinct = Some(false);
    sql
}

/// `count_component1`, `count_component2` and `count_others` of `eval_hardness`.
fn counts(sql: &Sql) -> HardnessCounts {
    let conditions = [&sql.join_conditions, &sql.filter, &sql.having];
    let units = || conditions.iter().flat_map(|c| &c.units);
    let ors = conditions
        .iter()
        .flat_map(|c| &c.connectives)
        .filter(|c| **c == "or")
        .count();
    let likes = units()
        .filter(|u| u.op == structure::where_op("like"))
        .count();
    let components = usize::from(!sql.filter.is_empty())
        + usize::from(!sql.group_by.is_empty())
        + usize::from(sql.order_by.is_some())
        + usize::from(sql.limit)
        + sql.tables.len().saturating_sub(1)
        + ors
        + likes;
    let nested = units()
        .flat_map(|u| [&u.first, &u.second])
        .filter(|o| matches!(o, structure::Operand::Query(_)))
        .count()
        + sql
            .set_operations()
            .iter()
            .filter(|(_, s)| s.is_some())
            .count();
    // `count_agg` tests element 0 of each unit: for a condition unit that is its `not`, and
    // over `having` the connectives count too (`'and'[0] != 0`).
    let mut aggregates = sql.select.items.iter().filter(|(agg, _)| *agg != 0).count()
        + sql.filter.units.iter().filter(|u| u.not).count()
        + sql.group_by.iter().filter(|u| u.agg != 0).count()
        + sql.having.units.iter().filter(|u| u.not).count()
        + sql.having.connectives.len();
    if let Some(order_by) = &sql.order_by {
        aggregates += order_by
            .units
            .iter()
            .flat_map(|u| std::iter::once(&u.left).chain(&u.right))
            .filter(|c| c.agg != 0)
            .count();
    }
    let others = usize::from(aggregates > 1)
        + usize::from(sql.select.items.len() > 1)
        + usize::from(sql.filter.len() > 1)
        + usize::from(sql.group_by.len() > 1);
    HardnessCounts {
        components,
        nested,
        others,
    }
}
