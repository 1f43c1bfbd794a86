//! A query as SQLite runs it, with the meaning it has in its own dialect. Test databases are
//! SQLite, so a query written for another dialect is rewritten where SQLite lacks the construct
//! or gives it another meaning: `TOP n` and `FETCH FIRST n ROWS` become `LIMIT n`, `ILIKE`
//! becomes `LIKE` (SQLite's `LIKE` ignores ASCII case), `x::type` becomes `CAST`, a derived
//! table's column aliases go through a CTE, `INTERSECT ALL`/`EXCEPT ALL` number equal rows,
//! sized and decimal casts cut or round, date casts use SQLite's date functions, and NULLs sort
//! where PostgreSQL and DuckDB put them, and SQL Server's `AVG` of whole numbers is a whole
//! number. Backticks and brackets need nothing: SQLite reads them as quoted names. A query
//! nothing was rewritten in is passed through as written.

use std::ops::ControlFlow;

use sqlparser::ast::{
    CastKind, CharacterLength, DataType, ExactNumberInfo, Expr, Function, FunctionArg,
    FunctionArgExpr, FunctionArguments, Ident, LimitClause, OffsetRows, OrderBy, OrderByExpr,
    OrderByKind, OrderBySort, Query, SelectItem, SetExpr, SetOperator, SetQuantifier, Statement,
    TableFactor, TopQuantity, VisitMut, VisitorMut, WindowType, visit_expressions_mut,
};

use super::{ParseError, ParseLimits, SqlDialect, parse};

/// Whether the statements' own result is ordered: a top-level `ORDER BY`, not one inside a
/// subquery or a window. (The `bag` mode's text rule, Spider's, also counts those.)
pub fn orders_its_output(statements: &[sqlparser::ast::Statement]) -> bool {
    statements.iter().any(|s| match s {
        sqlparser::ast::Statement::Query(q) => q.order_by.is_some(),
        _ => false,
    })
}

/// The text SQLite should run for `sql` written in `dialect`. SQLite's own SQL (and generic SQL
/// the parser cannot read) is passed through as written; otherwise the constructs SQLite lacks
/// are rewritten, and the text is printed again only when one was.
pub fn to_sqlite(
    sql: &str,
    dialect: SqlDialect,
    limits: ParseLimits,
) -> Result<String, ParseError> {
    translate(sql, dialect, limits, dialect == SqlDialect::Mssql).map(|(text, _)| text)
}

/// [`to_sqlite`] on an engine whose `AVG` of whole numbers is a whole number, cut toward zero
/// (SQL Server's, Calcite's; not SQLite's, PostgreSQL's or MySQL's), and the `AVG` calls it
/// changed, as written (none when the query has no `AVG` that could change).
pub fn to_sqlite_whole_average(
    sql: &str,
    dialect: SqlDialect,
    limits: ParseLimits,
) -> Result<(String, Vec<String>), ParseError> {
    translate(sql, dialect, limits, true)
}

/// The SQLite text, and the `AVG` calls made whole-number averages.
fn translate(
    sql: &str,
    dialect: SqlDialect,
    limits: ParseLimits,
    whole_average: bool,
) -> Result<(String, Vec<String>), ParseError> {
    let passes_through = matches!(
        dialect,
        SqlDialect::Sqlite | SqlDialect::Generic | SqlDialect::Ansi
    );
    let mut statements = match parse(sql, dialect, limits) {
        Ok(statements) => statements,
        Err(_) if passes_through => return Ok((sql.to_string(), Vec::new())),
        Err(err) => return Err(err),
    };
    let mut spelling = Spelling {
        changed: false,
        names: 0,
        spell_dialect: !passes_through,
        standard_casts: dialect != SqlDialect::Sqlite,
        mysql: dialect == SqlDialect::Mysql,
        nulls_order: match dialect {
            SqlDialect::Postgres => Some(NullsOrder::Largest),
            SqlDialect::Duckdb => Some(NullsOrder::Last),
            _ => None,
        },
        whole_average,
        averages: Vec::new(),
    };
    let _ = statements.visit(&mut spelling);
    // A name that starts with `$` was read as a name (`parse`); SQLite reads it as a parameter
    // unless it is printed again, quoted.
    if !spelling.changed && !sql.contains('$') {
        return Ok((sql.to_string(), Vec::new()));
    }
    let text = statements
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(";\n");
    Ok((text, spelling.averages))
}

struct Spelling {
    /// Whether anything was rewritten.
    changed: bool,
    /// Names made so far (`qeval_set_1`...), each new.
    names: usize,
    /// Where the dialect sorts NULLs when the query does not say: PostgreSQL's NULLs sort as
    /// the largest value (last ascending, first descending), DuckDB's last either way; SQLite,
    /// MySQL and SQL Server sort them as the smallest. `None`: as SQLite does.
    nulls_order: Option<NullsOrder>,
    /// MySQL's `CAST(x AS CHAR(n))` cuts to `n` characters; elsewhere `CHAR(n)` pads.
    mysql: bool,
    /// Whether to respell what another dialect writes differently (`TOP`, `ILIKE`, `::`);
    /// SQLite's own text keeps its spelling.
    spell_dialect: bool,
    /// Whether a CAST means what it means outside SQLite: to a date or time type, a date; to
    /// `VARCHAR(n)` or `DECIMAL(p, s)`, a value cut to `n` characters or rounded to `s` places
    /// (SQLite ignores the sizes).
    standard_casts: bool,
    /// Whether `AVG` of whole numbers is a whole number (see [`whole_average`]).
    whole_average: bool,
    /// The `AVG` calls rewritten so, as written.
    averages: Vec<String>,
}

impl Spelling {
    fn fresh(&mut self, stem: &str) -> String {
        self.names += 1;
        format!("qeval_{stem}_{}", self.names)
    }
}

impl VisitorMut for Spelling {
    type Break = ();

    fn post_visit_query(&mut self, query: &mut Query) -> ControlFlow<()> {
        if self.spell_dialect {
            top_to_limit(query, &mut self.changed);
        }
        fetch_to_limit(query, &mut self.changed);
        offset_without_rows(query, &mut self.changed);
        if let Some(order) = self.nulls_order {
            nulls_where_the_dialect_puts_them(query, order, &mut self.changed);
        }
        if let SetExpr::Values(values) = query.body.as_mut()
            && values.explicit_row
        {
            // MySQL's `VALUES ROW(1), ROW(2)`.
            values.explicit_row = false;
            self.changed = true;
        }
        rewrite_set_operations(&mut query.body, self);
        ControlFlow::Continue(())
    }

    fn post_visit_table_factor(&mut self, factor: &mut TableFactor) -> ControlFlow<()> {
        if let Some(rewritten) = derived_with_columns(factor) {
            *factor = rewritten;
            self.changed = true;
        }
        ControlFlow::Continue(())
    }

    fn post_visit_expr(&mut self, expr: &mut Expr) -> ControlFlow<()> {
        if self.whole_average
            && let Expr::Function(function) = expr
            && let Some(average) = whole_average(function)
        {
            self.averages.push(function.to_string());
            *expr = average;
            self.changed = true;
            return ControlFlow::Continue(());
        }
        match expr {
            Expr::ILike {
                negated,
                any,
                expr: inner,
                pattern,
                escape_char,
            } if self.spell_dialect => {
                *expr = Expr::Like {
                    negated: *negated,
                    any: *any,
                    expr: inner.clone(),
                    pattern: pattern.clone(),
                    escape_char: escape_char.clone(),
                };
                self.changed = true;
            }
            Expr::Function(function) if self.nulls_order.is_some() => {
                // A window's ORDER BY sorts NULLs as the dialect's ORDER BY does.
                if let (Some(WindowType::WindowSpec(spec)), Some(order)) =
                    (&mut function.over, self.nulls_order)
                {
                    spell_nulls(&mut spec.order_by, order, &mut self.changed);
                }
            }
            Expr::Cast { kind, .. } if self.spell_dialect && *kind == CastKind::DoubleColon => {
                *kind = CastKind::Cast;
                self.changed = true;
            }
            Expr::Cast {
                expr: inner,
                data_type,
                ..
            } if self.standard_casts => {
                if let Some(call) = standard_cast(inner, data_type, self.mysql) {
                    *expr = call;
                    self.changed = true;
                }
            }
            Expr::TypedString(typed) if is_date_or_time(&typed.data_type) => {
                // `DATE '2020-12-11'`: SQLite has no typed literals and keeps dates as text.
                *expr = Expr::Value(typed.value.clone());
                self.changed = true;
            }
            _ => {}
        }
        ControlFlow::Continue(())
    }
}

/// `AVG(x)` (or `AVG(DISTINCT x)`, not a window's) as an engine computes it whose average of an
/// integer type is that type: the sum divided by the count in integer arithmetic, cut toward
/// zero, when every value is a whole number (SQLite's `SUM` of whole numbers is one); the
/// ordinary average otherwise. SQL Server's `AVG(2, 3)` is 2.
fn whole_average(function: &Function) -> Option<Expr> {
    let named_avg =
        function.name.0.len() == 1 && function.name.to_string().eq_ignore_ascii_case("avg");
    let plain =
        function.over.is_none() && function.filter.is_none() && function.within_group.is_empty();
    let FunctionArguments::List(list) = &function.args else {
        return None;
    };
    let one_value = matches!(
        list.args.as_slice(),
        [FunctionArg::Unnamed(FunctionArgExpr::Expr(_))]
    ) && list.clauses.is_empty();
    if !(named_avg && plain && one_value) {
        return None;
    }
    let mut average =
        parse_expr("CASE WHEN typeof(SUM(x)) = 'integer' THEN SUM(x) / COUNT(x) ELSE AVG(x) END")
            .ok()?;
    // Each of the template's SUM, COUNT and AVG takes the call's own argument (with its
    // DISTINCT).
    let _ = visit_expressions_mut(&mut average, |expr| {
        if let Expr::Function(call) = expr
            && !call.name.to_string().eq_ignore_ascii_case("typeof")
        {
            call.args = function.args.clone();
        }
        ControlFlow::<()>::Continue(())
    });
    Some(average)
}

fn is_date_or_time(data_type: &DataType) -> bool {
    matches!(
        data_type,
        DataType::Date | DataType::Time(..) | DataType::Timestamp(..) | DataType::Datetime(_)
    )
}

/// A CAST whose meaning outside SQLite SQLite's CAST does not give, as the SQLite that gives it:
/// to a date or time type (SQLite reads `2020-01-01` as the number 2020) through its date
/// functions; to `VARCHAR(n)` (and MySQL's `CHAR(n)`) as the first `n` characters; to
/// `DECIMAL(p, s)` as the value rounded to `s` places.
fn standard_cast(inner: &Expr, data_type: &DataType, mysql: bool) -> Option<Expr> {
    let length = |length: &Option<CharacterLength>| match length {
        Some(CharacterLength::IntegerLength { length, .. }) => Some(*length),
        _ => None,
    };
    let text = match data_type {
        DataType::Date => format!("date({inner})"),
        DataType::Time(..) => format!("time({inner})"),
        DataType::Timestamp(..) | DataType::Datetime(..) => format!("datetime({inner})"),
        DataType::Varchar(n)
        | DataType::Nvarchar(n)
        | DataType::CharacterVarying(n)
        | DataType::CharVarying(n) => {
            format!("substr(CAST({inner} AS TEXT), 1, {})", length(n)?)
        }
        DataType::Char(n) | DataType::Character(n) if mysql => {
            format!("substr(CAST({inner} AS TEXT), 1, {})", length(n)?)
        }
        DataType::Decimal(info) | DataType::Numeric(info) | DataType::Dec(info) => {
            let scale = match info {
                ExactNumberInfo::PrecisionAndScale(_, scale) => *scale,
                ExactNumberInfo::Precision(_) => 0,
                // MySQL's bare `DECIMAL` is `DECIMAL(10, 0)`; PostgreSQL's keeps every digit.
                ExactNumberInfo::None if mysql => 0,
                ExactNumberInfo::None => return None,
            };
            format!("round({inner}, {scale})")
        }
        _ => return None,
    };
    parse_expr(&text).ok()
}

#[derive(Debug, Clone, Copy)]
enum NullsOrder {
    Largest,
    Last,
}

/// A query's `ORDER BY x` without `NULLS FIRST`/`LAST` written as the dialect sorts it, so
/// that `ORDER BY score DESC LIMIT 1` picks a NULL score on PostgreSQL as it does there.
fn nulls_where_the_dialect_puts_them(query: &mut Query, order: NullsOrder, changed: &mut bool) {
    if let Some(OrderBy {
        kind: OrderByKind::Expressions(expressions),
        ..
    }) = &mut query.order_by
    {
        spell_nulls(expressions, order, changed);
    }
}

/// The NULLs of each ordering expression that does not place them, placed as `order` says.
fn spell_nulls(expressions: &mut [OrderByExpr], order: NullsOrder, changed: &mut bool) {
    for expression in expressions {
        let options = &mut expression.options;
        if options.nulls_first.is_some() {
            continue;
        }
        let descending = matches!(options.sort, Some(OrderBySort::Desc));
        options.nulls_first = Some(match order {
            NullsOrder::Largest => descending,
            NullsOrder::Last => false,
        });
        *changed = true;
    }
}

/// `OFFSET m ROWS` (SQL Server, the standard) as `LIMIT -1 OFFSET m` (SQLite has no OFFSET
/// without a LIMIT, and -1 is no limit).
fn offset_without_rows(query: &mut Query, changed: &mut bool) {
    if let Some(LimitClause::LimitOffset {
        offset: Some(offset),
        limit,
        ..
    }) = &mut query.limit_clause
        && offset.rows != OffsetRows::None
    {
        offset.rows = OffsetRows::None;
        if limit.is_none() {
            *limit = parse_expr("-1").ok();
        }
        *changed = true;
    }
}

/// Rewrites the multiset operations of a query's body, innermost first (subqueries are queries
/// of their own, visited apart).
fn rewrite_set_operations(body: &mut SetExpr, spelling: &mut Spelling) {
    // Counted before either side is rewritten: a rewritten side reads `SELECT *`.
    let names = set_operation_names(body);
    if let SetExpr::SetOperation { left, right, .. } = body {
        for side in [left, right] {
            rewrite_set_operations(side, spelling);
            if let Some(rewritten) = unparenthesized(side) {
                **side = rewritten;
                spelling.changed = true;
            }
        }
    }
    if let Some(rewritten) = names.and_then(|names| multiset_operation(body, names, spelling)) {
        *body = rewritten;
        spelling.changed = true;
    }
}

/// `(SELECT ... ORDER BY x LIMIT 3) UNION ALL ...`: SQLite reads no parenthesis around a set
/// operation's side, so the side becomes `SELECT * FROM (...)`, which keeps its order, limit
/// and grouping with the other sides.
fn unparenthesized(side: &SetExpr) -> Option<SetExpr> {
    let SetExpr::Query(query) = side else {
        return None;
    };
    let mut statements = parse(
        &format!("SELECT * FROM ({query})"),
        SqlDialect::Generic,
        ParseLimits::default(),
    )
    .ok()?;
    match statements.pop() {
        Some(Statement::Query(query)) => Some(*query.body),
        _ => None,
    }
}

/// `SELECT TOP n ...` as `... LIMIT n`.
fn top_to_limit(query: &mut Query, changed: &mut bool) {
    if let SetExpr::Select(select) = query.body.as_mut()
        && query.limit_clause.is_none()
        && let Some(top) = &select.top
        && !top.percent
        && !top.with_ties
    {
        let limit = match &top.quantity {
            Some(TopQuantity::Constant(n)) => Some(Expr::value(sqlparser::ast::Value::Number(
                n.to_string(),
                false,
            ))),
            Some(TopQuantity::Expr(e)) => Some(e.clone()),
            None => None,
        };
        if limit.is_some() {
            select.top = None;
            query.limit_clause = Some(LimitClause::LimitOffset {
                limit,
                offset: None,
                limit_by: Vec::new(),
            });
            *changed = true;
        }
    }
}

/// `OFFSET m ROWS FETCH FIRST n ROWS ONLY` as `LIMIT n OFFSET m` (not `WITH TIES` or `PERCENT`,
/// which SQLite has no words for).
fn fetch_to_limit(query: &mut Query, changed: &mut bool) {
    let Some(fetch) = &query.fetch else {
        return;
    };
    if fetch.with_ties || fetch.percent {
        return;
    }
    let limit = fetch
        .quantity
        .clone()
        .unwrap_or_else(|| Expr::value(sqlparser::ast::Value::Number("1".into(), false)));
    let offset = match query.limit_clause.take() {
        None => None,
        Some(LimitClause::LimitOffset {
            limit: None,
            offset,
            ..
        }) => offset,
        Some(other) => {
            query.limit_clause = Some(other);
            return;
        }
    };
    query.fetch = None;
    query.limit_clause = Some(LimitClause::LimitOffset {
        limit: Some(limit),
        offset,
        limit_by: Vec::new(),
    });
    *changed = true;
}

/// `(subquery) AS t (x, y)` and `(VALUES ...) AS t (x, y)`: SQLite names a derived table's
/// columns only through a CTE, so the subquery becomes `(WITH t(x, y) AS (subquery) SELECT *
/// FROM t) AS t`.
fn derived_with_columns(factor: &TableFactor) -> Option<TableFactor> {
    let TableFactor::Derived {
        lateral: false,
        subquery,
        alias: Some(alias),
        sample: None,
    } = factor
    else {
        return None;
    };
    if alias.columns.is_empty() || alias.columns.iter().any(|c| c.data_type.is_some()) {
        return None;
    }
    let columns: Vec<String> = alias.columns.iter().map(|c| c.name.to_string()).collect();
    let name = &alias.name;
    let text = format!(
        "SELECT * FROM (WITH {name}({}) AS ({subquery}) SELECT * FROM {name}) AS {name}",
        columns.join(", ")
    );
    let mut statements = parse(&text, SqlDialect::Generic, ParseLimits::default()).ok()?;
    let Some(Statement::Query(query)) = statements.pop() else {
        return None;
    };
    let SetExpr::Select(select) = *query.body else {
        return None;
    };
    select.from.into_iter().next().map(|from| from.relation)
}

/// `INTERSECT ALL` and `EXCEPT ALL`, which SQLite lacks: each side's rows numbered within their
/// duplicates (`ROW_NUMBER() OVER (PARTITION BY every column)`), so that the set operation on
/// (row, number) keeps a row as many times as the multiset operation does; then the number is
/// dropped. Needs the left side's columns counted: a `*` there leaves it as written.
fn multiset_operation(
    body: &SetExpr,
    names: Vec<Option<Ident>>,
    spelling: &mut Spelling,
) -> Option<SetExpr> {
    let SetExpr::SetOperation {
        op,
        set_quantifier: SetQuantifier::All,
        left,
        right,
    } = body
    else {
        return None;
    };
    let word = match op {
        SetOperator::Intersect => "INTERSECT",
        SetOperator::Except | SetOperator::Minus => "EXCEPT",
        _ => return None,
    };
    let columns: Vec<String> = (1..=names.len()).map(|i| format!("qeval_c{i}")).collect();
    let list = columns.join(", ");
    let (l, r) = (spelling.fresh("left"), spelling.fresh("right"));
    let numbered = |side: &str| {
        format!("SELECT {list}, ROW_NUMBER() OVER (PARTITION BY {list}) AS qeval_n FROM {side}")
    };
    let outputs: Vec<String> = columns
        .iter()
        .zip(&names)
        .map(|(column, name)| match name {
            Some(name) => format!("{column} AS {name}"),
            None => column.clone(),
        })
        .collect();
    let text = format!(
        "SELECT * FROM (WITH {l}({list}) AS ({left}), {r}({list}) AS ({right}) SELECT {} FROM ({} {word} {}))",
        outputs.join(", "),
        numbered(&l),
        numbered(&r)
    );
    let mut statements = parse(&text, SqlDialect::Generic, ParseLimits::default()).ok()?;
    // `SELECT * FROM (WITH ...)`, a plain SELECT wherever the operation stood (a statement
    // may not start with a parenthesis).
    match statements.pop() {
        Some(Statement::Query(query)) => Some(*query.body),
        _ => None,
    }
}

/// A set operation's output columns (see [`output_names`]); when a `*` on the left leaves them
/// unknown, the right side still tells how many there are.
fn set_operation_names(body: &SetExpr) -> Option<Vec<Option<Ident>>> {
    let SetExpr::SetOperation { left, right, .. } = body else {
        return None;
    };
    output_names(left).or_else(|| output_names(right).map(|names| vec![None; names.len()]))
}

/// The output columns of a set operation's first query, each with its name when it has a plain
/// one; `None` when a `*` makes their number unknown.
fn output_names(body: &SetExpr) -> Option<Vec<Option<Ident>>> {
    match body {
        SetExpr::Select(select) => select
            .projection
            .iter()
            .map(|item| match item {
                SelectItem::UnnamedExpr(Expr::Identifier(name)) => Some(Some(name.clone())),
                SelectItem::UnnamedExpr(Expr::CompoundIdentifier(parts)) => {
                    Some(parts.last().cloned())
                }
                SelectItem::UnnamedExpr(_) => Some(None),
                SelectItem::ExprWithAlias { alias, .. } => Some(Some(alias.clone())),
                _ => None,
            })
            .collect(),
        SetExpr::SetOperation { left, .. } => output_names(left),
        SetExpr::Query(query) => output_names(&query.body),
        SetExpr::Values(values) => values.rows.first().map(|row| vec![None; row.content.len()]),
        _ => None,
    }
}

fn parse_expr(text: &str) -> Result<Expr, ParseError> {
    let mut statements = parse(
        &format!("SELECT {text}"),
        SqlDialect::Generic,
        ParseLimits::default(),
    )?;
    if let Some(Statement::Query(query)) = statements.pop()
        && let SetExpr::Select(mut select) = *query.body
        && let Some(SelectItem::UnnamedExpr(expr)) = select.projection.pop()
    {
        return Ok(expr);
    }
    Err(ParseError {
        message: format!("internal: `{text}` is not an expression"),
        line: None,
        column: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn top_becomes_limit_and_other_dialects_keep_their_meaning() {
        let sql = to_sqlite(
            "SELECT TOP 3 [name] FROM singer ORDER BY age",
            SqlDialect::Mssql,
            ParseLimits::default(),
        )
        .expect("translates");
        assert_eq!(sql, "SELECT [name] FROM singer ORDER BY age LIMIT 3");
        let sql = to_sqlite(
            "SELECT name FROM t WHERE name ILIKE 'a%' AND x::int > 1",
            SqlDialect::Postgres,
            ParseLimits::default(),
        )
        .expect("translates");
        assert_eq!(
            sql,
            "SELECT name FROM t WHERE name LIKE 'a%' AND CAST(x AS INT) > 1"
        );
        assert_eq!(
            to_sqlite(
                "select  *  from t",
                SqlDialect::Sqlite,
                ParseLimits::default()
            )
            .expect("as is"),
            "select  *  from t"
        );
    }

    #[test]
    fn sql_server_averages_whole_numbers_to_a_whole_number() {
        let limits = ParseLimits::default();
        let average = "CASE WHEN typeof(SUM(DISTINCT sal)) = 'integer' THEN SUM(DISTINCT sal) / COUNT(DISTINCT sal) ELSE AVG(DISTINCT sal) END";
        assert_eq!(
            to_sqlite(
                "SELECT AVG(DISTINCT sal) FROM emp",
                SqlDialect::Mssql,
                limits
            )
            .expect("translates"),
            format!("SELECT {average} FROM emp")
        );
        // Elsewhere only when asked, and a window's average stays as it is.
        assert_eq!(
            to_sqlite("SELECT AVG(sal) FROM emp", SqlDialect::Generic, limits).expect("as is"),
            "SELECT AVG(sal) FROM emp"
        );
        assert_eq!(
            to_sqlite_whole_average(
                "SELECT AVG(DISTINCT sal) FROM emp",
                SqlDialect::Generic,
                limits
            )
            .expect("translates"),
            (
                format!("SELECT {average} FROM emp"),
                vec!["AVG(DISTINCT sal)".to_string()]
            )
        );
        assert_eq!(
            to_sqlite_whole_average(
                "SELECT AVG(sal) OVER () FROM emp",
                SqlDialect::Generic,
                limits
            )
            .expect("translates")
            .1,
            Vec::<String>::new()
        );
    }
}
