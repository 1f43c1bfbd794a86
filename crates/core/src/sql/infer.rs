//! What two queries say about the database they read: its tables and columns with a type for
//! each (schema inference, when no schema is given), and the values that matter to them (hints
//! for generating test databases: the literals each column is compared with, `LIKE` patterns,
//! aggregate thresholds and limits, join partners, grouped and ordered columns).
//!
//! Names are resolved as SQL resolves them: through table aliases, CTEs, derived tables, `USING`,
//! qualified and unqualified references, innermost scope first. An unqualified column in a query
//! that reads several tables goes to the one table known to have it (from either query); when no
//! table is known to have it, the choice is made by a fixed rule and written in `notes`.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;
use sqlparser::ast::{
    BinaryOperator, Expr, FunctionArg, FunctionArgExpr, FunctionArguments, GroupByExpr,
    JoinConstraint, LimitClause, ObjectName, OrderByKind, Query, Select, SelectItem,
    SelectItemQualifiedWildcardKind, SetExpr, Statement, TableFactor, TopQuantity, UnaryOperator,
    Value,
};

use super::join_constraint;
use super::schema::{ColumnType, Schema, SchemaColumn, SchemaTable, last_part};
use super::scope::{BlockId, Scopes};

/// A literal of a query, as SQL would read it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(untagged)]
pub enum Literal {
    Number(String),
    Text(String),
}

/// `(table, column)`, both lowercased.
pub type ColumnKey = (String, String);

/// The values and shapes that tell the two queries apart, for the database generator.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Hints {
    /// Literals each column is compared with (`=`, `<`, `IN`, `BETWEEN`, through `SUM`...).
    pub values: BTreeMap<ColumnKey, Vec<Literal>>,
    /// `LIKE` patterns each column is matched against.
    pub patterns: BTreeMap<ColumnKey, Vec<String>>,
    /// Every literal of either query.
    pub literals: Vec<Literal>,
    /// Numbers rows are counted against: `HAVING COUNT(*) > 5`, `LIMIT 3`.
    pub counts: Vec<i64>,
    /// Columns compared with each other (`a.x = b.y`, `x IN (SELECT y ...)`, `USING`).
    pub links: Vec<(ColumnKey, ColumnKey)>,
    pub grouped: Vec<ColumnKey>,
    pub ordered: Vec<ColumnKey>,
    /// Columns tested with `IS NULL` / `IS NOT NULL`: the queries care about their NULLs.
    pub null_tested: Vec<ColumnKey>,
    /// Join keys: columns of two tables compared for equality (`ON a.x = b.y`, `x IN (SELECT
    /// y ...)`, `USING`).
    pub joins: Vec<(ColumnKey, ColumnKey)>,
    /// Columns compared with another plus or minus a number, `(a, b, k)` for `a = b + k`
    /// (`d.budget = t.year + 4`): rows meet where the two are `k` apart.
    pub shifted: Vec<(ColumnKey, ColumnKey, f64)>,
    /// Columns cast to an integer type (`CAST(x AS INT)`): a cast that changes nothing when the
    /// column holds whole numbers, which the queries cannot show.
    pub cast_to_integer: Vec<ColumnKey>,
    /// The tables the queries read (lowercased): of a written schema's, the ones worth editing.
    pub tables: Vec<String>,
}

/// A schema inferred from two queries, with the hints and what the inference had to guess.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Inference {
    pub schema: Schema,
    pub hints: Hints,
    pub notes: Vec<String>,
    /// Columns added to tables a query reads with `*` (`(table, column)`): the queries name no
    /// such column, and without it `SELECT *` and `SELECT a` would agree only because the
    /// inferred table has nothing else. Dropping one is the assumption "`t` has no other
    /// columns".
    pub unnamed_columns: Vec<(String, String)>,
}

/// The name of the column added to a table read with `*` (see [`Inference::unnamed_columns`]).
pub(crate) const UNNAMED_COLUMN: &str = "other_column";

/// Infers the tables and typed columns the two queries read. CTE and derived-table names are
/// not tables. Queries that read no table at all (`SELECT 1`, `VALUES (1, 2)`) get a schema of
/// no tables: every database is the same empty one, and it decides.
pub fn infer_schema(expected: &[Statement], generated: &[Statement]) -> Result<Inference, String> {
    let (expected_names, generated_names) = (Scopes::of(expected), Scopes::of(generated));
    let mut walker = Walker::new(Catalog::Open(Vec::new()));
    // Two passes: the first learns which table has which column from qualified references (and
    // single-table queries), so the second can place unqualified columns in multi-table queries.
    walker.learning = true;
    walker.statements(expected, &expected_names)?;
    walker.statements(generated, &generated_names)?;
    walker.learning = false;
    walker.statements(expected, &expected_names)?;
    walker.statements(generated, &generated_names)?;
    let Catalog::Open(tables) = &walker.catalog else {
        return Err("internal: the catalog is fixed".into());
    };
    if tables.is_empty() {
        return Ok(Inference {
            schema: Schema::default(),
            hints: walker.hints,
            notes: vec!["the queries read no table: they are run on a database with none".into()],
            unnamed_columns: Vec::new(),
        });
    }
    let types = walker.types();
    let mut unnamed_columns = Vec::new();
    let schema = Schema {
        tables: tables
            .iter()
            .enumerate()
            .map(|(index, t)| {
                let mut table = SchemaTable::new(&t.name);
                table.columns = t
                    .columns
                    .iter()
                    .map(|c| SchemaColumn {
                        name: c.clone(),
                        kind: types
                            .get(&(t.name.to_lowercase(), c.to_lowercase()))
                            .copied()
                            .unwrap_or_else(|| type_from_name(c)),
                        not_null: false,
                    })
                    .collect();
                if walker.starred.contains(&index) && table.column_index(UNNAMED_COLUMN).is_none() {
                    table.columns.push(SchemaColumn {
                        name: UNNAMED_COLUMN.into(),
                        kind: ColumnType::Integer,
                        not_null: false,
                    });
                    unnamed_columns.push((table.name.clone(), UNNAMED_COLUMN.to_string()));
                } else if table.columns.is_empty() {
                    // `SELECT COUNT(*) FROM t` names no column; SQLite needs one.
                    table.columns.push(SchemaColumn {
                        name: "id".into(),
                        kind: ColumnType::Integer,
                        not_null: false,
                    });
                }
                table
            })
            .collect(),
    };
    let mut notes = walker.notes;
    for (table, _) in &unnamed_columns {
        notes.push(format!(
            "`{table}` is read with `*`: it is given a column the queries do not name ({UNNAMED_COLUMN}), so `*` does not stand for the named columns only"
        ));
    }
    Ok(Inference {
        schema,
        hints: walker.hints,
        notes,
        unnamed_columns,
    })
}

/// The hints of two queries over a given schema (loaded from a database, or written by the user).
pub fn hints_for_schema(schema: &Schema, expected: &[Statement], generated: &[Statement]) -> Hints {
    let tables = schema
        .tables
        .iter()
        .map(|t| OpenTable {
            name: t.name.clone(),
            columns: t.columns.iter().map(|c| c.name.clone()).collect(),
        })
        .collect();
    let (expected_names, generated_names) = (Scopes::of(expected), Scopes::of(generated));
    let mut walker = Walker::new(Catalog::Fixed(tables));
    let _ = walker.statements(expected, &expected_names);
    let _ = walker.statements(generated, &generated_names);
    walker.hints
}

/// The type a column's name suggests, when nothing in the queries does.
fn type_from_name(name: &str) -> ColumnType {
    let lower = name.to_ascii_lowercase();
    let numeric = [
        "id",
        "age",
        "count",
        "num",
        "year",
        "price",
        "amount",
        "total",
        "salary",
        "score",
        "rank",
        "quantity",
        "qty",
        "size",
        "weight",
        "height",
        "population",
        "capacity",
        "budget",
        "cost",
        "rating",
        "stars",
        "points",
        "credit",
        "level",
        "grade",
        "number",
    ];
    if lower.ends_with("date") || lower.ends_with("_at") || lower == "time" {
        ColumnType::Date
    } else if numeric.iter().any(|w| {
        lower == *w || lower.ends_with(&format!("_{w}")) || lower.starts_with(&format!("{w}_"))
    }) {
        ColumnType::Integer
    } else {
        ColumnType::Text
    }
}

/// How deep the walk goes before it gives up on a query (the parser admits left-deep operator
/// chains far deeper than any real query; a recursive walk must not follow them to the end).
const MAX_DEPTH: usize = 400;

struct OpenTable {
    name: String,
    columns: Vec<String>,
}

enum Catalog {
    /// Inference: tables and columns are added as the queries name them.
    Open(Vec<OpenTable>),
    /// A given schema: names resolve to it or to nothing.
    Fixed(Vec<OpenTable>),
}

impl Catalog {
    fn tables(&self) -> &[OpenTable] {
        match self {
            Catalog::Open(t) | Catalog::Fixed(t) => t,
        }
    }

    fn has_column(&self, table: usize, column: &str) -> bool {
        self.tables()
            .get(table)
            .is_some_and(|t| t.columns.iter().any(|c| c.eq_ignore_ascii_case(column)))
    }
}

/// A column set a derived table or CTE exposes, and the base tables it reads.
#[derive(Clone, Default)]
struct Derived {
    /// `None` when it selects `*` (its columns are its sources' columns).
    columns: Option<Vec<String>>,
    /// The base column each output column passes through, when it is one (`home_id AS club`).
    origins: Vec<Option<(usize, String)>>,
    /// The base columns each output column is computed from (`SUM(sal) AS total` reads `sal`).
    reads: Vec<Vec<(usize, String)>>,
    sources: Vec<usize>,
}

impl Derived {
    /// A reference to one of its named columns: the base column behind it, if any. `None`
    /// when it has no column of that name.
    fn origin(&self, column: &str) -> Option<Option<(usize, String)>> {
        let index = self
            .columns
            .as_ref()?
            .iter()
            .position(|c| c.eq_ignore_ascii_case(column))?;
        Some(self.origins.get(index).cloned().flatten())
    }

    /// The base columns its column `column` is computed from.
    fn reads_of(&self, column: &str) -> Vec<(usize, String)> {
        self.columns
            .as_ref()
            .and_then(|columns| columns.iter().position(|c| c.eq_ignore_ascii_case(column)))
            .and_then(|index| self.reads.get(index).cloned())
            .unwrap_or_default()
    }
}

#[derive(Clone)]
enum TableShape {
    Base(usize),
    Derived(Derived),
}

struct BoundTable {
    /// The alias, or the table's own name (lowercased).
    name: String,
    source: TableShape,
}

#[derive(Default)]
struct SelectBindings {
    bindings: Vec<BoundTable>,
    output_aliases: Vec<String>,
}

/// What an expression is, as far as typing its neighbours goes.
#[derive(Clone)]
enum ExprType {
    Column(usize, String),
    Literal(Literal),
    Count,
    /// `SUM`/`AVG`/`MIN`/`MAX` of a column: compared values say something about the column.
    Aggregate(Option<(usize, String)>),
    /// `column <op> number` (`distance / 100`): a number compared with it says which column
    /// values sit at the boundary.
    Scaled((usize, String), char, f64),
    Other,
}

#[derive(Default, Clone, Copy)]
struct Votes {
    text: u32,
    integer: u32,
    real: u32,
    date: u32,
}

struct Walker<'a> {
    catalog: Catalog,
    learning: bool,
    scopes: Vec<SelectBindings>,
    /// What each name of the statements being walked means (`sql::scope`), and the block of the
    /// query being walked.
    names: Option<&'a Scopes>,
    block: Option<BlockId>,
    /// Each CTE's shape once its body is walked, by its block and position (`sql::scope`).
    ctes: HashMap<(BlockId, usize), Derived>,
    votes: BTreeMap<ColumnKey, Votes>,
    hints: Hints,
    notes: Vec<String>,
    depth: usize,
    /// Base tables (catalog indices) a query reads with `*` or `t.*`.
    starred: Vec<usize>,
    /// The base columns read by the expressions being walked, one list per expression that
    /// asks (an output column, an integer cast's operand), innermost last.
    reading: Vec<Vec<(usize, String)>>,
}

impl<'a> Walker<'a> {
    fn new(catalog: Catalog) -> Walker<'a> {
        Walker {
            catalog,
            learning: false,
            scopes: Vec::new(),
            names: None,
            block: None,
            ctes: HashMap::new(),
            votes: BTreeMap::new(),
            hints: Hints::default(),
            notes: Vec::new(),
            depth: 0,
            starred: Vec::new(),
            reading: Vec::new(),
        }
    }

    /// Walks `expr` and gives, besides its type, the base columns it reads, through derived
    /// tables' and CTEs' computed columns too.
    fn expr_reading(&mut self, expr: &Expr) -> Result<(ExprType, Vec<(usize, String)>), String> {
        self.reading.push(Vec::new());
        let operand = self.expr(expr);
        let read = self.reading.pop().unwrap_or_default();
        Ok((operand?, read))
    }

    /// Notes that the expressions being walked read `columns`.
    fn read(&mut self, columns: &[(usize, String)]) {
        for list in &mut self.reading {
            for column in columns {
                if !list.contains(column) {
                    list.push(column.clone());
                }
            }
        }
    }

    fn statements(&mut self, statements: &[Statement], names: &'a Scopes) -> Result<(), String> {
        self.names = Some(names);
        self.ctes.clear();
        for statement in statements {
            if let Statement::Query(query) = statement {
                self.depth = 0;
                self.query(query)?;
            }
        }
        Ok(())
    }

    fn enter(&mut self) -> Result<(), String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(format!(
                "the query nests deeper than {MAX_DEPTH} levels; its schema cannot be inferred"
            ));
        }
        Ok(())
    }

    fn key(&self, table: usize, column: &str) -> ColumnKey {
        let name = self
            .catalog
            .tables()
            .get(table)
            .map(|t| t.name.to_lowercase())
            .unwrap_or_default();
        (name, column.to_lowercase())
    }

    /// The table's index, adding it in inference.
    fn table(&mut self, name: &str) -> Option<usize> {
        if !self.learning
            && !self
                .hints
                .tables
                .iter()
                .any(|t| t.eq_ignore_ascii_case(name))
        {
            self.hints.tables.push(name.to_lowercase());
        }
        if let Some(i) = self
            .catalog
            .tables()
            .iter()
            .position(|t| t.name.eq_ignore_ascii_case(name))
        {
            return Some(i);
        }
        match &mut self.catalog {
            Catalog::Open(tables) => {
                tables.push(OpenTable {
                    name: name.to_string(),
                    columns: Vec::new(),
                });
                Some(tables.len() - 1)
            }
            Catalog::Fixed(_) => None,
        }
    }

    /// Records that `table` has `column` (in inference), and returns the resolved column.
    fn column(&mut self, table: usize, column: &str) -> Option<(usize, String)> {
        if self.catalog.has_column(table, column) {
            return Some((table, column.to_lowercase()));
        }
        match &mut self.catalog {
            Catalog::Open(tables) => {
                tables.get_mut(table)?.columns.push(column.to_string());
                Some((table, column.to_lowercase()))
            }
            Catalog::Fixed(_) => None,
        }
    }

    /// The shape of the CTE a one-part name means in the query being walked, if it means one.
    fn cte(&self, name: &str) -> Option<Derived> {
        let found = self.names?.cte(self.block?, name)?;
        self.ctes.get(&found).cloned()
    }

    fn query(&mut self, query: &Query) -> Result<(Vec<ExprType>, Derived), String> {
        self.enter()?;
        let outer = self.block;
        self.block = self.names.and_then(|names| names.block_of(query));
        if let (Some(with), Some(block)) = (&query.with, self.block) {
            for (index, cte) in with.cte_tables.iter().enumerate() {
                // A recursive CTE reads itself: known (columns from its alias list, if any)
                // before its body is walked.
                let listed: Vec<String> = cte
                    .alias
                    .columns
                    .iter()
                    .map(|c| c.name.value.to_lowercase())
                    .collect();
                let placeholder = Derived {
                    columns: (!listed.is_empty()).then(|| listed.clone()),
                    origins: Vec::new(),
                    reads: Vec::new(),
                    sources: Vec::new(),
                };
                self.ctes.insert((block, index), placeholder);
                let (_, mut derived) = self.query(&cte.query)?;
                if !listed.is_empty() {
                    derived.columns = Some(listed);
                }
                self.ctes.insert((block, index), derived);
            }
        }
        let order = query.order_by.as_ref().and_then(|o| match &o.kind {
            OrderByKind::Expressions(items) => {
                Some(items.iter().map(|i| &i.expr).collect::<Vec<_>>())
            }
            OrderByKind::All(_) => None,
        });
        let shape = self.set_expr(&query.body, order.as_deref().unwrap_or(&[]))?;
        match &query.limit_clause {
            Some(LimitClause::LimitOffset { limit, offset, .. }) => {
                for e in limit.iter().chain(offset.iter().map(|o| &o.value)) {
                    self.count_literal(e);
                }
            }
            Some(LimitClause::OffsetCommaLimit { offset, limit }) => {
                self.count_literal(offset);
                self.count_literal(limit);
            }
            None => {}
        }
        self.block = outer;
        self.depth -= 1;
        Ok(shape)
    }

    /// Notes the base tables a `*` (or `name.*`) in the innermost scope reads, through derived
    /// tables too.
    fn star(&mut self, name: Option<&str>) {
        let Some(scope) = self.scopes.last() else {
            return;
        };
        let tables: Vec<usize> = scope
            .bindings
            .iter()
            .filter(|b| name.is_none_or(|n| b.name == n))
            .flat_map(|b| match &b.source {
                TableShape::Base(t) => vec![*t],
                TableShape::Derived(d) => d.sources.clone(),
            })
            .collect();
        for t in tables {
            if !self.starred.contains(&t) {
                self.starred.push(t);
            }
        }
    }

    fn count_literal(&mut self, expr: &Expr) {
        if let Expr::Value(v) = expr
            && let Value::Number(n, _) = &v.value
            && let Ok(n) = n.parse::<i64>()
            && !self.learning
        {
            self.hints.counts.push(n);
        }
    }

    fn set_expr(
        &mut self,
        body: &SetExpr,
        order: &[&Expr],
    ) -> Result<(Vec<ExprType>, Derived), String> {
        self.enter()?;
        let shape = match body {
            SetExpr::Select(select) => self.select(select, order)?,
            SetExpr::Query(query) => {
                let shape = self.query(query)?;
                self.order_literals(order)?;
                shape
            }
            SetExpr::SetOperation { left, right, .. } => {
                let (left_ops, derived) = self.set_expr(left, &[])?;
                let (right_ops, _) = self.set_expr(right, &[])?;
                // Columns in the same position of a UNION hold the same kind of value.
                if !self.learning {
                    for (a, b) in left_ops.iter().zip(&right_ops) {
                        self.relate(a, b);
                    }
                }
                // ORDER BY after a set operation names its output columns, not tables.
                self.order_literals(order)?;
                (left_ops, derived)
            }
            SetExpr::Values(values) => {
                for row in &values.rows {
                    for e in &row.content {
                        self.expr(e)?;
                    }
                }
                (Vec::new(), Derived::default())
            }
            _ => (Vec::new(), Derived::default()),
        };
        self.depth -= 1;
        Ok(shape)
    }

    fn order_literals(&mut self, order: &[&Expr]) -> Result<(), String> {
        self.scopes.push(SelectBindings::default());
        for e in order {
            self.expr(e)?;
        }
        self.scopes.pop();
        Ok(())
    }

    fn select(
        &mut self,
        select: &Select,
        order: &[&Expr],
    ) -> Result<(Vec<ExprType>, Derived), String> {
        let mut scope = SelectBindings::default();
        for item in &select.projection {
            if let SelectItem::ExprWithAlias { alias, .. } = item {
                scope.output_aliases.push(alias.value.to_lowercase());
            }
        }
        self.scopes.push(scope);
        let result = self.select_in_scope(select, order);
        self.scopes.pop();
        result
    }

    fn select_in_scope(
        &mut self,
        select: &Select,
        order: &[&Expr],
    ) -> Result<(Vec<ExprType>, Derived), String> {
        for from in &select.from {
            self.factor(&from.relation)?;
            for join in &from.joins {
                self.factor(&join.relation)?;
                if let Some(constraint) = join_constraint(&join.join_operator) {
                    match constraint {
                        JoinConstraint::On(on) => {
                            self.expr(on)?;
                        }
                        JoinConstraint::Using(names) => self.using(names),
                        _ => {}
                    }
                }
            }
        }
        if let Some(top) = &select.top
            && let Some(TopQuantity::Constant(n)) = &top.quantity
            && !self.learning
        {
            self.hints
                .counts
                .push(i64::try_from(*n).unwrap_or(i64::MAX));
        }
        let mut operands = Vec::new();
        let mut reads = Vec::new();
        let mut names = Some(Vec::new());
        // An output alias names nothing inside the select list itself: `SELECT name AS name`
        // and `SELECT deptno + 1 AS deptno` read the table's column.
        let aliases = self
            .scopes
            .last_mut()
            .map(|scope| std::mem::take(&mut scope.output_aliases));
        for item in &select.projection {
            match item {
                SelectItem::UnnamedExpr(e) => {
                    let (op, read) = self.expr_reading(e)?;
                    if let Some(names) = &mut names {
                        names.push(output_name(e));
                    }
                    operands.push(op);
                    reads.push(read);
                }
                SelectItem::ExprWithAlias { expr, alias } => {
                    let (op, read) = self.expr_reading(expr)?;
                    operands.push(op);
                    reads.push(read);
                    if let Some(names) = &mut names {
                        names.push(alias.value.to_lowercase());
                    }
                }
                SelectItem::Wildcard(_) => {
                    self.star(None);
                    names = None;
                }
                SelectItem::QualifiedWildcard(kind, _) => {
                    if let SelectItemQualifiedWildcardKind::ObjectName(name) = kind
                        && let Some(table) = last_part(name)
                    {
                        self.star(Some(&table.to_lowercase()));
                    }
                    names = None;
                }
                _ => names = None,
            }
        }
        if let (Some(scope), Some(aliases)) = (self.scopes.last_mut(), aliases) {
            scope.output_aliases = aliases;
        }
        if let Some(selection) = &select.selection {
            self.expr(selection)?;
        }
        if let GroupByExpr::Expressions(exprs, _) = &select.group_by {
            for e in exprs {
                if let ExprType::Column(t, c) = self.expr(e)?
                    && !self.learning
                {
                    let key = self.key(t, &c);
                    self.hints.grouped.push(key);
                }
            }
        }
        if let Some(having) = &select.having {
            self.expr(having)?;
        }
        for e in order {
            if let ExprType::Column(t, c) = self.expr(e)?
                && !self.learning
            {
                let key = self.key(t, &c);
                self.hints.ordered.push(key);
            }
        }
        let sources = self
            .scopes
            .last()
            .map(|s| {
                s.bindings
                    .iter()
                    .flat_map(|b| match &b.source {
                        TableShape::Base(t) => vec![*t],
                        TableShape::Derived(d) => d.sources.clone(),
                    })
                    .collect()
            })
            .unwrap_or_default();
        let origins = operands
            .iter()
            .map(|op| match op {
                ExprType::Column(t, c) => Some((*t, c.clone())),
                _ => None,
            })
            .collect();
        Ok((
            operands,
            Derived {
                columns: names,
                origins,
                reads,
                sources,
            },
        ))
    }

    fn bind(&mut self, name: String, source: TableShape) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.bindings.push(BoundTable { name, source });
        }
    }

    fn factor(&mut self, factor: &TableFactor) -> Result<(), String> {
        match factor {
            TableFactor::Table {
                name,
                alias,
                args: None,
                ..
            } => {
                let Some(written) = last_part(name) else {
                    return Ok(());
                };
                let binding = alias
                    .as_ref()
                    .map_or_else(|| written.to_lowercase(), |a| a.name.value.to_lowercase());
                // A one-part name that a CTE in scope defines is that CTE, not a table.
                if name.0.len() == 1
                    && let Some(derived) = self.cte(&written)
                {
                    self.bind(binding, TableShape::Derived(derived));
                } else if let Some(table) = self.table(&written) {
                    self.bind(binding, TableShape::Base(table));
                }
            }
            TableFactor::Derived {
                subquery, alias, ..
            } => {
                // A derived table does not see the FROM it sits in (unless LATERAL, rare enough
                // to treat the same way).
                let saved = std::mem::take(&mut self.scopes);
                let result = self.query(subquery);
                self.scopes = saved;
                let (_, mut derived) = result?;
                if let Some(alias) = alias {
                    if !alias.columns.is_empty() {
                        derived.columns = Some(
                            alias
                                .columns
                                .iter()
                                .map(|c| c.name.value.to_lowercase())
                                .collect(),
                        );
                    }
                    self.bind(
                        alias.name.value.to_lowercase(),
                        TableShape::Derived(derived),
                    );
                } else {
                    self.bind(String::new(), TableShape::Derived(derived));
                }
            }
            TableFactor::NestedJoin {
                table_with_joins, ..
            } => {
                self.factor(&table_with_joins.relation)?;
                for join in &table_with_joins.joins {
                    self.factor(&join.relation)?;
                    if let Some(JoinConstraint::On(on)) = join_constraint(&join.join_operator) {
                        self.expr(on)?;
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// `JOIN b USING (c)`: `c` is a column of the table just joined and of one before it.
    fn using(&mut self, names: &[ObjectName]) {
        let bases: Vec<usize> = self
            .scopes
            .last()
            .map(|s| {
                s.bindings
                    .iter()
                    .filter_map(|b| match &b.source {
                        TableShape::Base(t) => Some(*t),
                        TableShape::Derived(_) => None,
                    })
                    .collect()
            })
            .unwrap_or_default();
        let Some((&right, left)) = bases.split_last() else {
            return;
        };
        for name in names {
            let Some(column) = last_part(name) else {
                continue;
            };
            let left_table = left
                .iter()
                .rev()
                .find(|t| self.catalog.has_column(**t, &column))
                .or_else(|| left.last())
                .copied();
            let r = self.column(right, &column);
            let l = left_table.and_then(|t| self.column(t, &column));
            if let (Some(r), Some(l), false) = (r, l, self.learning) {
                let (r, l) = (ExprType::Column(r.0, r.1), ExprType::Column(l.0, l.1));
                self.relate(&r, &l);
                self.join(&r, &l);
            }
        }
    }

    /// `q.c`: through the alias or table `q` in the innermost scope that has it.
    fn qualified(&mut self, qualifier: &str, column: &str) -> Option<(usize, String)> {
        let qualifier = qualifier.to_lowercase();
        let found = self.scopes.iter().rev().find_map(|scope| {
            scope
                .bindings
                .iter()
                .find(|b| b.name == qualifier)
                .map(|b| b.source.clone())
        });
        match found? {
            TableShape::Base(table) => self.column(table, column),
            TableShape::Derived(derived) => match &derived.columns {
                Some(_) if derived.origin(column).is_some() => {
                    let origin = derived.origin(column).flatten();
                    if origin.is_none() {
                        self.read(&derived.reads_of(column));
                    }
                    origin
                }
                // `SELECT *` from a base table passes that table's columns through.
                _ => {
                    let source = derived
                        .sources
                        .iter()
                        .find(|t| self.catalog.has_column(**t, column))
                        .or(derived.sources.first())
                        .copied()?;
                    if derived.columns.is_some() {
                        return None;
                    }
                    self.column(source, column)
                }
            },
        }
    }

    /// An unqualified column: the innermost scope with a table known to have it; else, when no
    /// table is known to have it, a table of the innermost scope by a fixed rule.
    fn unqualified(&mut self, column: &str) -> Option<(usize, String)> {
        let lower = column.to_lowercase();
        for scope in self.scopes.iter().rev() {
            let mut known = Vec::new();
            for binding in &scope.bindings {
                match &binding.source {
                    TableShape::Base(t) if self.catalog.has_column(*t, column) => known.push(*t),
                    TableShape::Derived(d) => {
                        if let Some(origin) = d.origin(&lower) {
                            let reads = match origin {
                                None => d.reads_of(&lower),
                                Some(_) => Vec::new(),
                            };
                            self.read(&reads);
                            return origin;
                        }
                        if d.columns.is_none()
                            && let Some(t) = d
                                .sources
                                .iter()
                                .find(|t| self.catalog.has_column(**t, column))
                        {
                            known.push(*t);
                        }
                    }
                    TableShape::Base(_) => {}
                }
            }
            if let Some(&first) = known.first() {
                return Some((first, lower));
            }
            if scope.output_aliases.contains(&lower) {
                return None;
            }
            // In inference an unknown name belongs to the innermost query that reads a table:
            // `x IN (SELECT id FROM t)` reads `t.id`, even when the outer table has an `id` too
            // (a correlated reference is almost always qualified).
            let could_own = scope.bindings.iter().any(|b| match &b.source {
                TableShape::Base(_) => true,
                TableShape::Derived(d) => d.columns.is_none(),
            });
            if could_own && matches!(self.catalog, Catalog::Open(_)) {
                break;
            }
        }
        // Nothing knows the column: place it in the innermost scope that reads a table.
        let candidates: Vec<usize> = self
            .scopes
            .iter()
            .rev()
            .map(|scope| {
                scope
                    .bindings
                    .iter()
                    .flat_map(|b| match &b.source {
                        TableShape::Base(t) => vec![*t],
                        TableShape::Derived(d) if d.columns.is_none() => d.sources.clone(),
                        TableShape::Derived(_) => Vec::new(),
                    })
                    .collect::<Vec<_>>()
            })
            .find(|c| !c.is_empty())?;
        if self.learning && candidates.len() > 1 {
            // Wait until every qualified reference of both queries has been seen.
            return None;
        }
        let names: Vec<String> = candidates
            .iter()
            .filter_map(|t| self.catalog.tables().get(*t).map(|t| t.name.clone()))
            .collect();
        // A column named after a table (`singer_name`, `singer_id`) is that table's.
        let chosen = candidates
            .iter()
            .zip(&names)
            .find(|(_, n)| {
                let n = n.to_lowercase();
                let stem = n.trim_end_matches('s');
                lower.starts_with(&format!("{stem}_"))
                    || lower.starts_with(stem) && lower.len() > stem.len()
            })
            .map(|(t, _)| *t)
            .unwrap_or(candidates[0]);
        let resolved = self.column(chosen, column)?;
        if candidates.len() > 1 && matches!(self.catalog, Catalog::Open(_)) {
            let table = self.catalog.tables()[chosen].name.clone();
            let note = format!(
                "column `{column}` could belong to {}: placed in `{table}`",
                names
                    .iter()
                    .map(|n| format!("`{n}`"))
                    .collect::<Vec<_>>()
                    .join(" or ")
            );
            if !self.notes.contains(&note) {
                self.notes.push(note);
            }
        }
        Some(resolved)
    }

    fn vote(&mut self, operand: &ExprType, kind: ColumnType) {
        if self.learning {
            return;
        }
        let column = match operand {
            ExprType::Column(t, c) | ExprType::Aggregate(Some((t, c))) => (*t, c.clone()),
            _ => return,
        };
        let key = self.key(column.0, &column.1);
        let votes = self.votes.entry(key).or_default();
        match kind {
            ColumnType::Text => votes.text += 1,
            ColumnType::Integer => votes.integer += 1,
            ColumnType::Real => votes.real += 1,
            ColumnType::Date => votes.date += 1,
        }
    }

    fn literal_type(literal: &Literal) -> ColumnType {
        match literal {
            Literal::Number(n) if n.contains(['.', 'e', 'E']) => ColumnType::Real,
            Literal::Number(_) => ColumnType::Integer,
            Literal::Text(t) if looks_like_date(t) => ColumnType::Date,
            Literal::Text(_) => ColumnType::Text,
        }
    }

    /// Two operands compared with each other.
    /// Two columns of different tables compared for equality: a join key.
    fn join(&mut self, a: &ExprType, b: &ExprType) {
        if self.learning {
            return;
        }
        if let (ExprType::Column(t1, c1), ExprType::Column(t2, c2)) = (a, b)
            && t1 != t2
        {
            let pair = (self.key(*t1, c1), self.key(*t2, c2));
            self.hints.joins.push(pair);
        }
    }

    fn relate(&mut self, a: &ExprType, b: &ExprType) {
        if self.learning {
            return;
        }
        match (a, b) {
            (
                ExprType::Column(t1, c1) | ExprType::Aggregate(Some((t1, c1))),
                ExprType::Column(t2, c2) | ExprType::Aggregate(Some((t2, c2))),
            ) => {
                let (k1, k2) = (self.key(*t1, c1), self.key(*t2, c2));
                if k1 != k2 {
                    self.hints.links.push((k1, k2));
                }
            }
            (
                column @ (ExprType::Column(t, c) | ExprType::Aggregate(Some((t, c)))),
                ExprType::Literal(l),
            )
            | (
                ExprType::Literal(l),
                column @ (ExprType::Column(t, c) | ExprType::Aggregate(Some((t, c)))),
            ) => {
                let kind = Self::literal_type(l);
                // A SUM compared with a text literal says nothing about the column.
                if matches!(column, ExprType::Column(..)) || kind.is_numeric() {
                    self.vote(column, kind);
                }
                let key = self.key(*t, c);
                self.hints.values.entry(key).or_default().push(l.clone());
            }
            (
                column @ ExprType::Column(t1, c1),
                ExprType::Scaled((t2, c2), op @ ('+' | '-'), by),
            )
            | (
                ExprType::Scaled((t2, c2), op @ ('+' | '-'), by),
                column @ ExprType::Column(t1, c1),
            ) => {
                // Compared with a number it is one.
                self.vote(column, ColumnType::Integer);
                let (k1, k2) = (self.key(*t1, c1), self.key(*t2, c2));
                let by = if *op == '+' { *by } else { -*by };
                if k1 != k2 && by.is_finite() {
                    self.hints.shifted.push((k1, k2, by));
                }
            }
            (ExprType::Scaled((t, c), op, by), ExprType::Literal(Literal::Number(n)))
            | (ExprType::Literal(Literal::Number(n)), ExprType::Scaled((t, c), op, by)) => {
                let Ok(b) = n.parse::<f64>() else { return };
                let by = *by;
                // The column values that put `column <op> by` at, just past and just short of b.
                let at: Vec<f64> = match op {
                    '/' => vec![b * by, b * by + (by / 2.0).floor(), (b + 1.0) * by - 1.0],
                    '*' if by != 0.0 => vec![b / by, (b / by).floor(), (b / by).ceil()],
                    '+' => vec![b - by],
                    '-' => vec![b + by],
                    _ => vec![b, b + by],
                };
                let key = self.key(*t, c);
                let values = self.hints.values.entry(key).or_default();
                for x in at.into_iter().filter(|x| x.is_finite()) {
                    let text = if x.fract() == 0.0 && x.abs() < 1e15 {
                        format!("{}", x as i64)
                    } else {
                        format!("{x}")
                    };
                    values.push(Literal::Number(text));
                }
            }
            (column @ ExprType::Column(t, c), ExprType::Count)
            | (ExprType::Count, column @ ExprType::Column(t, c)) => {
                // `qoh = (SELECT COUNT(*) ...)`: a count, often of nothing; the column holds
                // whole numbers, 0 among them.
                self.vote(column, ColumnType::Integer);
                let key = self.key(*t, c);
                let values = self.hints.values.entry(key).or_default();
                values.extend(["0", "1", "2"].map(|n| Literal::Number(n.to_string())));
            }
            (ExprType::Count, ExprType::Literal(Literal::Number(n)))
            | (ExprType::Literal(Literal::Number(n)), ExprType::Count) => {
                if let Ok(n) = n.parse::<f64>() {
                    self.hints.counts.push(n.round() as i64);
                }
            }
            _ => {}
        }
    }

    fn resolve(&mut self, expr: &Expr) -> Option<(usize, String)> {
        match expr {
            Expr::Identifier(ident) => {
                if self.learning
                    && self.scopes.last().is_some_and(|s| {
                        s.bindings.len() != 1
                            || !matches!(s.bindings[0].source, TableShape::Base(_))
                    })
                {
                    // In the learning pass an unqualified name is placed only when one table
                    // could own it.
                    let lower = ident.value.to_lowercase();
                    let known = self.scopes.iter().any(|s| {
                        s.bindings.iter().any(|b| matches!(b.source, TableShape::Base(t) if self.catalog.has_column(t, &lower)))
                    });
                    if !known {
                        return None;
                    }
                }
                self.unqualified(&ident.value)
            }
            Expr::CompoundIdentifier(parts) if parts.len() >= 2 => {
                let column = &parts[parts.len() - 1].value;
                let qualifier = &parts[parts.len() - 2].value;
                self.qualified(qualifier, column)
            }
            _ => None,
        }
    }

    fn expr(&mut self, expr: &Expr) -> Result<ExprType, String> {
        self.enter()?;
        let operand = self.expr_inner(expr);
        self.depth -= 1;
        operand
    }

    fn expr_inner(&mut self, expr: &Expr) -> Result<ExprType, String> {
        Ok(match expr {
            Expr::Identifier(_) | Expr::CompoundIdentifier(_) => match self.resolve(expr) {
                Some((t, c)) => {
                    self.read(&[(t, c.clone())]);
                    ExprType::Column(t, c)
                }
                // SQLite reads a double-quoted name that names no column as a string (Spider's
                // gold writes `genre = "scifi"`): the value the generator must seed.
                None => match expr {
                    Expr::Identifier(ident) if ident.quote_style == Some('"') => {
                        self.literal(Literal::Text(ident.value.clone()))
                    }
                    _ => ExprType::Other,
                },
            },
            Expr::Value(v) => match &v.value {
                Value::Number(n, _) => self.literal(Literal::Number(n.clone())),
                Value::SingleQuotedString(s)
                | Value::DoubleQuotedString(s)
                | Value::NationalStringLiteral(s) => self.literal(Literal::Text(s.clone())),
                Value::Boolean(b) => ExprType::Literal(Literal::Number(u8::from(*b).to_string())),
                _ => ExprType::Other,
            },
            Expr::UnaryOp { op, expr } => {
                let inner = self.expr(expr)?;
                match (op, inner) {
                    (UnaryOperator::Minus, ExprType::Literal(Literal::Number(n))) => {
                        self.literal(Literal::Number(format!("-{n}")))
                    }
                    (UnaryOperator::Minus | UnaryOperator::Plus, column @ ExprType::Column(..)) => {
                        self.vote(&column, ColumnType::Integer);
                        ExprType::Other
                    }
                    _ => ExprType::Other,
                }
            }
            Expr::Nested(inner) => self.expr(inner)?,
            Expr::BinaryOp { left, op, right } => {
                let l = self.expr(left)?;
                let r = self.expr(right)?;
                match op {
                    BinaryOperator::Eq
                    | BinaryOperator::NotEq
                    | BinaryOperator::Lt
                    | BinaryOperator::LtEq
                    | BinaryOperator::Gt
                    | BinaryOperator::GtEq
                    | BinaryOperator::Spaceship => {
                        self.relate(&l, &r);
                        if matches!(op, BinaryOperator::Eq) {
                            self.join(&l, &r);
                        }
                        ExprType::Other
                    }
                    BinaryOperator::Plus
                    | BinaryOperator::Minus
                    | BinaryOperator::Multiply
                    | BinaryOperator::Divide
                    | BinaryOperator::Modulo => {
                        // Arithmetic says a column is a number, not which kind: `age / 2.0`
                        // is how integer ages are divided without truncation.
                        self.vote(&l, ColumnType::Integer);
                        self.vote(&r, ColumnType::Integer);
                        let sign = match op {
                            BinaryOperator::Plus => '+',
                            BinaryOperator::Minus => '-',
                            BinaryOperator::Multiply => '*',
                            BinaryOperator::Divide => '/',
                            _ => '%',
                        };
                        match (&l, &r) {
                            (ExprType::Column(t, c), ExprType::Literal(Literal::Number(n))) => {
                                n.parse::<f64>().map_or(ExprType::Other, |n| {
                                    ExprType::Scaled((*t, c.clone()), sign, n)
                                })
                            }
                            _ => ExprType::Other,
                        }
                    }
                    BinaryOperator::StringConcat => {
                        self.vote(&l, ColumnType::Text);
                        self.vote(&r, ColumnType::Text);
                        ExprType::Other
                    }
                    _ => ExprType::Other,
                }
            }
            Expr::Like { expr, pattern, .. }
            | Expr::ILike { expr, pattern, .. }
            | Expr::SimilarTo { expr, pattern, .. }
            | Expr::RLike { expr, pattern, .. } => {
                let column = self.expr(expr)?;
                let pattern = self.expr(pattern)?;
                self.vote(&column, ColumnType::Text);
                if let (ExprType::Column(t, c), ExprType::Literal(Literal::Text(p)), false) =
                    (&column, &pattern, self.learning)
                {
                    let key = self.key(*t, c);
                    self.hints.patterns.entry(key).or_default().push(p.clone());
                }
                ExprType::Other
            }
            Expr::InList { expr, list, .. } => {
                let column = self.expr(expr)?;
                for item in list {
                    let item = self.expr(item)?;
                    self.relate(&column, &item);
                }
                ExprType::Other
            }
            Expr::InSubquery { expr, subquery, .. } => {
                let column = self.expr(expr)?;
                let (ops, _) = self.query(subquery)?;
                if let Some(first) = ops.first() {
                    self.relate(&column, first);
                    self.join(&column, first);
                }
                ExprType::Other
            }
            Expr::Between {
                expr, low, high, ..
            } => {
                let column = self.expr(expr)?;
                let low = self.expr(low)?;
                let high = self.expr(high)?;
                self.relate(&column, &low);
                self.relate(&column, &high);
                ExprType::Other
            }
            Expr::Subquery(query) => {
                let (ops, _) = self.query(query)?;
                ops.into_iter().next().unwrap_or(ExprType::Other)
            }
            Expr::Exists { subquery, .. } => {
                self.query(subquery)?;
                ExprType::Other
            }
            Expr::Function(function) => self.function(function)?,
            Expr::Case {
                operand,
                conditions,
                else_result,
                ..
            } => {
                let subject = match operand {
                    Some(o) => Some(self.expr(o)?),
                    None => None,
                };
                let mut result = ExprType::Other;
                for when in conditions {
                    let condition = self.expr(&when.condition)?;
                    if let Some(subject) = &subject {
                        self.relate(subject, &condition);
                    }
                    result = self.expr(&when.result)?;
                }
                if let Some(e) = else_result {
                    self.expr(e)?;
                }
                match result {
                    ExprType::Literal(_) | ExprType::Other => ExprType::Other,
                    other => other,
                }
            }
            Expr::Cast {
                expr, data_type, ..
            } => {
                // Every base column the cast's operand is computed from, as `CAST(SUM(sal) *
                // n AS INTEGER)` changes nothing when `sal` holds whole numbers.
                let (operand, read) = self.expr_reading(expr)?;
                // A column cast to a number holds numbers, or the query would not cast it.
                if numeric_type(data_type) {
                    self.vote(&operand, ColumnType::Real);
                }
                if integer_type(data_type) && !self.learning {
                    for (t, c) in read {
                        let key = self.key(t, &c);
                        if !self.hints.cast_to_integer.contains(&key) {
                            self.hints.cast_to_integer.push(key);
                        }
                    }
                }
                ExprType::Other
            }
            Expr::Collate { expr, .. } | Expr::Convert { expr, .. } => {
                self.expr(expr)?;
                ExprType::Other
            }
            Expr::Extract { expr, .. } => {
                let column = self.expr(expr)?;
                self.vote(&column, ColumnType::Date);
                ExprType::Other
            }
            Expr::IsNull(e) | Expr::IsNotNull(e) => {
                if let ExprType::Column(t, c) = self.expr(e)?
                    && !self.learning
                {
                    let key = self.key(t, &c);
                    self.hints.null_tested.push(key);
                }
                ExprType::Other
            }
            Expr::IsTrue(e)
            | Expr::IsNotTrue(e)
            | Expr::IsFalse(e)
            | Expr::IsNotFalse(e)
            | Expr::IsUnknown(e)
            | Expr::IsNotUnknown(e)
            | Expr::Ceil { expr: e, .. }
            | Expr::Floor { expr: e, .. } => {
                self.expr(e)?;
                ExprType::Other
            }
            Expr::IsDistinctFrom(a, b) | Expr::IsNotDistinctFrom(a, b) => {
                let a = self.expr(a)?;
                let b = self.expr(b)?;
                self.relate(&a, &b);
                ExprType::Other
            }
            Expr::Substring {
                expr,
                substring_from,
                substring_for,
                ..
            } => {
                let column = self.expr(expr)?;
                self.vote(&column, ColumnType::Text);
                for e in substring_from.iter().chain(substring_for.iter()) {
                    self.expr(e)?;
                }
                ExprType::Other
            }
            Expr::Trim { expr, .. } => {
                let column = self.expr(expr)?;
                self.vote(&column, ColumnType::Text);
                ExprType::Other
            }
            Expr::Position { expr, r#in } => {
                self.expr(expr)?;
                let column = self.expr(r#in)?;
                self.vote(&column, ColumnType::Text);
                ExprType::Other
            }
            Expr::Tuple(items) => {
                for e in items {
                    self.expr(e)?;
                }
                ExprType::Other
            }
            _ => ExprType::Other,
        })
    }

    fn literal(&mut self, literal: Literal) -> ExprType {
        if !self.learning && !self.hints.literals.contains(&literal) {
            self.hints.literals.push(literal.clone());
        }
        ExprType::Literal(literal)
    }

    fn function(&mut self, function: &sqlparser::ast::Function) -> Result<ExprType, String> {
        let name = last_part(&function.name)
            .unwrap_or_default()
            .to_ascii_lowercase();
        let mut args = Vec::new();
        let mut star = false;
        match &function.args {
            FunctionArguments::List(list) => {
                for arg in &list.args {
                    let arg = match arg {
                        FunctionArg::Unnamed(a)
                        | FunctionArg::Named { arg: a, .. }
                        | FunctionArg::ExprNamed { arg: a, .. } => a,
                    };
                    match arg {
                        FunctionArgExpr::Expr(e) => args.push(self.expr(e)?),
                        _ => star = true,
                    }
                }
            }
            FunctionArguments::Subquery(query) => {
                self.query(query)?;
            }
            FunctionArguments::None => {}
        }
        // Window and filter clauses name columns too (`OVER (PARTITION BY club_id ORDER BY
        // goals)`), and a partition is grouping.
        if let Some(sqlparser::ast::WindowType::WindowSpec(spec)) = &function.over {
            for e in &spec.partition_by {
                if let ExprType::Column(t, c) = self.expr(e)?
                    && !self.learning
                {
                    let key = self.key(t, &c);
                    self.hints.grouped.push(key);
                }
            }
            for item in &spec.order_by {
                if let ExprType::Column(t, c) = self.expr(&item.expr)?
                    && !self.learning
                {
                    let key = self.key(t, &c);
                    self.hints.ordered.push(key);
                }
            }
        }
        for item in &function.within_group {
            self.expr(&item.expr)?;
        }
        if let Some(filter) = &function.filter {
            self.expr(filter)?;
        }
        let first = args.first().cloned().unwrap_or(ExprType::Other);
        let column = match &first {
            ExprType::Column(t, c) => Some((*t, c.clone())),
            _ => None,
        };
        Ok(match name.as_str() {
            "count" => {
                let _ = star;
                ExprType::Count
            }
            "sum" | "avg" | "total" => {
                self.vote(&first, ColumnType::Integer);
                ExprType::Aggregate(column)
            }
            "min" | "max" if args.len() == 1 => ExprType::Aggregate(column),
            "abs" | "round" | "sqrt" | "power" | "pow" | "floor" | "ceil" | "ceiling" => {
                self.vote(&first, ColumnType::Integer);
                ExprType::Other
            }
            "length" | "upper" | "lower" | "substr" | "substring" | "trim" | "ltrim" | "rtrim"
            | "instr" | "replace" | "concat" | "left" | "right" | "len" => {
                self.vote(&first, ColumnType::Text);
                ExprType::Other
            }
            "date" | "datetime" | "julianday" | "year" | "month" | "day" | "unixepoch"
            | "date_part" | "datepart" | "date_trunc" => {
                for arg in &args {
                    self.vote(arg, ColumnType::Date);
                }
                ExprType::Other
            }
            "strftime" => {
                if let Some(arg) = args.get(1) {
                    self.vote(arg, ColumnType::Date);
                }
                ExprType::Other
            }
            "coalesce" | "ifnull" | "nullif" => {
                for pair in args.windows(2) {
                    self.relate(&pair[0], &pair[1]);
                }
                first
            }
            _ => ExprType::Other,
        })
    }

    /// The type of each column, from the evidence: compared literals, functions and operators,
    /// shared across columns compared with each other.
    fn types(&self) -> BTreeMap<ColumnKey, ColumnType> {
        let mut keys: Vec<ColumnKey> = self.votes.keys().cloned().collect();
        for (a, b) in &self.hints.links {
            keys.push(a.clone());
            keys.push(b.clone());
        }
        keys.sort();
        keys.dedup();
        let index: BTreeMap<&ColumnKey, usize> =
            keys.iter().enumerate().map(|(i, k)| (k, i)).collect();
        let mut parent: Vec<usize> = (0..keys.len()).collect();
        fn root(parent: &mut [usize], mut i: usize) -> usize {
            while parent[i] != i {
                parent[i] = parent[parent[i]];
                i = parent[i];
            }
            i
        }
        for (a, b) in &self.hints.links {
            let (a, b) = (root(&mut parent, index[a]), root(&mut parent, index[b]));
            parent[a.max(b)] = a.min(b);
        }
        let mut class_votes: BTreeMap<usize, Votes> = BTreeMap::new();
        for (key, v) in &self.votes {
            let r = root(&mut parent, index[key]);
            let total = class_votes.entry(r).or_default();
            total.text += v.text;
            total.integer += v.integer;
            total.real += v.real;
            total.date += v.date;
        }
        let mut types = BTreeMap::new();
        for (i, key) in keys.iter().enumerate() {
            let r = root(&mut parent, i);
            let kind = match class_votes.get(&r) {
                Some(v) if v.date > 0 && v.date >= v.integer + v.real => ColumnType::Date,
                Some(v) if v.text > v.integer + v.real => ColumnType::Text,
                Some(v) if v.real > 0 => ColumnType::Real,
                Some(v) if v.integer > 0 => ColumnType::Integer,
                _ => {
                    // No evidence in the class: the names of its columns decide.
                    let named: Vec<ColumnType> = keys
                        .iter()
                        .enumerate()
                        .filter(|(j, _)| root(&mut parent.clone(), *j) == r)
                        .map(|(_, k)| type_from_name(&k.1))
                        .collect();
                    if named.contains(&ColumnType::Integer) {
                        ColumnType::Integer
                    } else {
                        named.first().copied().unwrap_or(ColumnType::Text)
                    }
                }
            };
            types.insert(key.clone(), kind);
        }
        types
    }
}

/// The name a projected expression gets as an output column (lowercased).
fn output_name(expr: &Expr) -> String {
    match expr {
        Expr::Identifier(i) => i.value.to_lowercase(),
        Expr::CompoundIdentifier(parts) => parts
            .last()
            .map(|i| i.value.to_lowercase())
            .unwrap_or_default(),
        other => other.to_string().to_lowercase(),
    }
}

/// `2024-01-31`, optionally followed by a time.
pub fn looks_like_date(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() >= 10
        && b[..4].iter().all(u8::is_ascii_digit)
        && b[4] == b'-'
        && b[5..7].iter().all(u8::is_ascii_digit)
        && b[7] == b'-'
        && b[8..10].iter().all(u8::is_ascii_digit)
}

/// `INT`, `INTEGER`, `BIGINT`, `SIGNED`...: the types a cast to which drops a fraction.
fn integer_type(data_type: &sqlparser::ast::DataType) -> bool {
    let name = data_type.to_string().to_ascii_uppercase();
    let base = name.split(['(', ' ']).next().unwrap_or_default();
    base.ends_with("INT")
        || base.starts_with("INT") && base != "INTERVAL"
        || matches!(base, "SIGNED" | "UNSIGNED")
}

/// The integer types, and `REAL`, `DOUBLE PRECISION`, `FLOAT`, `DECIMAL(p, s)`, `NUMERIC`...
fn numeric_type(data_type: &sqlparser::ast::DataType) -> bool {
    let name = data_type.to_string().to_ascii_uppercase();
    let base = name.split(['(', ' ']).next().unwrap_or_default();
    integer_type(data_type)
        || matches!(
            base,
            "REAL"
                | "DOUBLE"
                | "FLOAT"
                | "FLOAT4"
                | "FLOAT8"
                | "DECIMAL"
                | "DEC"
                | "NUMERIC"
                | "NUMBER"
        )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sql::{ParseLimits, SqlDialect, parse};

    fn infer(expected: &str, generated: &str) -> Inference {
        let p = |s: &str| parse(s, SqlDialect::Generic, ParseLimits::default()).expect("parses");
        infer_schema(&p(expected), &p(generated)).expect("infers")
    }

    fn columns(inference: &Inference, table: &str) -> Vec<(String, ColumnType)> {
        inference
            .schema
            .table(table)
            .expect("the table")
            .columns
            .iter()
            .map(|c| (c.name.clone(), c.kind))
            .collect()
    }

    #[test]
    fn columns_cast_to_an_integer_type_are_hinted() {
        let inference = infer(
            "SELECT CAST(sal AS INTEGER), CAST(bonus AS VARCHAR(3)) FROM emp",
            "SELECT CAST(comm AS BIGINT), CAST(hired AS INTERVAL) FROM emp",
        );
        let key = |c: &str| ("emp".to_string(), c.to_string());
        assert_eq!(
            inference.hints.cast_to_integer,
            vec![key("sal"), key("comm")]
        );
    }

    #[test]
    fn aliases_ctes_and_derived_tables_resolve_to_base_tables() {
        let i = infer(
            "WITH young AS (SELECT s.name, s.age FROM singer AS s WHERE s.age < 30) SELECT name FROM young",
            "SELECT t.name FROM (SELECT name, age FROM singer WHERE age < 30) AS t",
        );
        assert_eq!(i.schema.tables.len(), 1, "{:?}", i.schema);
        assert_eq!(
            columns(&i, "singer"),
            [
                ("name".to_string(), ColumnType::Text),
                ("age".to_string(), ColumnType::Integer)
            ]
        );
    }

    #[test]
    fn join_partners_share_a_type_and_unqualified_columns_find_their_table() {
        let i = infer(
            "SELECT name FROM singer JOIN concert ON singer.code = concert.singer_code WHERE concert.singer_code = 'A1'",
            "SELECT s.name FROM singer s, concert c WHERE s.code = c.singer_code AND year > 2010",
        );
        assert!(columns(&i, "singer").contains(&("code".to_string(), ColumnType::Text)));
        let concert = columns(&i, "concert");
        assert!(
            concert.contains(&("singer_code".to_string(), ColumnType::Text)),
            "{concert:?}"
        );
        // `year` is in neither table by a qualified name: the rule places it and says so.
        assert!(
            i.notes.iter().any(|n| n.contains("`year`")),
            "{:?}",
            i.notes
        );
        assert_eq!(
            i.hints
                .values
                .get(&("concert".into(), "singer_code".into()))
                .map(Vec::len),
            Some(1)
        );
    }

    #[test]
    fn using_thresholds_patterns_and_dates_are_collected() {
        let i = infer(
            "SELECT dept, COUNT(*) FROM emp JOIN dept USING (dept_id) WHERE name LIKE 'A%' AND hired >= '2020-01-01' GROUP BY dept HAVING COUNT(*) > 5 ORDER BY dept LIMIT 3",
            "SELECT dept, COUNT(id) FROM emp JOIN dept USING (dept_id) WHERE name LIKE 'A%' GROUP BY dept HAVING COUNT(*) >= 6",
        );
        assert!(columns(&i, "dept").iter().any(|(c, _)| c == "dept_id"));
        assert!(columns(&i, "emp").contains(&("hired".to_string(), ColumnType::Date)));
        assert!(
            i.hints.counts.contains(&5)
                && i.hints.counts.contains(&6)
                && i.hints.counts.contains(&3)
        );
        assert_eq!(
            i.hints.patterns.values().next().map(|p| p[0].as_str()),
            Some("A%")
        );
    }

    #[test]
    fn output_aliases_are_not_columns() {
        let i = infer(
            "SELECT country, COUNT(*) AS n FROM singer GROUP BY country ORDER BY n DESC",
            "SELECT country, COUNT(*) AS total FROM singer GROUP BY country HAVING total > 1",
        );
        assert_eq!(
            columns(&i, "singer").len(),
            1,
            "{:?}",
            columns(&i, "singer")
        );
    }

    #[test]
    fn an_alias_names_nothing_inside_its_own_select_list() {
        let i = infer(
            "SELECT name AS name, COUNT(*) AS c FROM dept GROUP BY name HAVING name = 'x'",
            "SELECT t.deptno FROM (SELECT ename, deptno + 1 AS deptno FROM emp) AS t",
        );
        assert_eq!(columns(&i, "dept").len(), 1, "{:?}", columns(&i, "dept"));
        assert!(columns(&i, "dept").iter().any(|(c, _)| c == "name"));
        assert!(columns(&i, "emp").iter().any(|(c, _)| c == "deptno"));
    }

    #[test]
    fn a_query_on_no_table_gets_a_schema_of_no_tables() {
        let p = |s: &str| parse(s, SqlDialect::Generic, ParseLimits::default()).expect("parses");
        let none = infer_schema(&p("SELECT 1"), &p("SELECT 2")).expect("no tables is a schema");
        assert!(none.schema.tables.is_empty());
    }
}
