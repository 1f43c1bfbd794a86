//! What `evaluate` does to both queries before comparing them (`--etype match`):
//! `rebuild_sql_val` clears the values, `rebuild_sql_col` maps each column to the first of the
//! columns its foreign keys link (`build_foreign_key_map`) and clears every `DISTINCT` flag.
//!
//! Both stop where the official functions stop, and the verdicts follow:
//! - values are cleared in `ON`, `WHERE` and `HAVING` and in the queries nested there and in
//!   `INTERSECT`/`UNION`/`EXCEPT`, but not in a subquery in `FROM` (its values still count);
//! - columns are mapped and flags cleared in the query and its `INTERSECT`/`UNION`/`EXCEPT`
//!   (with the outer query's tables), not in subqueries: a nested query's `DISTINCT` counts and
//!   its columns are compared as written;
//! - a column is mapped only when one of the query's own `FROM` tables holds it
//!   (`build_valid_col_units`).

use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;

use super::convert::{ALL_COLUMNS, SpiderSchema, column_id, table_id};
use super::structure::{ColUnit, Condition, Operand, Sql, TableUnit, ValUnit};

/// A column id and the column it is compared as.
pub(crate) type ForeignKeyMap = BTreeMap<String, String>;

/// One database of `tables.json`, as much as `build_foreign_key_map` reads.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct TablesEntry {
    pub db_id: String,
    pub table_names_original: Vec<String>,
    pub column_names_original: Vec<(i64, String)>,
    #[serde(default)]
    pub foreign_keys: Vec<(usize, usize)>,
}

/// `build_foreign_key_map`: the foreign-key pairs grouped into sets (a pair joins the first
/// set holding either of its columns, else a new one: not a full union, so a column can be in
/// two sets, and the later set decides), each column mapped to its set's lowest-numbered one.
pub(crate) fn foreign_key_map(entry: &TablesEntry) -> ForeignKeyMap {
    let ids: Vec<String> = entry
        .column_names_original
        .iter()
        .map(|(table, column)| match usize::try_from(*table) {
            Ok(t) => entry.table_names_original.get(t).map_or_else(
                || ALL_COLUMNS.to_string(),
                |name| column_id(&name.to_lowercase(), &column.to_lowercase()),
            ),
            Err(_) => ALL_COLUMNS.to_string(),
        })
        .collect();
    let mut sets: Vec<BTreeSet<usize>> = Vec::new();
    for &(first, second) in &entry.foreign_keys {
        let at = sets
            .iter()
            .position(|set| set.contains(&first) || set.contains(&second));
        let set = match at {
            Some(at) => &mut sets[at],
            None => {
                sets.push(BTreeSet::new());
                sets.last_mut().expect("just pushed")
            }
        };
        set.insert(first);
        set.insert(second);
    }
    let mut map = ForeignKeyMap::new();
    for set in &sets {
        let Some(&lowest) = set.first() else { continue };
        for &member in set {
            if let (Some(from), Some(to)) = (ids.get(member), ids.get(lowest)) {
                map.insert(from.clone(), to.clone());
            }
        }
    }
    map
}

/// `rebuild_sql_val`.
pub(super) fn clear_values(sql: &mut Sql) {
    for condition in [&mut sql.join_conditions, &mut sql.filter, &mut sql.having] {
        for unit in &mut condition.units {
            for operand in [&mut unit.first, &mut unit.second] {
                match operand {
                    Operand::Query(nested) => clear_values(nested),
                    other => *other = Operand::Nothing,
                }
            }
        }
    }
    for nested in [&mut sql.intersect, &mut sql.except, &mut sql.union]
        .into_iter()
        .flatten()
    {
        clear_values(nested);
    }
}

/// `build_valid_col_units`: every column of the query's own `FROM` tables.
pub(super) fn valid_columns(sql: &Sql, schema: &SpiderSchema) -> BTreeSet<String> {
    let tables: BTreeSet<String> = sql
        .tables
        .iter()
        .filter_map(|unit| match unit {
            TableUnit::Table(id) => Some(id.clone()),
            TableUnit::Query(_) => None,
        })
        .collect();
    schema
        .tables
        .iter()
        .filter(|(table, _)| tables.contains(&table_id(table)))
        .flat_map(|(table, columns)| columns.iter().map(move |c| column_id(table, c)))
        .collect()
}

/// `rebuild_sql_col`.
pub(super) fn map_columns(sql: &mut Sql, valid: &BTreeSet<String>, map: &ForeignKeyMap) {
    let col = |unit: &mut ColUnit| {
        if valid.contains(&unit.column)
            && let Some(to) = map.get(&unit.column)
        {
            unit.column = to.clone();
        }
        unit.distinct = None;
    };
    let val = |unit: &mut ValUnit| {
        col(&mut unit.left);
        if let Some(right) = &mut unit.right {
            col(right);
        }
    };
    sql.select.distinct = None;
    for (_, unit) in &mut sql.select.items {
        val(unit);
    }
    let condition = |condition: &mut Condition| {
        for unit in &mut condition.units {
            val(&mut unit.value);
        }
    };
    condition(&mut sql.join_conditions);
    condition(&mut sql.filter);
    condition(&mut sql.having);
    for unit in &mut sql.group_by {
        col(unit);
    }
    if let Some(order_by) = &mut sql.order_by {
        for unit in &mut order_by.units {
            val(unit);
        }
    }
    for nested in [&mut sql.intersect, &mut sql.except, &mut sql.union]
        .into_iter()
        .flatten()
    {
        map_columns(nested, valid, map);
    }
}

/// Both rebuilds, as `evaluate` does them on each query.
pub(super) fn rebuilt(mut sql: Sql, schema: &SpiderSchema, map: &ForeignKeyMap) -> Sql {
    let valid = valid_columns(&sql, schema);
    clear_values(&mut sql);
    map_columns(&mut sql, &valid, map);
    sql
}
