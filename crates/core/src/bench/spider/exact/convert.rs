//! A query, parsed by qeval's parser, in Spider's SQL structure (what `process_sql.get_sql`
//! gives), or why Spider's grammar cannot hold it.
//!
//! Spider's parser reads words left to right; its grammar is small and every query outside it
//! raises, which `evaluate` turns into the empty query for a prediction (and a crash for a
//! gold). The rules below are that grammar, each with the function it comes from:
//! - `parse_sql`: a `SELECT`, no `WITH`; `INTERSECT`, `UNION` or `EXCEPT` (never `ALL`) nest to
//!   the right (`a UNION b UNION c` is `a` with `b UNION c` as its union), and an `ORDER BY` or
//!   `LIMIT` after a chain belongs to its last query;
//! - `parse_from`: one table, then `JOIN table [ON condition]`, nothing else (no comma, no
//!   `LEFT`/`INNER`/`CROSS`, no `USING`); a table's alias needs `AS`; a subquery is allowed first,
//!   without an alias; `ON` conditions are joined by `and`;
//! - `parse_select`: `[DISTINCT]` then items, each `agg(val_unit)` or a `val_unit`, no alias;
//! - `parse_val_unit`: a column unit, or two joined by `-`, `+`, `*` or `/`;
//! - `parse_col_unit`: a column, `*`, or `agg([DISTINCT] column)` with `agg` one of `max`,
//!   `min`, `count`, `sum`, `avg`;
//! - `parse_condition`: units joined by `and`/`or`, no brackets around a group, no `NOT` before a
//!   unit, each `val_unit [NOT] op value` with `op` one of `between`, `=`, `>`, `<`, `>=`, `<=`,
//!   `!=`, `in`, `like` (`is` and `exists` take a value no query has: `IS NULL` fails);
//! - `parse_value`: a subquery, a string, a number, or a column (anything after the column up
//!   to the next `,`, `)`, `and` or clause word is skipped: `b + 1` reads as `b`); a bracketed
//!   value holds one of those (`IN (1, 2)` fails);
//! - `parse_col`: `alias.column` through every `AS` of the whole query, the last one winning
//!   (`scan_alias`); a bare column in the first table of the `FROM` that has it;
//!   `get_tables_with_alias` fails when an alias is a table's name;
//! - `parse_group_by`: column units; `parse_order_by`: value units, the last `asc`/`desc`
//!   written being the direction of all, and nothing after a `NULLS FIRST/LAST` read;
//! - `parse_limit`: only whether there is one.

use std::collections::HashMap;

use sqlparser::ast::{
    BinaryOperator, Distinct, DuplicateTreatment, Expr, FunctionArg, FunctionArgExpr,
    FunctionArguments, GroupByExpr, Ident, JoinConstraint, JoinOperator, LimitClause, OrderByKind,
    OrderBySort, Query, Select as AstSelect, SelectItem, SetExpr, SetOperator, SetQuantifier,
    Statement, TableFactor, UnaryOperator, Value, Visit, Visitor,
};

use super::structure::{
    AGG_OPS, ColUnit, CondUnit, Condition, Operand, OrderBy, Select, Sql, TableUnit, ValUnit,
    where_op,
};

/// A database's tables and columns as `process_sql.get_schema` reads them: every table of
/// `sqlite_master`, its columns in order, all lowercased.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct SpiderSchema {
    pub tables: Vec<(String, Vec<String>)>,
}

impl SpiderSchema {
    pub(crate) fn new(tables: Vec<(String, Vec<String>)>) -> SpiderSchema {
        SpiderSchema {
            tables: tables
                .into_iter()
                .map(|(table, columns)| {
                    (
                        table.to_lowercase(),
                        columns.iter().map(|c| c.to_lowercase()).collect(),
                    )
                })
                .collect(),
        }
    }

    fn columns(&self, table: &str) -> Option<&[String]> {
        self.tables
            .iter()
            .find(|(name, _)| name == table)
            .map(|(_, columns)| columns.as_slice())
    }
}

pub(super) fn column_id(table: &str, column: &str) -> String {
    format!("__{table}.{column}__")
}

pub(super) fn table_id(table: &str) -> String {
    format!("__{table}__")
}

pub(super) const ALL_COLUMNS: &str = "__all__";

type Fails<T> = Result<T, String>;

fn fail<T>(why: impl Into<String>) -> Fails<T> {
    Err(why.into())
}

/// The first statement of `statements` in Spider's structure.
pub(super) fn spider_sql(statements: &[Statement], schema: &SpiderSchema) -> Fails<Sql> {
    let Some(Statement::Query(query)) = statements.first() else {
        return fail("not a SELECT query");
    };
    let aliases = aliases(query, schema)?;
    let converter = Converter { schema, aliases };
    converter.query(query)
}

/// `get_tables_with_alias`: every `AS` alias of the query (in the order written, the last one
/// winning), then every table's own name.
fn aliases(query: &Query, schema: &SpiderSchema) -> Fails<HashMap<String, String>> {
    struct Collect(Vec<(u64, u64, String, String)>);
    impl Visitor for Collect {
        type Break = ();
        fn pre_visit_table_factor(&mut self, factor: &TableFactor) -> std::ops::ControlFlow<()> {
            if let TableFactor::Table {
                name,
                alias: Some(alias),
                ..
            } = factor
                && alias.explicit
            {
                let start = alias.name.span.start;
                self.0.push((
                    start.line,
                    start.column,
                    alias.name.value.to_lowercase(),
                    name.to_string().to_lowercase(),
                ));
            }
            std::ops::ControlFlow::Continue(())
        }
    }
    let mut found = Collect(Vec::new());
    let _ = query.visit(&mut found);
    found.0.sort();
    let mut map = HashMap::new();
    for (_, _, alias, table) in found.0 {
        map.insert(alias, table);
    }
    for (table, _) in &schema.tables {
        if map.contains_key(table) {
            return fail(format!(
                "the alias {table} is also a table's name (get_tables_with_alias: \"Alias {table} has the same name in table\")"
            ));
        }
        map.insert(table.clone(), table.clone());
    }
    Ok(map)
}

struct Converter<'a> {
    schema: &'a SpiderSchema,
    aliases: HashMap<String, String>,
}

/// An unquoted name, lowercased (Spider's tokens are lowercased; a quoted name is a string
/// value to its tokenizer).
fn plain(ident: &Ident) -> Fails<String> {
    if ident.quote_style.is_some() {
        return fail(format!(
            "the quoted name {ident}, which Spider reads as a string value"
        ));
    }
    Ok(ident.value.to_lowercase())
}

fn aggregate(expr: &Expr) -> Option<(u8, &sqlparser::ast::Function)> {
    let Expr::Function(function) = expr else {
        return None;
    };
    let name = function.name.to_string().to_lowercase();
    let index = AGG_OPS.iter().position(|op| *op == name)?;
    (index > 0).then_some((index as u8, function))
}

/// An aggregate's one argument and whether it is `DISTINCT`.
fn aggregate_argument(function: &sqlparser::ast::Function) -> Fails<(Option<&Expr>, bool)> {
    let FunctionArguments::List(list) = &function.args else {
        return fail(format!("{function}: an aggregate without its argument"));
    };
    if function.filter.is_some()
        || function.over.is_some()
        || !function.within_group.is_empty()
        || !list.clauses.is_empty()
        || list.args.len() != 1
        || matches!(list.duplicate_treatment, Some(DuplicateTreatment::All))
    {
        return fail(format!(
            "{function}: Spider's aggregates take one column (parse_col_unit)"
        ));
    }
    let distinct = matches!(list.duplicate_treatment, Some(DuplicateTreatment::Distinct));
    match &list.args[0] {
        FunctionArg::Unnamed(FunctionArgExpr::Wildcard) => Ok((None, distinct)),
        FunctionArg::Unnamed(FunctionArgExpr::Expr(expr)) => Ok((Some(expr), distinct)),
        _ => fail(format!("{function}: an argument Spider's grammar has not")),
    }
}

fn unit_op(op: &BinaryOperator) -> Option<u8> {
    match op {
        BinaryOperator::Minus => Some(1),
        BinaryOperator::Plus => Some(2),
        BinaryOperator::Multiply => Some(3),
        BinaryOperator::Divide => Some(4),
        _ => None,
    }
}

impl Converter<'_> {
    fn query(&self, query: &Query) -> Fails<Sql> {
        if query.with.is_some() {
            return fail("WITH, which Spider's grammar has not (parse_sql starts at SELECT)");
        }
        if query.fetch.is_some() || !query.locks.is_empty() || query.for_clause.is_some() {
            return fail("a clause Spider's grammar has not");
        }
        let mut operands = Vec::new();
        let mut operators = Vec::new();
        self.chain(&query.body, &mut operands, &mut operators)?;
        // ORDER BY and LIMIT after the chain belong to its last query.
        if let Some(last) = operands.last_mut() {
            self.order_and_limit(query, last)?;
        }
        let mut nested: Option<Sql> = None;
        // Each query takes the operator after it, and the rest of the chain as its nested query.
        let after = [None]
            .into_iter()
            .chain(operators.into_iter().rev().map(Some));
        for (mut sql, operator) in operands.into_iter().rev().zip(after) {
            if let Some(next) = nested.take() {
                let next = Some(Box::new(next));
                match operator {
                    Some(SetOperator::Intersect) => sql.intersect = next,
                    Some(SetOperator::Except) => sql.except = next,
                    _ => sql.union = next,
                }
            }
            nested = Some(sql);
        }
        nested.ok_or_else(|| "an empty query".to_string())
    }

    /// The queries of a chain of set operations, in order, and the operators between them.
    fn chain(
        &self,
        body: &SetExpr,
        operands: &mut Vec<Sql>,
        operators: &mut Vec<SetOperator>,
    ) -> Fails<()> {
        match body {
            SetExpr::Select(select) => {
                operands.push(self.select(select)?);
                Ok(())
            }
            SetExpr::Query(inner) => {
                operands.push(self.query(inner)?);
                Ok(())
            }
            SetExpr::SetOperation {
                op,
                set_quantifier,
                left,
                right,
            } => {
                if !matches!(set_quantifier, SetQuantifier::None) {
                    return fail(format!(
                        "{op} {set_quantifier}: Spider reads no quantifier after {op}"
                    ));
                }
                if !matches!(
                    op,
                    SetOperator::Union | SetOperator::Intersect | SetOperator::Except
                ) {
                    return fail(format!("{op}, which Spider's grammar has not"));
                }
                self.chain(left, operands, operators)?;
                operators.push(*op);
                self.chain(right, operands, operators)
            }
            other => fail(format!("{other}: not a SELECT")),
        }
    }

    fn order_and_limit(&self, query: &Query, sql: &mut Sql) -> Fails<()> {
        if let Some(order_by) = &query.order_by {
            let OrderByKind::Expressions(items) = &order_by.kind else {
                return fail("ORDER BY ALL, which Spider's grammar has not");
            };
            let default_tables = default_tables(sql);
            let mut direction = "asc";
            let mut units = Vec::new();
            for item in items {
                if item.with_fill.is_some() {
                    return fail("ORDER BY ... WITH FILL, which Spider's grammar has not");
                }
                units.push(self.val_unit(&item.expr, &default_tables)?);
                match &item.options.sort {
                    Some(OrderBySort::Asc) => direction = "asc",
                    Some(OrderBySort::Desc) => direction = "desc",
                    Some(OrderBySort::Using(_)) => return fail("ORDER BY ... USING"),
                    None => {}
                }
                // parse_order_by stops at a word that is neither `asc`/`desc` nor `,`.
                if item.options.nulls_first.is_some() {
                    break;
                }
            }
            sql.order_by = Some(OrderBy { direction, units });
        }
        sql.limit = match &query.limit_clause {
            Some(LimitClause::LimitOffset { limit, .. }) => limit.is_some(),
            Some(LimitClause::OffsetCommaLimit { .. }) => true,
            None => false,
        };
        Ok(())
    }

    fn select(&self, select: &AstSelect) -> Fails<Sql> {
        if select.top.is_some()
            || select.into.is_some()
            || select.qualify.is_some()
            || !select.named_window.is_empty()
            || !select.lateral_views.is_empty()
            || !select.sort_by.is_empty()
        {
            return fail("a clause Spider's grammar has not");
        }
        let distinct = match &select.distinct {
            None => false,
            Some(Distinct::Distinct) => true,
            Some(other) => return fail(format!("{other}, which Spider's grammar has not")),
        };
        let mut sql = Sql::default();
        let default_tables = self.from(select, &mut sql)?;
        let mut items = Vec::new();
        for item in &select.projection {
            self.select_items(item, &default_tables, &mut items)?;
        }
        sql.select = Select {
            distinct: Some(distinct),
            items,
        };
        if let Some(filter) = &select.selection {
            sql.filter = self.condition(filter, &default_tables)?;
        }
        match &select.group_by {
            GroupByExpr::Expressions(exprs, modifiers) if modifiers.is_empty() => {
                for expr in exprs {
                    sql.group_by.push(self.col_unit(expr, &default_tables)?);
                }
            }
            _ => return fail("a GROUP BY Spider's grammar has not"),
        }
        if let Some(having) = &select.having {
            if sql.group_by.is_empty() {
                return fail("HAVING without GROUP BY, which Spider's parser cannot read");
            }
            sql.having = self.condition(having, &default_tables)?;
        }
        Ok(sql)
    }

    /// `parse_from`: the table units, the `ON` conditions, and the tables bare columns are
    /// looked for in (`default_tables`).
    fn from(&self, select: &AstSelect, sql: &mut Sql) -> Fails<Vec<String>> {
        let from = match select.from.as_slice() {
            [] => return fail("no FROM (parse_from: \"'from' not found\")"),
            [one] => one,
            _ => return fail("tables separated by commas, which Spider's parse_from cannot read"),
        };
        let mut default_tables = Vec::new();
        match &from.relation {
            TableFactor::Derived {
                lateral: false,
                subquery,
                alias: None,
                ..
            } => sql
                .tables
                .push(TableUnit::Query(Box::new(self.query(subquery)?))),
            TableFactor::Derived { alias: Some(_), .. } => {
                return fail(
                    "a subquery in FROM with an alias, which Spider's parse_from cannot read",
                );
            }
            factor => {
                for table in self.table(factor)? {
                    sql.tables.push(TableUnit::Table(table_id(&table)));
                    default_tables.push(table);
                }
            }
        }
        for join in &from.joins {
            let constraint = match &join.join_operator {
                JoinOperator::Join(constraint) => constraint,
                other => {
                    return fail(format!(
                        "{}, which Spider's parse_from cannot read (only JOIN)",
                        join_name(other)
                    ));
                }
            };
            for table in self.table(&join.relation)? {
                sql.tables.push(TableUnit::Table(table_id(&table)));
                default_tables.push(table);
            }
            match constraint {
                JoinConstraint::None => {}
                JoinConstraint::On(on) => {
                    let condition = self.condition(on, &default_tables)?;
                    if !sql.join_conditions.is_empty() {
                        sql.join_conditions.connectives.push("and");
                    }
                    sql.join_conditions.units.extend(condition.units);
                    sql.join_conditions
                        .connectives
                        .extend(condition.connectives);
                }
                _ => {
                    return fail(
                        "JOIN ... USING or NATURAL JOIN, which Spider's parse_from cannot read",
                    );
                }
            }
        }
        Ok(default_tables)
    }

    /// `parse_table_unit`: a table (or an alias, as `tables_with_alias` maps it), with an
    /// optional `AS alias`. A name after a table without `AS` is read as one more table
    /// (`FROM singer singer` is two tables); when it is none, the query fails.
    fn table(&self, factor: &TableFactor) -> Fails<Vec<String>> {
        let TableFactor::Table {
            name,
            alias,
            args: None,
            with_hints,
            version: None,
            partitions,
            ..
        } = factor
        else {
            return fail(format!(
                "{factor}: not a table Spider's parse_table_unit reads"
            ));
        };
        if !with_hints.is_empty() || !partitions.is_empty() {
            return fail(format!(
                "{factor}: not a table Spider's parse_table_unit reads"
            ));
        }
        let [part] = name.0.as_slice() else {
            return fail(format!(
                "{name}: a qualified table name, which Spider cannot read"
            ));
        };
        let Some(ident) = part.as_ident() else {
            return fail(format!("{name}: not a table name"));
        };
        let mut tables = vec![self.table_named(&plain(ident)?)?];
        if let Some(alias) = alias {
            if !alias.columns.is_empty() {
                return fail(format!("{alias}: column aliases after a table"));
            }
            let name = plain(&alias.name)?;
            if !alias.explicit {
                let second = self.table_named(&name).map_err(|_| {
                    format!("the alias {name} without AS, which Spider's parse_from cannot read")
                })?;
                tables.push(second);
            }
        }
        Ok(tables)
    }

    fn table_named(&self, written: &str) -> Fails<String> {
        match self.aliases.get(written) {
            Some(table) if self.schema.columns(table).is_some() => Ok(table.clone()),
            _ => fail(format!("no table {written} in the database")),
        }
    }

    /// `parse_select`'s items, which need no comma between them: after `agg(a)`, a `*`
    /// starts the next item (the column `*`), so `sum(a) * sum(b)` reads as three items.
    fn select_items(
        &self,
        item: &SelectItem,
        default_tables: &[String],
        into: &mut Vec<(u8, ValUnit)>,
    ) -> Fails<()> {
        if let SelectItem::UnnamedExpr(Expr::BinaryOp {
            left,
            op: BinaryOperator::Multiply,
            right,
        }) = item
            && aggregate(left).is_some()
        {
            into.push(
                self.select_item(&SelectItem::UnnamedExpr((**left).clone()), default_tables)?,
            );
            into.push((
                0,
                ValUnit::column(ColUnit {
                    agg: 0,
                    column: ALL_COLUMNS.into(),
                    distinct: Some(false),
                }),
            ));
            return self.select_items(
                &SelectItem::UnnamedExpr((**right).clone()),
                default_tables,
                into,
            );
        }
        into.push(self.select_item(item, default_tables)?);
        Ok(())
    }

    /// One of `parse_select`'s items.
    fn select_item(&self, item: &SelectItem, default_tables: &[String]) -> Fails<(u8, ValUnit)> {
        match item {
            SelectItem::Wildcard(options) if options.to_string().is_empty() => Ok((
                0,
                ValUnit::column(ColUnit {
                    agg: 0,
                    column: ALL_COLUMNS.into(),
                    distinct: Some(false),
                }),
            )),
            SelectItem::UnnamedExpr(expr) => {
                if let Some((agg, function)) = aggregate(expr) {
                    // `agg` then `parse_val_unit` on the bracket: `count(DISTINCT a)` is
                    // (count, (none, (none, a, True), None)).
                    let (argument, distinct) = aggregate_argument(function)?;
                    if distinct && matches!(argument, Some(Expr::Nested(_))) {
                        return fail(format!(
                            "{expr}: DISTINCT before a bracket, which Spider's parse_col cannot read"
                        ));
                    }
                    let mut unit = match argument {
                        None => ValUnit::column(ColUnit {
                            agg: 0,
                            column: ALL_COLUMNS.into(),
                            distinct: Some(false),
                        }),
                        Some(argument) => self.val_unit(argument, default_tables)?,
                    };
                    if distinct {
                        unit.left.distinct = Some(true);
                    }
                    Ok((agg, unit))
                } else {
                    // `agg` is read first, so `max(a) - min(b)` leaves `- min(b)` unread.
                    if let Expr::BinaryOp { left, .. } = expr
                        && leftmost(left).is_some_and(|e| aggregate(e).is_some())
                    {
                        return fail(format!(
                            "{expr}: an aggregate followed by an operator, which Spider's parse_select cannot read"
                        ));
                    }
                    Ok((0, self.val_unit(expr, default_tables)?))
                }
            }
            SelectItem::ExprWithAlias { alias, .. } => fail(format!(
                "the column alias {alias}, which Spider's parse_select cannot read"
            )),
            other => fail(format!("{other}: not a column Spider's parse_select reads")),
        }
    }

    /// `parse_val_unit`: a column unit, or two joined by an arithmetic operator; brackets
    /// around it are allowed.
    fn val_unit(&self, expr: &Expr, default_tables: &[String]) -> Fails<ValUnit> {
        match expr {
            Expr::Nested(inner) => self.val_unit(inner, default_tables),
            Expr::BinaryOp { left, op, right } if unit_op(op).is_some() => Ok(ValUnit {
                op: unit_op(op).unwrap_or(0),
                left: self.col_unit(left, default_tables)?,
                right: Some(self.col_unit(right, default_tables)?),
            }),
            _ => Ok(ValUnit::column(self.col_unit(expr, default_tables)?)),
        }
    }

    /// `parse_col_unit`: a column, `*` only inside an aggregate, `agg([DISTINCT] column)`.
    fn col_unit(&self, expr: &Expr, default_tables: &[String]) -> Fails<ColUnit> {
        if let Some((agg, function)) = aggregate(expr) {
            let (argument, distinct) = aggregate_argument(function)?;
            let column = match argument {
                None => ALL_COLUMNS.to_string(),
                Some(argument) => self.column(argument, default_tables)?,
            };
            return Ok(ColUnit {
                agg,
                column,
                distinct: Some(distinct),
            });
        }
        let inner = match expr {
            Expr::Nested(inner) if is_column(inner) => inner,
            _ => expr,
        };
        Ok(ColUnit {
            agg: 0,
            column: self.column(inner, default_tables)?,
            distinct: Some(false),
        })
    }

    /// `parse_col`: `alias.column` through the aliases; a bare column in the first of the
    /// `FROM`'s tables that has it.
    fn column(&self, expr: &Expr, default_tables: &[String]) -> Fails<String> {
        match expr {
            Expr::Identifier(ident) => {
                let column = plain(ident)?;
                if default_tables.is_empty() {
                    return fail(format!(
                        "the column {column} with no table in its FROM (parse_col: \"Default tables should not be None or empty\")"
                    ));
                }
                default_tables
                    .iter()
                    .find(|table| {
                        self.schema
                            .columns(table)
                            .is_some_and(|columns| columns.contains(&column))
                    })
                    .map(|table| column_id(table, &column))
                    .ok_or_else(|| format!("no table of the FROM has a column {column}"))
            }
            Expr::CompoundIdentifier(parts) => {
                let [alias, column] = parts.as_slice() else {
                    return fail(format!("{expr}: Spider reads only alias.column"));
                };
                let (alias, column) = (plain(alias)?, plain(column)?);
                let table = self
                    .aliases
                    .get(&alias)
                    .ok_or_else(|| format!("no table or alias {alias}"))?;
                if self
                    .schema
                    .columns(table)
                    .is_some_and(|columns| columns.contains(&column))
                {
                    Ok(column_id(table, &column))
                } else {
                    fail(format!("no column {column} in the table {table}"))
                }
            }
            other => fail(format!("{other}: not a column Spider's parse_col reads")),
        }
    }

    /// `parse_condition`: units joined by `and`/`or`, in the order written.
    /// A condition; after a unit whose value is a column, `parse_value` skips every word up
    /// to the next `and` (or `,`, `)`, clause word), so the `or` units that follow are not read.
    fn condition(&self, expr: &Expr, default_tables: &[String]) -> Fails<Condition> {
        let mut written = Condition::default();
        self.condition_into(expr, default_tables, &mut written)?;
        let mut read = Condition::default();
        let mut skipping = false;
        for (at, unit) in written.units.into_iter().enumerate() {
            let before = at.checked_sub(1).map(|b| written.connectives[b]);
            if skipping && before == Some("or") {
                continue;
            }
            if let Some(connective) = before {
                read.connectives.push(connective);
            }
            let last = if unit.op == where_op("between") {
                &unit.second
            } else {
                &unit.first
            };
            skipping = matches!(last, Operand::Column(_));
            read.units.push(unit);
        }
        Ok(read)
    }

    fn condition_into(
        &self,
        expr: &Expr,
        default_tables: &[String],
        into: &mut Condition,
    ) -> Fails<()> {
        if let Expr::BinaryOp { left, op, right } = expr
            && let Some(connective) = match op {
                BinaryOperator::And => Some("and"),
                BinaryOperator::Or => Some("or"),
                _ => None,
            }
        {
            self.condition_into(left, default_tables, into)?;
            into.connectives.push(connective);
            return self.condition_into(right, default_tables, into);
        }
        into.units.push(self.cond_unit(expr, default_tables)?);
        Ok(())
    }

    fn cond_unit(&self, expr: &Expr, default_tables: &[String]) -> Fails<CondUnit> {
        let unit =
            |not: bool, op: &str, value: ValUnit, first: Operand, second: Operand| CondUnit {
                not,
                op: where_op(op),
                value,
                first,
                second,
            };
        match expr {
            Expr::BinaryOp { left, op, right } => {
                let name = match op {
                    BinaryOperator::Eq => "=",
                    BinaryOperator::Gt => ">",
                    BinaryOperator::Lt => "<",
                    BinaryOperator::GtEq => ">=",
                    BinaryOperator::LtEq => "<=",
                    BinaryOperator::NotEq => "!=",
                    other => {
                        return fail(format!(
                            "the operator {other}, which Spider's WHERE_OPS has not"
                        ));
                    }
                };
                Ok(unit(
                    false,
                    name,
                    self.val_unit(left, default_tables)?,
                    self.operand(right, default_tables)?,
                    Operand::Nothing,
                ))
            }
            Expr::Between {
                expr,
                negated,
                low,
                high,
            } => Ok(unit(
                *negated,
                "between",
                self.val_unit(expr, default_tables)?,
                self.operand(low, default_tables)?,
                self.operand(high, default_tables)?,
            )),
            Expr::Like {
                negated,
                any: false,
                expr,
                pattern,
                escape_char: None,
            } => Ok(unit(
                *negated,
                "like",
                self.val_unit(expr, default_tables)?,
                self.operand(pattern, default_tables)?,
                Operand::Nothing,
            )),
            Expr::InSubquery {
                expr,
                subquery,
                negated,
            } => Ok(unit(
                *negated,
                "in",
                self.val_unit(expr, default_tables)?,
                Operand::Query(Box::new(self.query(subquery)?)),
                Operand::Nothing,
            )),
            Expr::InList {
                expr,
                list,
                negated,
            } => match list.as_slice() {
                [one] if literal(one).is_some() => Ok(unit(
                    *negated,
                    "in",
                    self.val_unit(expr, default_tables)?,
                    self.operand(one, default_tables)?,
                    Operand::Nothing,
                )),
                _ => fail("IN with a list, which Spider's parse_value cannot read"),
            },
            // SQLite's `a IS 20`, which the parser reads as IS NOT DISTINCT FROM.
            Expr::IsNotDistinctFrom(left, right) => Ok(unit(
                false,
                "is",
                self.val_unit(left, default_tables)?,
                self.operand(right, default_tables)?,
                Operand::Nothing,
            )),
            Expr::Nested(_) => {
                fail("a condition in brackets, which Spider's parse_condition cannot read")
            }
            other => fail(format!(
                "{other}: not a condition Spider's parse_condition reads"
            )),
        }
    }

    /// `parse_value`.
    fn operand(&self, expr: &Expr, default_tables: &[String]) -> Fails<Operand> {
        if let Some(value) = literal(expr) {
            return Ok(value);
        }
        match expr {
            Expr::Subquery(query) => Ok(Operand::Query(Box::new(self.query(query)?))),
            Expr::Nested(inner) if literal(inner).is_some() => self.operand(inner, default_tables),
            Expr::Identifier(_) | Expr::CompoundIdentifier(_) => Ok(Operand::Column(ColUnit {
                agg: 0,
                column: self.column(expr, default_tables)?,
                distinct: Some(false),
            })),
            // The column that starts the value is read; the rest of it is skipped.
            Expr::BinaryOp { left, .. } if leftmost_column(left).is_some() => {
                self.operand(leftmost_column(left).unwrap_or(left), default_tables)
            }
            other => fail(format!("{other}: not a value Spider's parse_value reads")),
        }
    }
}

fn is_column(expr: &Expr) -> bool {
    matches!(expr, Expr::Identifier(_) | Expr::CompoundIdentifier(_))
}

/// The first operand of a chain of operators.
fn leftmost(expr: &Expr) -> Option<&Expr> {
    match expr {
        Expr::BinaryOp { left, .. } => leftmost(left),
        e => Some(e),
    }
}

fn leftmost_column(expr: &Expr) -> Option<&Expr> {
    leftmost(expr).filter(|e| is_column(e))
}

/// A number (Python's `float`) or a string (with its quotes, as Spider's tokens keep them).
fn literal(expr: &Expr) -> Option<Operand> {
    match expr {
        Expr::Value(value) => match &value.value {
            Value::Number(text, _) => text.parse().ok().map(Operand::Number),
            Value::SingleQuotedString(text) => Some(Operand::Text(format!("\"{text}\""))),
            _ => None,
        },
        Expr::UnaryOp {
            op: op @ (UnaryOperator::Minus | UnaryOperator::Plus),
            expr,
        } => match literal(expr)? {
            Operand::Number(x) if *op == UnaryOperator::Minus => Some(Operand::Number(-x)),
            number @ Operand::Number(_) => Some(number),
            _ => None,
        },
        _ => None,
    }
}

fn join_name(operator: &JoinOperator) -> &'static str {
    match operator {
        JoinOperator::Inner(_) => "INNER JOIN",
        JoinOperator::Left(_) | JoinOperator::LeftOuter(_) => "LEFT JOIN",
        JoinOperator::Right(_) | JoinOperator::RightOuter(_) => "RIGHT JOIN",
        JoinOperator::FullOuter(_) => "FULL JOIN",
        JoinOperator::CrossJoin(_) => "CROSS JOIN",
        _ => "this kind of join",
    }
}

/// The tables bare columns of a converted query are looked for in.
fn default_tables(sql: &Sql) -> Vec<String> {
    sql.tables
        .iter()
        .filter_map(|unit| match unit {
            TableUnit::Table(id) => id
                .strip_prefix("__")
                .and_then(|id| id.strip_suffix("__"))
                .map(str::to_string),
            TableUnit::Query(_) => None,
        })
        .collect()
}
