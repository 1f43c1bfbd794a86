//! The structural judge for SQL.

use std::collections::HashMap;
use std::ops::ControlFlow;

use sqlparser::ast::{
    BinaryOperator, Distinct, Expr, FunctionArg, FunctionArgExpr, FunctionArguments, GroupByExpr,
    Ident, LimitClause, ObjectName, ObjectNamePart, OrderByKind, Query, Select, SelectItem,
    SetExpr, Statement, TableAlias, TableFactor, Value, VisitMut, VisitorMut,
};

use super::Judgement;
use super::{Components, FILTERS, GROUPING, ORDERING, OUTPUT, TABLES};
use crate::analysis::Analysis;
use crate::sql::join_condition;
use crate::sql::scope::{BlockCursor, BlockId, Scopes, selects};

/// Judges a generated query against the expected one, from their analyses. Identical queries
/// (after normalization) are equivalent without further work.
pub fn judge(expected: &Analysis, generated: &Analysis) -> Option<Judgement> {
    let (Some(expected_statements), Some(generated_statements)) =
        (&expected.statements, &generated.statements)
    else {
        return None;
    };
    if expected_statements == generated_statements {
        return Some(Judgement::identical());
    }
    let e = SqlFeatures::of(expected_statements, &expected.scopes, &expected.tables);
    let g = SqlFeatures::of(generated_statements, &generated.scopes, &generated.tables);
    let (e_shape, g_shape) = (shape(expected_statements), shape(generated_statements));
    let mut parts = Components::default();
    parts.set("tables", TABLES, &e.tables, &g.tables);
    parts.set("columns", OUTPUT, &e.columns, &g.columns);
    parts.set("filters", FILTERS, &e.filters, &g.filters);
    parts.set("grouping", GROUPING * 0.6, &e.grouping, &g.grouping);
    parts.set("having conditions", GROUPING * 0.4, &e.having, &g.having);
    parts.sequence("ordering", ORDERING * 0.5, &e.ordering, &g.ordering);
    parts.set("limits", ORDERING * 0.3, &e.limit, &g.limit);
    parts.set("modifiers", ORDERING * 0.2, &e.modifiers, &g.modifiers);
    let judgement = parts.judge("tables");
    Some(if e_shape == g_shape {
        judgement
    } else {
        other_statements(judgement, &e_shape, &g_shape)
    })
}

/// What each statement of a text is: `a query`, or the statement itself (`DROP TABLE users`).
/// Only queries are compared part by part; any other statement is compared whole.
fn shape(statements: &[Statement]) -> Vec<String> {
    statements
        .iter()
        .map(|statement| match statement {
            Statement::Query(_) => "a query".to_string(),
            other => other.to_string(),
        })
        .collect()
}

/// Texts that are not the same statements (`SELECT ...; DROP TABLE t` against one query, or a
/// `DELETE` against a `SELECT`) do different things, whatever their queries share: the verdict
/// is incorrect, and the similarity keeps only the share of statements the two have in common.
fn other_statements(
    mut judgement: Judgement,
    expected: &[String],
    generated: &[String],
) -> Judgement {
    let mut unmatched = expected.to_vec();
    let mut extra = Vec::new();
    for statement in generated {
        match unmatched.iter().position(|e| e == statement) {
            Some(at) => {
                unmatched.remove(at);
            }
            None => extra.push(statement.clone()),
        }
    }
    let common = generated.len() - extra.len();
    let share = common as f64 / expected.len().max(generated.len()).max(1) as f64;
    let mut differences: Vec<String> = extra
        .iter()
        .map(|s| format!("extra statement: {s}"))
        .chain(unmatched.iter().map(|s| format!("missing statement: {s}")))
        .collect();
    differences.append(&mut judgement.differences);
    judgement.differences = differences;
    judgement.verdict = 0.0;
    judgement.similarity *= share;
    judgement.reasoning = format!(
        "Different statements: the generated text {}, the expected one {}",
        describe(generated),
        describe(expected)
    );
    judgement
}

fn describe(shape: &[String]) -> String {
    match shape {
        [] => "is empty".to_string(),
        [one] if one == "a query" => "is a query".to_string(),
        [one] => format!("is `{one}`, not a query"),
        many => format!(
            "has {} statements ({})",
            many.len(),
            many.iter()
                .map(|s| if s == "a query" {
                    s.clone()
                } else {
                    format!("`{s}`")
                })
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// What a query does, each part as canonical text. Every query block counts: the features of a
/// CTE body or a derived table are listed beside the top-level query's, each marked with the
/// block's label (`subquery1: t.y > 10`), so that a difference inside a block is a difference of
/// the whole and the same condition in two different blocks is not mistaken for one. Subqueries
/// in expressions are compared as part of the expression's text.
#[derive(Debug, Default)]
struct SqlFeatures {
    tables: Vec<String>,
    columns: Vec<String>,
    filters: Vec<String>,
    grouping: Vec<String>,
    having: Vec<String>,
    ordering: Vec<String>,
    limit: Vec<String>,
    modifiers: Vec<String>,
}

/// A feature of `block`: marked with the block's label, or as it is for the top-level query.
fn tagged(block: &str, feature: impl std::fmt::Display) -> String {
    if block.is_empty() {
        feature.to_string()
    } else {
        format!("{block}: {feature}")
    }
}

impl SqlFeatures {
    fn of(
        statements: &[Statement],
        names: &Scopes,
        tables: &[crate::sql::TableName],
    ) -> SqlFeatures {
        let mut features = SqlFeatures {
            tables: tables.iter().map(|t| t.name().to_string()).collect(),
            ..SqlFeatures::default()
        };
        // One rewriter for every statement: it counts the queries it enters as `names` does.
        let mut rewriter = Rewriter {
            names,
            cursor: BlockCursor::default(),
            scopes: Vec::new(),
        };
        for statement in statements {
            let mut statement = statement.clone();
            let _ = statement.visit(&mut rewriter);
            // Other statements are compared whole, by `shape`.
            if let Statement::Query(query) = &statement {
                features.add_query(query, "");
            }
        }
        for list in [
            &mut features.columns,
            &mut features.filters,
            &mut features.grouping,
            &mut features.having,
            &mut features.modifiers,
        ] {
            list.sort();
            list.dedup();
        }
        features
    }

    /// Adds a query's features as those of `block`, and those of the CTE bodies it defines.
    fn add_query(&mut self, query: &Query, block: &str) {
        // The rewriter named each CTE that is more than a renamed table after its label; one
        // that only renames a table is that table, already among the tables.
        for cte in query.with.iter().flat_map(|with| &with.cte_tables) {
            if plain_table(&cte.query).is_none() {
                self.add_query(&cte.query, &cte.alias.name.value);
            }
        }
        self.add_body(&query.body, block);
        if let Some(order_by) = &query.order_by
            && let OrderByKind::Expressions(items) = &order_by.kind
        {
            self.ordering.extend(items.iter().map(|item| {
                // `ASC` is the default: written or not, it is the same order.
                let options = item.options.to_string();
                let options = options.trim();
                let options = if options.eq_ignore_ascii_case("asc") {
                    ""
                } else {
                    options
                };
                tagged(block, format!("{} {options}", item.expr).trim_end())
            }));
        }
        match &query.limit_clause {
            Some(LimitClause::LimitOffset { limit, offset, .. }) => {
                self.limit
                    .extend(limit.iter().map(|l| tagged(block, format!("LIMIT {l}"))));
                self.limit.extend(
                    offset
                        .iter()
                        .map(|o| tagged(block, format!("OFFSET {}", o.value))),
                );
            }
            Some(LimitClause::OffsetCommaLimit { offset, limit }) => {
                self.limit.push(tagged(block, format!("LIMIT {limit}")));
                self.limit.push(tagged(block, format!("OFFSET {offset}")));
            }
            None => {}
        }
        if let Some(fetch) = &query.fetch {
            self.limit.extend(
                fetch
                    .quantity
                    .iter()
                    .map(|q| tagged(block, format!("LIMIT {q}"))),
            );
        }
    }

    fn add_body(&mut self, body: &SetExpr, block: &str) {
        match body {
            SetExpr::Select(select) => self.add_select(select, block),
            SetExpr::Query(query) => self.add_query(query, block),
            SetExpr::SetOperation {
                op,
                set_quantifier,
                left,
                right,
            } => {
                self.modifiers
                    .push(tagged(block, format!("{op} {set_quantifier}").trim()));
                self.add_body(left, block);
                self.add_body(right, block);
            }
            other => self.columns.push(tagged(block, other)),
        }
    }

    fn add_select(&mut self, select: &Select, block: &str) {
        for item in &select.projection {
            let text = match item {
                SelectItem::UnnamedExpr(expr) | SelectItem::ExprWithAlias { expr, .. } => {
                    expr.to_string()
                }
                SelectItem::ExprWithAliases { expr, .. } => expr.to_string(),
                wildcard => wildcard.to_string(),
            };
            self.columns.push(tagged(block, text));
        }
        match &select.distinct {
            Some(Distinct::Distinct) => self.modifiers.push(tagged(block, "DISTINCT")),
            Some(other) => self.modifiers.push(tagged(block, other)),
            None => {}
        }
        if let Some(top) = &select.top {
            let limit = top.to_string().replace("TOP ", "LIMIT ");
            self.limit.push(tagged(block, limit));
        }
        let mut filters = Vec::new();
        for from in &select.from {
            for factor in
                std::iter::once(&from.relation).chain(from.joins.iter().map(|j| &j.relation))
            {
                // The rewriter aliased each derived table that is more than a renamed table with
                // its label.
                if let TableFactor::Derived {
                    subquery,
                    alias: Some(alias),
                    ..
                } = factor
                    && plain_table(subquery).is_none()
                {
                    self.add_query(subquery, &alias.name.value);
                }
            }
            for join in &from.joins {
                // Outer joins keep their kind: changing it changes the rows.
                let kind = format!("{:?}", join.join_operator);
                let kind = kind.split('(').next().unwrap_or_default();
                if !matches!(kind, "Inner" | "Join" | "CrossJoin") {
                    let join = format!("{kind} JOIN {}", factor_name(&join.relation));
                    self.modifiers.push(tagged(block, join));
                }
                if let Some(on) = join_condition(&join.join_operator) {
                    conjuncts(on, &mut filters);
                }
            }
        }
        if let Some(selection) = &select.selection {
            conjuncts(selection, &mut filters);
        }
        self.filters
            .extend(filters.iter().map(|filter| tagged(block, filter)));
        if let GroupByExpr::Expressions(exprs, _) = &select.group_by {
            self.grouping
                .extend(exprs.iter().map(|expr| tagged(block, expr)));
        }
        if let Some(having) = &select.having {
            let mut conditions = Vec::new();
            conjuncts(having, &mut conditions);
            self.having
                .extend(conditions.iter().map(|condition| tagged(block, condition)));
        }
    }
}

/// The name a joined table goes by: its table, or for a derived table, the table it only renames
/// or its label (the body's own features are compared as a block).
fn factor_name(factor: &TableFactor) -> String {
    match factor {
        TableFactor::Table { name, .. } => name.to_string(),
        TableFactor::Derived {
            subquery, alias, ..
        } => plain_table(subquery)
            .or_else(|| alias.as_ref().map(|alias| alias.name.value.clone()))
            .unwrap_or_else(|| factor.to_string()),
        other => other.to_string(),
    }
}

/// Splits `a AND b AND c` into its conjuncts, each as canonical text.
fn conjuncts(expr: &Expr, out: &mut Vec<String>) {
    match expr {
        Expr::BinaryOp {
            left,
            op: BinaryOperator::And,
            right,
        } => {
            conjuncts(left, out);
            conjuncts(right, out);
        }
        Expr::Nested(inner) => conjuncts(inner, out),
        other => out.push(other.to_string()),
    }
}

/// Rewrites expressions into one form per meaning: aliases resolved to table names, unqualified
/// columns qualified when the query reads one table, booleans as 1/0, `COUNT(1)` as `COUNT(*)`,
/// commutative operands in a fixed order, `>` as `<`, `BETWEEN` as two comparisons, `IN` lists
/// sorted, redundant parentheses dropped.
///
/// The names a query gives its own blocks mean nothing to the result, so they are replaced: each
/// CTE body and derived table that is more than a renamed table gets a label from its position
/// (`subquery1`, `subquery2`, and `subquery1_1` for the first block inside `subquery1`), which
/// becomes its name, its alias and the qualifier of its columns. A CTE or derived table that only
/// renames a table stands for that table, and a table's alias for the table. Labels follow the
/// order the blocks are written in, so two independent CTEs written in the other order differ:
/// that errs towards a difference, and is rarer than a renamed CTE.
struct Rewriter<'a> {
    /// What each name means (`sql::scope`), for the statements this rewrites a copy of.
    names: &'a Scopes,
    cursor: BlockCursor,
    /// One scope per query being visited: its label and its blocks' labels, what its CTEs and
    /// aliases stand for, its tables and output aliases.
    scopes: Vec<RewriteScope>,
}

#[derive(Default)]
struct RewriteScope {
    /// This query's block in `Rewriter::names`.
    block: BlockId,
    /// This query's label: empty for a statement's own query.
    label: String,
    /// What each CTE this query's `WITH` defines stands for, in order: the table it only
    /// renames, or the label of its body.
    ctes: Vec<String>,
    /// Addresses of the labelled blocks (CTE bodies and derived tables) with their labels.
    blocks: Vec<(usize, String)>,
    /// How many labels this query has handed out: its blocks first, then, as the visitor meets
    /// them, the subqueries in its expressions, whose own blocks need labels of their own.
    labelled: usize,
    aliases: HashMap<String, String>,
    tables: Vec<String>,
    output_aliases: Vec<String>,
}

fn address(query: &Query) -> usize {
    std::ptr::from_ref(query) as usize
}

impl RewriteScope {
    fn of(
        query: &Query,
        block: BlockId,
        names: &Scopes,
        outer: &[RewriteScope],
        label: String,
    ) -> RewriteScope {
        let mut scope = RewriteScope {
            block,
            label,
            ..RewriteScope::default()
        };
        // A CTE that only renames a table (`WITH a AS (SELECT * FROM users)`) stands for it; any
        // other is a block. The renamed table may itself be a CTE, one before it, as its body
        // sees them.
        let bodies = names
            .block(block)
            .map(|b| b.ctes.as_slice())
            .unwrap_or_default();
        for (cte, defined) in query
            .with
            .iter()
            .flat_map(|with| &with.cte_tables)
            .zip(bodies)
        {
            let target = match plain_table(&cte.query) {
                Some(table) => scope
                    .stands_for(names.cte(defined.body, &table), outer)
                    .unwrap_or(table),
                None => scope.next_block(&cte.query),
            };
            scope.ctes.push(target);
        }
        let cte_or = |scope: &RewriteScope, table: String| {
            scope
                .stands_for(names.cte(block, &table), outer)
                .unwrap_or(table)
        };
        let mut tables_here = Vec::new();
        let mut aliases_here = Vec::new();
        for select in selects(&query.body) {
            for from in &select.from {
                for factor in
                    std::iter::once(&from.relation).chain(from.joins.iter().map(|j| &j.relation))
                {
                    match factor {
                        TableFactor::Table {
                            name,
                            alias,
                            args: None,
                            ..
                        } => {
                            let written = name
                                .0
                                .last()
                                .and_then(ObjectNamePart::as_ident)
                                .map(|i| i.value.clone())
                                .unwrap_or_default();
                            let table = cte_or(&scope, written.clone());
                            if table != written {
                                aliases_here.push((written, table.clone()));
                            }
                            if let Some(alias) = alias {
                                aliases_here.push((alias.name.value.clone(), table.clone()));
                            }
                            tables_here.push(table);
                        }
                        TableFactor::Derived {
                            subquery, alias, ..
                        } => {
                            let table = match plain_table(subquery) {
                                Some(table) => cte_or(&scope, table),
                                None => scope.next_block(subquery),
                            };
                            if let Some(alias) = alias {
                                aliases_here.push((alias.name.value.clone(), table.clone()));
                            }
                            tables_here.push(table);
                        }
                        // A function: columns cannot be attributed reliably.
                        _ => tables_here.push(String::new()),
                    }
                }
            }
            for item in &select.projection {
                if let SelectItem::ExprWithAlias { alias, .. } = item {
                    scope.output_aliases.push(alias.value.clone());
                }
            }
        }
        scope.tables = tables_here;
        scope.aliases.extend(aliases_here);
        scope
    }

    /// The label of this query's `index`-th block (from 1).
    fn block_label(&self, index: usize) -> String {
        if self.label.is_empty() {
            format!("subquery{index}")
        } else {
            format!("{}_{index}", self.label)
        }
    }

    /// Labels `block` as this query's next block.
    fn next_block(&mut self, block: &Query) -> String {
        self.labelled += 1;
        let label = self.block_label(self.labelled);
        self.blocks.push((address(block), label.clone()));
        label
    }

    /// What the CTE `found` (by `sql::scope`) stands for: its table or its label. It is defined
    /// by this query or one around it, whose scope is built, or still being built (this one,
    /// whose later CTEs its earlier ones cannot see).
    fn stands_for(
        &self,
        found: Option<(BlockId, usize)>,
        outer: &[RewriteScope],
    ) -> Option<String> {
        let (block, index) = found?;
        std::iter::once(self)
            .chain(outer.iter().rev())
            .find(|scope| scope.block == block)?
            .ctes
            .get(index)
            .cloned()
    }
}

fn selects_mut(body: &mut SetExpr) -> Vec<&mut Select> {
    match body {
        SetExpr::Select(select) => vec![select],
        SetExpr::SetOperation { left, right, .. } => {
            let mut all = selects_mut(left);
            all.extend(selects_mut(right));
            all
        }
        _ => Vec::new(),
    }
}

/// The table a query only selects everything from, without filtering or shaping it.
fn plain_table(query: &Query) -> Option<String> {
    let SetExpr::Select(select) = query.body.as_ref() else {
        return None;
    };
    let only_star = matches!(select.projection.as_slice(), [SelectItem::Wildcard(_)]);
    let plain = only_star
        && select.selection.is_none()
        && select.having.is_none()
        && select.distinct.is_none()
        && matches!(&select.group_by, GroupByExpr::Expressions(e, _) if e.is_empty())
        && query.order_by.is_none()
        && query.limit_clause.is_none()
        && query.with.is_none();
    match select.from.as_slice() {
        [from] if plain && from.joins.is_empty() => match &from.relation {
            TableFactor::Table {
                name, args: None, ..
            } => name
                .0
                .last()
                .and_then(ObjectNamePart::as_ident)
                .map(|i| i.value.clone()),
            _ => None,
        },
        _ => None,
    }
}

impl Rewriter<'_> {
    /// The label of a query the visitor enters, given by the query containing it: the label it
    /// gave the block, or a new one for a subquery in an expression.
    fn label_of(&mut self, query: &Query) -> String {
        let Some(parent) = self.scopes.last_mut() else {
            return String::new();
        };
        let address = address(query);
        match parent.blocks.iter().find(|(block, _)| *block == address) {
            Some((_, label)) => label.clone(),
            // A query that only renames a table has no blocks to label, and taking a number for
            // it would set the labels after it apart from those of a query naming the table.
            None if plain_table(query).is_some() => String::new(),
            None => {
                parent.labelled += 1;
                parent.block_label(parent.labelled)
            }
        }
    }

    /// Writes the innermost scope's names into its query: blocks named and aliased by their
    /// labels, references to a CTE by what it stands for, and table aliases dropped (the
    /// expressions no longer use them). A subquery in an expression is compared as text, and
    /// this keeps the names out of that text too.
    fn rename(&self, query: &mut Query) {
        let Some((scope, outer)) = self.scopes.split_last() else {
            return;
        };
        let label = |block: &Query| {
            scope
                .blocks
                .iter()
                .find(|(at, _)| *at == address(block))
                .map(|(_, label)| Ident::new(label))
        };
        for cte in query.with.iter_mut().flat_map(|with| &mut with.cte_tables) {
            if let Some(label) = label(&cte.query) {
                cte.alias.name = label;
            }
        }
        for select in selects_mut(&mut query.body) {
            for from in &mut select.from {
                for factor in std::iter::once(&mut from.relation)
                    .chain(from.joins.iter_mut().map(|j| &mut j.relation))
                {
                    match factor {
                        TableFactor::Table {
                            name,
                            alias,
                            args: None,
                            ..
                        } => {
                            if let [ObjectNamePart::Identifier(ident)] = name.0.as_slice()
                                && let Some(target) = scope
                                    .stands_for(self.names.cte(scope.block, &ident.value), outer)
                            {
                                *name = ObjectName::from(vec![Ident::new(target)]);
                            }
                            if alias.as_ref().is_some_and(|a| a.columns.is_empty()) {
                                *alias = None;
                            }
                        }
                        TableFactor::Derived {
                            subquery, alias, ..
                        } => {
                            if let Some(label) = label(subquery) {
                                *alias = Some(TableAlias {
                                    explicit: false,
                                    name: label,
                                    columns: alias.take().map(|a| a.columns).unwrap_or_default(),
                                    at: None,
                                });
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
    }

    fn resolve_alias(&self, name: &str) -> Option<String> {
        self.scopes
            .iter()
            .rev()
            .find_map(|scope| scope.aliases.get(name).cloned())
    }

    fn only_table(&self) -> Option<String> {
        let scope = self.scopes.last()?;
        match scope.tables.as_slice() {
            [only] if !only.is_empty() => Some(only.clone()),
            _ => None,
        }
    }

    fn is_output_alias(&self, name: &str) -> bool {
        self.scopes
            .last()
            .is_some_and(|scope| scope.output_aliases.iter().any(|a| a == name))
    }
}

/// Puts a comparison or commutative operation in one of its equivalent forms: a column before a
/// value (`x > 5`, not `5 < x`), otherwise the operands in text order, mirroring `<`/`>` as
/// needed.
fn canonical_operands(left: &mut Box<Expr>, op: &mut BinaryOperator, right: &mut Box<Expr>) {
    let mirrored = match op {
        BinaryOperator::Gt => Some(BinaryOperator::Lt),
        BinaryOperator::Lt => Some(BinaryOperator::Gt),
        BinaryOperator::GtEq => Some(BinaryOperator::LtEq),
        BinaryOperator::LtEq => Some(BinaryOperator::GtEq),
        BinaryOperator::Eq
        | BinaryOperator::NotEq
        | BinaryOperator::And
        | BinaryOperator::Or
        | BinaryOperator::Plus
        | BinaryOperator::Multiply => Some(op.clone()),
        _ => None,
    };
    let Some(mirrored) = mirrored else { return };
    let is_column = |e: &Expr| matches!(e, Expr::Identifier(_) | Expr::CompoundIdentifier(_));
    let swap = match (is_column(left), is_column(right)) {
        (false, true) => true,
        (true, false) => false,
        _ => left.to_string() > right.to_string(),
    };
    if swap {
        std::mem::swap(left, right);
        *op = mirrored;
    }
}

fn number(text: &str) -> Expr {
    Expr::Value(Value::Number(text.to_string(), false).into())
}

impl VisitorMut for Rewriter<'_> {
    type Break = ();

    fn pre_visit_query(&mut self, query: &mut Query) -> ControlFlow<()> {
        let block = self.cursor.enter();
        let label = self.label_of(query);
        let scope = RewriteScope::of(query, block, self.names, &self.scopes, label);
        self.scopes.push(scope);
        self.rename(query);
        ControlFlow::Continue(())
    }

    fn post_visit_query(&mut self, _: &mut Query) -> ControlFlow<()> {
        self.scopes.pop();
        self.cursor.leave();
        ControlFlow::Continue(())
    }

    fn post_visit_expr(&mut self, expr: &mut Expr) -> ControlFlow<()> {
        let replacement = match expr {
            Expr::Nested(inner) => Some(std::mem::replace(inner.as_mut(), number("0"))),
            Expr::Value(value) => match value.value {
                Value::Boolean(b) => Some(number(if b { "1" } else { "0" })),
                _ => None,
            },
            Expr::CompoundIdentifier(parts) if parts.len() == 2 => self
                .resolve_alias(&parts[0].value)
                .map(|table| Expr::CompoundIdentifier(vec![Ident::new(table), parts[1].clone()])),
            Expr::Identifier(ident) if !self.is_output_alias(&ident.value) => self
                .only_table()
                .map(|table| Expr::CompoundIdentifier(vec![Ident::new(table), ident.clone()])),
            Expr::BinaryOp { left, op, right } => {
                canonical_operands(left, op, right);
                None
            }
            Expr::Between {
                expr: inner,
                negated: false,
                low,
                high,
            } => {
                let comparison =
                    |mut left: Box<Expr>, mut op: BinaryOperator, mut right: Box<Expr>| {
                        canonical_operands(&mut left, &mut op, &mut right);
                        Expr::BinaryOp { left, op, right }
                    };
                let lower = comparison(inner.clone(), BinaryOperator::GtEq, low.clone());
                let upper = comparison(inner.clone(), BinaryOperator::LtEq, high.clone());
                Some(Expr::BinaryOp {
                    left: Box::new(lower),
                    op: BinaryOperator::And,
                    right: Box::new(upper),
                })
            }
            Expr::InList { list, .. } => {
                list.sort_by_key(ToString::to_string);
                list.dedup_by(|a, b| a.to_string() == b.to_string());
                None
            }
            Expr::Function(function) => {
                let is_count = function.name.to_string() == "count";
                if let FunctionArguments::List(arguments) = &mut function.args
                    && is_count
                    && arguments.args.len() == 1
                    && arguments.duplicate_treatment.is_none()
                    && let FunctionArg::Unnamed(FunctionArgExpr::Expr(Expr::Value(v))) =
                        &arguments.args[0]
                    && matches!(&v.value, Value::Number(n, _) if n == "1")
                {
                    arguments.args[0] = FunctionArg::Unnamed(FunctionArgExpr::Wildcard);
                }
                None
            }
            _ => None,
        };
        if let Some(replacement) = replacement {
            *expr = replacement;
        }
        ControlFlow::Continue(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::analyse;
    use crate::sql::{ParseLimits, SqlDialect};

    fn judge_sql(generated: &str, expected: &str) -> Judgement {
        let a = |sql: &str| analyse(sql, SqlDialect::Generic, ParseLimits::default());
        judge(&a(expected), &a(generated)).unwrap()
    }

    #[test]
    fn other_statements_are_judged_as_statements() {
        let dropped = judge_sql(
            "SELECT name FROM users; DROP TABLE users",
            "SELECT name FROM users",
        );
        assert_eq!(dropped.verdict, 0.0, "{dropped:?}");
        assert_eq!(
            dropped.reasoning,
            "Different statements: the generated text has 2 statements (a query, `DROP TABLE users`), the expected one is a query"
        );
        assert_eq!(dropped.differences, ["extra statement: DROP TABLE users"]);
        assert!((dropped.similarity - 0.5).abs() < 1e-9, "{dropped:?}");

        let deleted = judge_sql("DELETE FROM users RETURNING name", "SELECT name FROM users");
        assert_eq!(deleted.verdict, 0.0);
        assert_eq!(deleted.similarity, 0.0);
        assert!(
            deleted
                .reasoning
                .contains("is `DELETE FROM users RETURNING name`, not a query")
        );

        // Two queries against the same two queries are compared part by part as before.
        let same = judge_sql(
            "SELECT a FROM t; SELECT b FROM u",
            "SELECT a FROM t; SELECT b FROM u",
        );
        assert_eq!(same.verdict, 1.0);
    }

    #[test]
    fn query_correctness_scenarios() {
        let exact = judge_sql(
            "SELECT * FROM users WHERE id = 1;",
            "SELECT * FROM users WHERE id = 1;",
        );
        assert_eq!(
            (exact.verdict, exact.reasoning.as_str()),
            (1.0, "Queries are identical")
        );

        let equivalent = judge_sql(
            "SELECT u.id, u.name FROM users u WHERE u.active = true;",
            "SELECT id, name FROM users WHERE active = 1;",
        );
        assert_eq!(equivalent.verdict, 1.0, "{equivalent:?}");
        assert_eq!(
            equivalent.reasoning,
            "Semantically equivalent despite different syntax"
        );

        let partial = judge_sql(
            "SELECT * FROM users;",
            "SELECT * FROM users WHERE created_at > '2024-01-01';",
        );
        assert_eq!(partial.verdict, 0.5, "{partial:?}");
        assert_eq!(
            partial.reasoning,
            "Correct table, but missing filter: users.created_at > '2024-01-01'"
        );

        let wrong = judge_sql("SELECT * FROM products;", "SELECT * FROM users;");
        assert_eq!(
            (wrong.verdict, wrong.reasoning.as_str()),
            (0.0, "Query accesses wrong table")
        );
    }

    #[test]
    fn equivalences_are_recognized() {
        let cases = [
            (
                "SELECT * FROM a JOIN b ON a.id = b.aid",
                "SELECT * FROM b JOIN a ON b.aid = a.id",
            ),
            (
                "SELECT * FROM t WHERE x BETWEEN 1 AND 5",
                "SELECT * FROM t WHERE x >= 1 AND x <= 5",
            ),
            (
                "SELECT * FROM t WHERE x IN (3, 1, 2)",
                "SELECT * FROM t WHERE x IN (1, 2, 3)",
            ),
            ("SELECT COUNT(1) FROM t", "SELECT count(*) FROM t"),
            (
                "SELECT * FROM t WHERE 5 < x AND y = 2",
                "SELECT * FROM t WHERE y = 2 AND x > 5",
            ),
            ("SELECT t.a AS total FROM t", "SELECT a FROM t"),
            (
                "SELECT * FROM t WHERE (a = 1)",
                "SELECT * FROM t WHERE a = 1",
            ),
            (
                "WITH a AS (SELECT * FROM users) SELECT * FROM a JOIN orders ON a.id = orders.user_id",
                "SELECT * FROM users u JOIN orders o ON u.id = o.user_id",
            ),
        ];
        for (generated, expected) in cases {
            let judgement = judge_sql(generated, expected);
            assert_eq!(
                judgement.verdict, 1.0,
                "{generated} vs {expected}: {judgement:?}"
            );
        }
    }

    #[test]
    fn real_differences_are_not_equivalent() {
        let cases = [
            (
                "SELECT * FROM a LEFT JOIN b ON a.id = b.aid",
                "SELECT * FROM a JOIN b ON a.id = b.aid",
            ),
            (
                "SELECT * FROM t WHERE x > 5",
                "SELECT * FROM t WHERE x >= 5",
            ),
            (
                "SELECT a FROM t ORDER BY a DESC",
                "SELECT a FROM t ORDER BY a",
            ),
            ("SELECT a FROM t LIMIT 5", "SELECT a FROM t LIMIT 10"),
            ("SELECT DISTINCT a FROM t", "SELECT a FROM t"),
            (
                "SELECT a, COUNT(*) FROM t GROUP BY a",
                "SELECT a, COUNT(*) FROM t GROUP BY a HAVING COUNT(*) > 1",
            ),
        ];
        for (generated, expected) in cases {
            let judgement = judge_sql(generated, expected);
            assert!(
                judgement.verdict < 1.0 && judgement.similarity < 1.0,
                "{generated} vs {expected}: {judgement:?}"
            );
            assert!(!judgement.differences.is_empty());
        }
    }

    #[test]
    fn similarity_falls_as_differences_grow() {
        let expected =
            "SELECT name, COUNT(*) FROM users WHERE active = 1 AND age > 30 GROUP BY name";
        let one_off = judge_sql(
            "SELECT name, COUNT(*) FROM users WHERE active = 1 GROUP BY name",
            expected,
        );
        let two_off = judge_sql("SELECT name, COUNT(*) FROM users GROUP BY name", expected);
        let three_off = judge_sql("SELECT name FROM users", expected);
        assert!(
            one_off.similarity > two_off.similarity,
            "{one_off:?} {two_off:?}"
        );
        assert!(two_off.similarity > three_off.similarity);
    }
}
