//! Spider's SQL structure (`process_sql.py`'s `sql` dictionary), as the comparison reads it.
//!
//! Equality is Python's `==` on the dictionaries: a column is its id (`__table.column__`, or
//! `__all__` for `*`), a value a number, a string with its quotes (`"x"`), a column, a nested
//! query, or nothing once `rebuild_sql_val` has cleared it. `distinct` flags are `None` once
//! `rebuild_sql_col` has cleared them (`DISABLE_DISTINCT`), so a cleared flag never equals a
//! kept one, as in Python.

use serde::Serialize;

/// `AGG_OPS`: `none`, `max`, `min`, `count`, `sum`, `avg`, by index.
pub(super) const AGG_OPS: [&str; 6] = ["none", "max", "min", "count", "sum", "avg"];
/// `WHERE_OPS`, by index.
pub(super) const WHERE_OPS: [&str; 12] = [
    "not", "between", "=", ">", "<", ">=", "<=", "!=", "in", "like", "is", "exists",
];

pub(super) fn where_op(name: &str) -> u8 {
    WHERE_OPS.iter().position(|op| *op == name).unwrap_or(0) as u8
}

/// `col_unit`: `(agg_id, col_id, isDistinct)`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct ColUnit {
    pub agg: u8,
    pub column: String,
    pub distinct: Option<bool>,
}

/// `val_unit`: `(unit_op, col_unit1, col_unit2)`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct ValUnit {
    pub op: u8,
    pub left: ColUnit,
    pub right: Option<ColUnit>,
}

impl ValUnit {
    pub(crate) fn column(unit: ColUnit) -> ValUnit {
        ValUnit {
            op: 0,
            left: unit,
            right: None,
        }
    }
}

/// A condition's value: `val1` or `val2` of a `cond_unit`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) enum Operand {
    /// Python's `float(token)`.
    Number(f64),
    /// The token with its quotes, `"x"`.
    Text(String),
    Column(ColUnit),
    Query(Box<Sql>),
    /// Cleared by `rebuild_sql_val`, or `val2` outside `BETWEEN`.
    Nothing,
}

/// `cond_unit`: `(not_op, op_id, val_unit, val1, val2)`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct CondUnit {
    pub not: bool,
    pub op: u8,
    pub value: ValUnit,
    pub first: Operand,
    pub second: Operand,
}

/// `condition`: `[cond_unit1, 'and'/'or', cond_unit2, ...]`, kept as the units and the
/// connectives between them.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub(crate) struct Condition {
    pub units: Vec<CondUnit>,
    /// `"and"` or `"or"`, one fewer than the units.
    pub connectives: Vec<&'static str>,
}

impl Condition {
    pub(crate) fn is_empty(&self) -> bool {
        self.units.is_empty()
    }

    /// `len(condition)`: the units and the connectives.
    pub(crate) fn len(&self) -> usize {
        self.units.len() + self.connectives.len()
    }
}

/// `table_unit`: `('table_unit', '__table__')` or `('sql', sql)`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) enum TableUnit {
    Table(String),
    Query(Box<Sql>),
}

/// The `select` entry: `(isDistinct, [(agg_id, val_unit), ...])`.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub(crate) struct Select {
    pub distinct: Option<bool>,
    pub items: Vec<(u8, ValUnit)>,
}

/// The `orderBy` entry: `('asc'/'desc', [val_unit, ...])`, or `[]` when there is none.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct OrderBy {
    pub direction: &'static str,
    pub units: Vec<ValUnit>,
}

/// `sql`.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub(crate) struct Sql {
    pub select: Select,
    pub tables: Vec<TableUnit>,
    /// `from.conds`: the `ON` conditions, joined by `and`.
    pub join_conditions: Condition,
    #[serde(rename = "where")]
    pub filter: Condition,
    pub group_by: Vec<ColUnit>,
    pub having: Condition,
    pub order_by: Option<OrderBy>,
    /// `parse_limit` gives 1 for every `LIMIT` (it tests `type(token) != int` on a string): only
    /// whether there is one counts.
    pub limit: bool,
    pub intersect: Option<Box<Sql>>,
    pub except: Option<Box<Sql>>,
    pub union: Option<Box<Sql>>,
}

impl Sql {
    /// The queries of `intersect`, `except` and `union`, in that order.
    pub(crate) fn set_operations(&self) -> [(&'static str, Option<&Sql>); 3] {
        [
            ("intersect", self.intersect.as_deref()),
            ("except", self.except.as_deref()),
            ("union", self.union.as_deref()),
        ]
    }
}
