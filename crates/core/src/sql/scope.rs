//! What a query's names refer to, resolved once per statement list and read by every module that
//! needs it: table extraction (`tables`), schema inference (`infer`), the structural judge's
//! rewriting (`judge::sql`) and schema validity (`metrics::schema_validity`).
//!
//! Each query (sqlparser's `Query`: an optional `WITH`, a body, `ORDER BY`...) is a **block**,
//! numbered in the order sqlparser's visitor enters them. A visitor over the same statements, or
//! over a copy of them (the judge rewrites one), counts the queries it enters and so knows which
//! block it is in ([`BlockCursor`]); a walk of its own over the same statements finds a query's
//! block by the query ([`Scopes::block_of`]).
//!
//! The rules, in one place:
//! - a block sees the CTEs of its own `WITH` and of every block it sits in; inside the body of a
//!   CTE, only the CTEs written before it, and itself too when the `WITH` is `RECURSIVE`;
//! - a one-part relation name that a visible CTE defines is that CTE, not a table;
//! - a block binds the relations of its `SELECT`s' `FROM` clauses (every operand of a set
//!   operation), each under its alias or, without one, its own name;
//! - names are compared case-insensitively: every name here is lowercased.

use std::collections::HashMap;
use std::ops::ControlFlow;

use sqlparser::ast::{
    ObjectName, ObjectNamePart, Query, Select, SelectItem, SetExpr, Statement, TableFactor, Visit,
    Visitor,
};

/// A block's number: its place in the order the visitor enters queries.
pub(crate) type BlockId = usize;

/// The blocks of a list of statements.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Scopes {
    blocks: Vec<QueryScope>,
    /// Each query's block, by the query's address in the statements the scopes were built from.
    by_address: HashMap<usize, BlockId>,
}

/// One query's names: the CTEs it defines, the relations it binds, its output aliases.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct QueryScope {
    /// The block this one sits in: the query whose `WITH`, `FROM` or expression holds it.
    pub parent: Option<BlockId>,
    /// When this block is the body of one of its parent's CTEs, that CTE's position.
    pub cte_of_parent: Option<usize>,
    /// The CTEs its `WITH` defines, in order.
    pub ctes: Vec<Cte>,
    pub recursive: bool,
    /// The relations its `SELECT`s read, in the order written.
    pub bindings: Vec<Binding>,
    /// The names its `SELECT`s give their output columns (`AS name`).
    pub output_aliases: Vec<String>,
}

/// A CTE: its name and its body's block.
#[derive(Debug, Clone, PartialEq)]
pub struct Cte {
    pub name: String,
    pub body: BlockId,
    /// Its column list (`WITH t (a, b) AS ...`).
    pub columns: Vec<String>,
}

/// A relation a `FROM` reads, under the name the block uses for it.
#[derive(Debug, Clone, PartialEq)]
pub struct Binding {
    /// Its alias, or its own name (the last part).
    pub name: String,
    /// Whether `name` is an alias.
    pub aliased: bool,
    pub relation: Relation,
}

/// What a binding reads.
#[derive(Debug, Clone, PartialEq)]
pub enum Relation {
    /// A table, by its last name part (`orders` for `sales.orders`).
    Table(String),
    /// A CTE: the block that defines it and its position there.
    Cte(BlockId, usize),
    /// A derived table: its query's block, and the column names its alias lists.
    Derived(BlockId, Vec<String>),
    /// A table-valued function, whose columns cannot be placed.
    Function,
}

impl Scopes {
    /// The blocks of `statements`, in the order the visitor enters them.
    pub fn of(statements: &[Statement]) -> Scopes {
        let mut builder = Builder::default();
        for statement in statements {
            let _ = statement.visit(&mut builder);
        }
        builder.finish()
    }

    /// The block of a query of the statements these scopes were built from (not of a copy).
    pub fn block_of(&self, query: &Query) -> Option<BlockId> {
        self.by_address.get(&address(query)).copied()
    }

    pub fn block(&self, id: BlockId) -> Option<&QueryScope> {
        self.blocks.get(id)
    }

    pub fn len(&self) -> usize {
        self.blocks.len()
    }

    pub fn is_empty(&self) -> bool {
        self.blocks.is_empty()
    }

    /// The CTE a one-part name means in block `at`: the block defining it and its position.
    pub fn cte(&self, at: BlockId, name: &str) -> Option<(BlockId, usize)> {
        visible_cte(&self.blocks, at, &name.to_lowercase())
    }

    /// The CTE itself (see [`Scopes::cte`]).
    pub fn cte_at(&self, (block, index): (BlockId, usize)) -> Option<&Cte> {
        self.blocks.get(block)?.ctes.get(index)
    }

    /// The binding a qualifier names in block `at` or, for a correlated reference, a block it
    /// sits in.
    pub fn binding(&self, at: BlockId, qualifier: &str) -> Option<&Binding> {
        let qualifier = qualifier.to_lowercase();
        let mut here = Some(at);
        while let Some(id) = here {
            let block = self.blocks.get(id)?;
            if let Some(binding) = block.bindings.iter().find(|b| b.name == qualifier) {
                return Some(binding);
            }
            here = block.parent;
        }
        None
    }
}

/// Which block a visitor is in: call [`BlockCursor::enter`] and [`BlockCursor::leave`] from
/// `pre_visit_query` and `post_visit_query`.
#[derive(Debug, Clone, Default)]
pub(crate) struct BlockCursor {
    entered: usize,
    stack: Vec<BlockId>,
}

impl BlockCursor {
    pub(crate) fn enter(&mut self) -> BlockId {
        let id = self.entered;
        self.entered += 1;
        self.stack.push(id);
        id
    }

    pub(crate) fn leave(&mut self) {
        self.stack.pop();
    }

    /// The innermost block entered and not left; `None` outside every query.
    pub(crate) fn current(&self) -> Option<BlockId> {
        self.stack.last().copied()
    }
}

/// The CTE `name` (lowercased) means in block `at` (see [`Scopes::cte`]).
fn visible_cte(blocks: &[QueryScope], at: BlockId, name: &str) -> Option<(BlockId, usize)> {
    let mut here = at;
    let mut from_body = None;
    loop {
        let block = blocks.get(here)?;
        let visible = match from_body {
            None => block.ctes.len(),
            Some(index) if block.recursive => block.ctes.len().min(index + 1),
            Some(index) => index,
        };
        if let Some(index) = block.ctes[..visible].iter().position(|c| c.name == name) {
            return Some((here, index));
        }
        from_body = block.cte_of_parent;
        here = block.parent?;
    }
}

/// Where a query sits, by address: only compared, never dereferenced.
fn address(query: &Query) -> usize {
    std::ptr::from_ref(query) as usize
}

/// Builds the blocks as the visitor enters queries. A CTE's body and a derived table are
/// entered after the block that names them: that block waits for their number.
#[derive(Default)]
struct Builder {
    blocks: Vec<QueryScope>,
    cursor: BlockCursor,
    by_address: HashMap<usize, BlockId>,
    /// CTE bodies and derived tables not entered yet, by address: the block naming them and
    /// where it does.
    awaited: HashMap<usize, (BlockId, Awaited)>,
}

enum Awaited {
    /// The body of the block's CTE at this position.
    CteBody(usize),
    /// The derived table of the block's binding at this position.
    Derived(usize),
}

impl Builder {
    fn finish(self) -> Scopes {
        Scopes {
            blocks: self.blocks,
            by_address: self.by_address,
        }
    }

    /// Gives block `id` to the CTE or binding that awaited the query at `at`; for a CTE's body,
    /// returns the CTE's position.
    fn arrived(&mut self, at: usize, id: BlockId) -> Option<usize> {
        let (block, awaited) = self.awaited.remove(&at)?;
        match awaited {
            Awaited::CteBody(index) => {
                self.blocks[block].ctes[index].body = id;
                Some(index)
            }
            Awaited::Derived(index) => {
                if let Relation::Derived(body, _) = &mut self.blocks[block].bindings[index].relation
                {
                    *body = id;
                }
                None
            }
        }
    }

    fn bind(&mut self, id: BlockId, factor: &TableFactor) {
        let binding = match factor {
            TableFactor::Table {
                name,
                alias,
                args: None,
                ..
            } => last_part(name).map(|written| {
                let relation = match name.0.len() {
                    1 => visible_cte(&self.blocks, id, &written).map(|(b, i)| Relation::Cte(b, i)),
                    _ => None,
                }
                .unwrap_or(Relation::Table(written.clone()));
                named(alias.as_ref().map(|a| &a.name.value), written, relation)
            }),
            TableFactor::Derived {
                subquery, alias, ..
            } => {
                let columns = alias
                    .iter()
                    .flat_map(|a| &a.columns)
                    .map(|c| c.name.value.to_lowercase())
                    .collect();
                let index = self.blocks[id].bindings.len();
                self.awaited
                    .insert(address(subquery), (id, Awaited::Derived(index)));
                let written = alias.as_ref().map(|a| a.name.value.clone());
                Some(named(
                    written.as_ref(),
                    String::new(),
                    // Set when the derived table is entered.
                    Relation::Derived(usize::MAX, columns),
                ))
            }
            TableFactor::Table { name, alias, .. } => Some(named(
                alias.as_ref().map(|a| &a.name.value),
                last_part(name).unwrap_or_default(),
                Relation::Function,
            )),
            // `FROM (a JOIN b ON ...)`: its relations are this block's.
            TableFactor::NestedJoin {
                table_with_joins, ..
            } => {
                self.bind(id, &table_with_joins.relation);
                for join in &table_with_joins.joins {
                    self.bind(id, &join.relation);
                }
                None
            }
            _ => None,
        };
        if let Some(binding) = binding {
            self.blocks[id].bindings.push(binding);
        }
    }
}

fn named(alias: Option<&String>, own: String, relation: Relation) -> Binding {
    match alias {
        Some(alias) => Binding {
            name: alias.to_lowercase(),
            aliased: true,
            relation,
        },
        None => Binding {
            name: own,
            aliased: false,
            relation,
        },
    }
}

/// The last part of a relation's name, lowercased.
fn last_part(name: &ObjectName) -> Option<String> {
    name.0
        .last()
        .and_then(ObjectNamePart::as_ident)
        .map(|ident| ident.value.to_lowercase())
}

/// The `SELECT`s of a query's body: itself, or the operands of its set operations. A
/// parenthesized query is a block of its own.
pub(crate) fn selects(body: &SetExpr) -> Vec<&Select> {
    match body {
        SetExpr::Select(select) => vec![select],
        SetExpr::SetOperation { left, right, .. } => {
            let mut all = selects(left);
            all.extend(selects(right));
            all
        }
        _ => Vec::new(),
    }
}

impl Visitor for Builder {
    type Break = ();

    fn pre_visit_query(&mut self, query: &Query) -> ControlFlow<()> {
        let parent = self.cursor.current();
        let id = self.cursor.enter();
        self.by_address.insert(address(query), id);
        let cte_of_parent = self.arrived(address(query), id);
        let mut block = QueryScope {
            parent,
            cte_of_parent,
            recursive: query.with.as_ref().is_some_and(|with| with.recursive),
            ..QueryScope::default()
        };
        for (index, cte) in query.with.iter().flat_map(|w| &w.cte_tables).enumerate() {
            block.ctes.push(Cte {
                name: cte.alias.name.value.to_lowercase(),
                // Set when the body is entered, right after this block.
                body: usize::MAX,
                columns: cte
                    .alias
                    .columns
                    .iter()
                    .map(|c| c.name.value.to_lowercase())
                    .collect(),
            });
            self.awaited
                .insert(address(&cte.query), (id, Awaited::CteBody(index)));
        }
        for select in selects(&query.body) {
            for item in &select.projection {
                if let SelectItem::ExprWithAlias { alias, .. } = item {
                    block.output_aliases.push(alias.value.to_lowercase());
                }
            }
        }
        self.blocks.push(block);
        for select in selects(&query.body) {
            for from in &select.from {
                self.bind(id, &from.relation);
                for join in &from.joins {
                    self.bind(id, &join.relation);
                }
            }
        }
        ControlFlow::Continue(())
    }

    fn post_visit_query(&mut self, _: &Query) -> ControlFlow<()> {
        self.cursor.leave();
        ControlFlow::Continue(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sql::{ParseLimits, SqlDialect, parse};

    fn scopes(sql: &str) -> Scopes {
        Scopes::of(&parse(sql, SqlDialect::Generic, ParseLimits::default()).expect("parses"))
    }

    #[test]
    fn a_cte_is_seen_after_its_definition_and_inside_later_blocks() {
        let s = scopes(
            "WITH a AS (SELECT * FROM a), b AS (SELECT * FROM a) SELECT * FROM b JOIN (SELECT * FROM a) d ON 1 = 1",
        );
        // Blocks: 0 the statement, 1 a's body, 2 b's body, 3 the derived table.
        assert_eq!(s.len(), 4);
        assert_eq!(s.block(1).map(|b| b.cte_of_parent), Some(Some(0)));
        // Inside a's own body, `a` is the table (the WITH is not recursive).
        assert_eq!(s.cte(1, "a"), None);
        assert_eq!(s.cte(2, "A"), Some((0, 0)));
        assert_eq!(s.cte(3, "a"), Some((0, 0)));
        let outer = s.block(0).expect("a block");
        assert_eq!(outer.bindings[0].relation, Relation::Cte(0, 1));
        assert_eq!(outer.bindings[1].name, "d");
        assert_eq!(outer.bindings[1].relation, Relation::Derived(3, Vec::new()));
        assert_eq!(s.cte_at((0, 1)).map(|c| c.body), Some(2));
    }

    #[test]
    fn a_recursive_cte_sees_itself() {
        let s = scopes(
            "WITH RECURSIVE n (x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT x FROM n",
        );
        assert_eq!(s.cte(1, "n"), Some((0, 0)));
        assert_eq!(
            s.cte_at((0, 0)).map(|c| c.columns.clone()),
            Some(vec!["x".into()])
        );
    }

    #[test]
    fn aliases_bind_in_their_block_and_correlated_names_reach_outward() {
        let s = scopes(
            "SELECT o.id AS k FROM Orders o WHERE EXISTS (SELECT 1 FROM items i WHERE i.order_id = o.id)",
        );
        assert_eq!(
            s.block(0).map(|b| b.output_aliases.clone()),
            Some(vec!["k".into()])
        );
        let orders = s.binding(1, "O").expect("o is bound outside");
        assert_eq!(orders.relation, Relation::Table("orders".into()));
        assert!(orders.aliased);
        assert_eq!(s.binding(0, "i"), None);
    }
}
