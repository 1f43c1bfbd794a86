//! Test databases for a schema, filled with values that tell queries apart.
//!
//! Random data alone rarely separates near-miss queries: `> 5` and `>= 5` differ only on a row
//! holding 5, `HAVING COUNT(*) > 5` and `>= 5` only on a group of exactly 5 rows, `LIMIT 1` and
//! `= MAX(...)` only on ties. So each column's values come from the literals the queries compare
//! it with and their neighbours, `LIKE` patterns with and without their wildcards, case variants,
//! values shared across join partners (so joins meet, miss and repeat), NULLs and a few plain
//! values; and the databases take turns at shapes: empty tables, one-row tables, duplicated rows,
//! groups sized around every threshold, ties on ordered columns. Seeded: the same seed, schema
//! and hints give the same databases on every platform.

use std::collections::{BTreeMap, BTreeSet};

use qeval_core::{
    ColumnKey, ColumnType, ForeignKey, Hints, Literal, Schema, SchemaColumn, SchemaTable,
    SplitMix64, looks_like_date, quote_ident,
};
use serde_json::Value;

/// Whether a column's name says it identifies rows: `id`, `..._id`, or a short `mid`, `rid`.
pub fn id_like(name: &str) -> bool {
    let name = name.to_lowercase();
    name == "id" || name.ends_with("_id") || (name.ends_with("id") && name.len() <= 4)
}

/// A column of the schema by position: `(table, column)` indexes.
pub(crate) type ColumnAt = (usize, usize);

/// Where the column a hint names (`(table, column)`, lowercased) is in `schema`.
pub(crate) fn column_at(schema: &Schema, key: &ColumnKey) -> Option<ColumnAt> {
    let t = schema.table_index(&key.0)?;
    Some((t, schema.tables[t].column_index(&key.1)?))
}

/// Each foreign key of table `t` with the columns it holds equal: `(child column, (parent
/// table, parent column))` by position, the parent's primary key where the key names no
/// columns; a column named in no table is left out, as is a key to a table the schema lacks.
pub(crate) fn foreign_key_pairs(
    schema: &Schema,
    t: usize,
) -> Vec<(&ForeignKey, Vec<(usize, ColumnAt)>)> {
    let table = &schema.tables[t];
    table
        .foreign_keys
        .iter()
        .filter_map(|fk| {
            let p = schema.table_index(&fk.table)?;
            let parent = &schema.tables[p];
            let pairs = fk
                .columns
                .iter()
                .enumerate()
                .filter_map(|(i, column)| {
                    let referred = fk.referred.get(i).or(parent.primary_key.get(i))?;
                    Some((
                        table.column_index(column)?,
                        (p, parent.column_index(referred)?),
                    ))
                })
                .collect();
            Some((fk, pairs))
        })
        .collect()
}

/// One value of a generated row.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
}

impl Cell {
    /// As an SQL literal.
    pub fn sql(&self) -> String {
        match self {
            Cell::Null => "NULL".into(),
            Cell::Int(i) => i.to_string(),
            Cell::Real(x) => format_real(*x),
            Cell::Text(s) => format!("'{}'", s.replace('\'', "''")),
        }
    }

    pub fn json(&self) -> Value {
        match self {
            Cell::Null => Value::Null,
            Cell::Int(i) => Value::from(*i),
            Cell::Real(x) => serde_json::Number::from_f64(*x).map_or(Value::Null, Value::Number),
            Cell::Text(s) => Value::String(s.clone()),
        }
    }

    /// A key for uniqueness checks (`1` and `1.0` collide, as in SQLite).
    pub(crate) fn key(&self) -> String {
        match self {
            Cell::Null => "\0null".into(),
            Cell::Int(i) => format!("n{}", *i as f64),
            Cell::Real(x) => format!("n{x}"),
            Cell::Text(s) => format!("t{s}"),
        }
    }
}

fn format_real(x: f64) -> String {
    let text = format!("{x}");
    if text.contains(['.', 'e', 'E', 'N', 'i']) {
        text
    } else {
        format!("{text}.0")
    }
}

/// A generated database: rows for each table of the schema, in the schema's order.
#[derive(Debug, Clone, PartialEq)]
pub struct TestDatabase {
    pub tables: Vec<Vec<Vec<Cell>>>,
}

impl TestDatabase {
    /// The `CREATE TABLE` and `INSERT` statements that build it.
    pub fn script(&self, schema: &Schema) -> String {
        // The generator keeps declared foreign keys itself; SQLite's own check would also
        // depend on the order tables are filled in.
        let mut script = String::from("PRAGMA foreign_keys = OFF;\n");
        script.push_str(&schema.to_sql());
        for t in creation_order(schema) {
            let (table, rows) = (&schema.tables[t], &self.tables[t]);
            if rows.is_empty() {
                continue;
            }
            let values: Vec<String> = rows
                .iter()
                .map(|row| {
                    format!(
                        "({})",
                        row.iter().map(Cell::sql).collect::<Vec<_>>().join(", ")
                    )
                })
                .collect();
            script.push_str(&format!(
                "INSERT INTO {} VALUES\n  {};\n",
                quote_ident(&table.name),
                values.join(",\n  ")
            ));
        }
        script
    }

    pub fn rows(&self) -> usize {
        self.tables.iter().map(Vec::len).sum()
    }

    /// Whether every non-NULL foreign key value has its row in the referenced table.
    pub fn keys_resolve(&self, schema: &Schema) -> bool {
        schema.tables.iter().zip(&self.tables).all(|(table, rows)| {
            table.foreign_keys.iter().all(|fk| {
                let Some(parent) = schema.table_index(&fk.table) else {
                    return true;
                };
                let child_columns: Vec<Option<usize>> =
                    fk.columns.iter().map(|c| table.column_index(c)).collect();
                let parent_table = &schema.tables[parent];
                let referred: Vec<Option<usize>> = if fk.referred.is_empty() {
                    parent_table
                        .primary_key
                        .iter()
                        .map(|c| parent_table.column_index(c))
                        .collect()
                } else {
                    fk.referred
                        .iter()
                        .map(|c| parent_table.column_index(c))
                        .collect()
                };
                let parent_keys: BTreeSet<Vec<String>> = self.tables[parent]
                    .iter()
                    .map(|row| {
                        referred
                            .iter()
                            .map(|i| i.and_then(|i| row.get(i)).map_or(String::new(), Cell::key))
                            .collect()
                    })
                    .collect();
                rows.iter().all(|row| {
                    let key: Vec<Option<&Cell>> = child_columns
                        .iter()
                        .map(|i| i.and_then(|i| row.get(i)))
                        .collect();
                    key.iter().any(|c| matches!(c, None | Some(Cell::Null)))
                        || parent_keys.contains(
                            &key.iter()
                                .map(|c| c.map_or(String::new(), Cell::key))
                                .collect::<Vec<_>>(),
                        )
                })
            })
        })
    }
}

/// Values a loaded database already holds, per table and column, to mix into the pools.
pub type KnownValues = Vec<Vec<Vec<Cell>>>;

/// The shape a database takes, in turn.
#[derive(Debug, Clone, Copy, PartialEq)]
enum DatabaseShape {
    Small,
    Medium,
    OneEmpty,
    OneRow,
    Duplicates,
    Groups,
    Ties,
    Nulls,
}

const SHAPES: [DatabaseShape; 8] = [
    DatabaseShape::Small,
    DatabaseShape::Groups,
    DatabaseShape::Medium,
    DatabaseShape::Ties,
    DatabaseShape::Duplicates,
    DatabaseShape::OneEmpty,
    DatabaseShape::Nulls,
    DatabaseShape::OneRow,
];

/// Each column's values to draw from: `focus` (from the queries) and `plain`.
#[derive(Debug, Clone, Default)]
struct Pool {
    focus: Vec<Cell>,
    plain: Vec<Cell>,
}

impl Pool {
    fn add(list: &mut Vec<Cell>, cell: Cell) {
        if !list.contains(&cell) {
            list.push(cell);
        }
    }
}

/// How many databases to make, and how.
#[derive(Debug, Clone)]
pub struct Plan {
    pub seed: u64,
    pub databases: usize,
    /// Rows per table in an ordinary database, at most.
    pub max_rows: usize,
    /// Numbers that are not identifiers may have fractions even where the queries compare them
    /// with whole numbers: a schema nobody declared does not promise integers (`rating >= 3` and
    /// `rating > 2` differ on 2.5).
    pub fractional: bool,
    /// Columns held to whole numbers even so: an assumption being tried (`t.x` is a whole
    /// number).
    pub whole_numbers: Vec<ColumnKey>,
}

impl Plan {
    /// Whether an INTEGER column of `table` may be given fractions (see `fractional`): not an
    /// identifier, and not held whole by an assumption.
    pub(crate) fn fractions_in(&self, table: &SchemaTable, column: &SchemaColumn) -> bool {
        let key = (table.name.to_lowercase(), column.name.to_lowercase());
        self.fractional
            && column.kind == ColumnType::Integer
            && !id_like(&column.name)
            && !self.whole_numbers.contains(&key)
    }
}

/// Generates `plan.databases` databases for `schema`.
pub fn generate(
    schema: &Schema,
    hints: &Hints,
    known: &KnownValues,
    plan: &Plan,
) -> Vec<TestDatabase> {
    let (seed, count, max_rows) = (plan.seed, plan.databases, plan.max_rows);
    let pools = pools(schema, hints, known, plan);
    let grouped = column_set(schema, &hints.grouped, &hints.links);
    let link_keys: Vec<ColumnKey> = hints
        .links
        .iter()
        .flat_map(|(a, b)| [a.clone(), b.clone()])
        .collect();
    let linked = column_set(schema, &link_keys, &[]);
    let ordered = column_set(schema, &hints.ordered, &[]);
    let mut thresholds: Vec<usize> = hints
        .counts
        .iter()
        .filter(|n| (0..=30).contains(*n))
        .map(|n| *n as usize)
        .collect();
    thresholds.sort_unstable();
    thresholds.dedup();
    let mut random = SplitMix64::new(seed);
    let order = creation_order(schema);
    (0..count)
        .map(|index| {
            let shape = SHAPES[index % SHAPES.len()];
            let mut db = TestDatabase {
                tables: vec![Vec::new(); schema.tables.len()],
            };
            let empty_table = (index / SHAPES.len()) % schema.tables.len().max(1);
            let threshold = if thresholds.is_empty() {
                2
            } else {
                thresholds[(index / SHAPES.len()) % thresholds.len()]
            };
            for &t in &order {
                let table = &schema.tables[t];
                if table.columns.is_empty() {
                    // Nothing to fill (no SQL table has no column; a schema built in code may).
                    continue;
                }
                let rows = match shape {
                    DatabaseShape::OneEmpty if t == empty_table => 0,
                    DatabaseShape::OneRow => 1,
                    DatabaseShape::Small => 1 + random.below(3),
                    DatabaseShape::Groups => 0,
                    _ => 2 + random.below(max_rows.max(3) - 1),
                };
                let null_percent = match shape {
                    DatabaseShape::Small | DatabaseShape::Groups | DatabaseShape::Ties => 0,
                    DatabaseShape::Nulls => 40,
                    _ => 15,
                };
                let mut filler = Filler::new(schema, t, &db);
                // Every fourth database draws each column from two or three of its values, so
                // rows meet on several conditions at once (a NULL key that also passes both
                // branches' filters, a passenger with two bookings on two routes).
                let narrowed: Vec<Pool> = if index % 4 == 3 {
                    pools[t].iter().map(|p| p.narrowed(&mut random)).collect()
                } else {
                    pools[t].clone()
                };
                if shape == DatabaseShape::Groups {
                    // Groups of threshold-1, threshold and threshold+1 rows (and one of three).
                    let column = grouped
                        .get(&t)
                        .or_else(|| linked.get(&t))
                        .and_then(|c| c.first())
                        .copied()
                        .unwrap_or(0);
                    let mut sizes = vec![threshold.saturating_sub(1), threshold, threshold + 1, 3];
                    sizes.retain(|s| *s > 0);
                    // Every other time, the rows of a group differ in every other column, so
                    // `COUNT(DISTINCT x)` reaches the threshold too.
                    let distinct = (index / SHAPES.len()).is_multiple_of(2);
                    for (group, size) in sizes.into_iter().enumerate() {
                        let value = pools[t][column].pick_distinct(
                            group,
                            &mut random,
                            table.columns[column].kind,
                        );
                        for k in 0..size {
                            let mut row = filler.row(&pools[t], &mut random, 10);
                            if distinct {
                                for (c, cell) in row.iter_mut().enumerate() {
                                    if c != column && !filler.references.contains_key(&c) {
                                        *cell = pools[t][c].pick_distinct(
                                            k,
                                            &mut random,
                                            table.columns[c].kind,
                                        );
                                    }
                                }
                            }
                            row[column] = value.clone();
                            filler.push(row, &mut db.tables[t]);
                        }
                    }
                    continue;
                }
                for _ in 0..rows {
                    let mut row = filler.row(&narrowed, &mut random, null_percent);
                    if shape == DatabaseShape::Ties {
                        // Ordered columns take one of two values, so rows tie.
                        for &c in ordered.get(&t).map(Vec::as_slice).unwrap_or(&[]) {
                            let value = pools[t][c].pick_distinct(
                                random.below(2),
                                &mut random,
                                table.columns[c].kind,
                            );
                            row[c] = value;
                        }
                    }
                    filler.push(row, &mut db.tables[t]);
                }
                if shape == DatabaseShape::Duplicates && !filler.has_unique {
                    // Every other time every row twice, so a join or IN that multiplies rows
                    // meets duplicates on every side; else one or two repeated rows.
                    if random.chance(50) {
                        let twice = db.tables[t].clone();
                        db.tables[t].extend(twice);
                    } else {
                        for _ in 0..1 + random.below(2) {
                            if let Some(row) =
                                db.tables[t].get(random.below(db.tables[t].len())).cloned()
                            {
                                db.tables[t].push(row);
                            }
                        }
                    }
                }
            }
            db
        })
        .collect()
}

impl Pool {
    fn pick(&self, random: &mut SplitMix64) -> Cell {
        let from_focus = !self.focus.is_empty() && (self.plain.is_empty() || random.chance(60));
        let list = if from_focus { &self.focus } else { &self.plain };
        list.get(random.below(list.len()))
            .cloned()
            .unwrap_or(Cell::Null)
    }

    /// Two values of the focus (if any) and one plain value, drawn at random.
    fn narrowed(&self, random: &mut SplitMix64) -> Pool {
        let take = |list: &[Cell], n: usize, random: &mut SplitMix64| -> Vec<Cell> {
            let mut out = Vec::new();
            for _ in 0..n {
                if let Some(cell) = list.get(random.below(list.len())) {
                    Pool::add(&mut out, cell.clone());
                }
            }
            out
        };
        Pool {
            focus: take(&self.focus, 2, random),
            plain: take(&self.plain, 1, random),
        }
    }

    /// The `n`-th distinct value of the pool (for groups and ties).
    fn pick_distinct(&self, n: usize, random: &mut SplitMix64, kind: ColumnType) -> Cell {
        let all: Vec<&Cell> = self.focus.iter().chain(&self.plain).collect();
        match all.get(n) {
            Some(cell) => (*cell).clone(),
            None => match kind {
                ColumnType::Text | ColumnType::Date => {
                    Cell::Text(format!("g{}", n + random.below(1)))
                }
                _ => Cell::Int(100 + n as i64),
            },
        }
    }
}

/// Fills rows of one table, keeping its constraints: no NULL where not allowed, unique where
/// unique, foreign keys drawn from the referenced table's rows.
struct Filler<'a> {
    schema: &'a Schema,
    table: usize,
    nullable: Vec<bool>,
    unique: Vec<Vec<usize>>,
    seen: Vec<BTreeSet<Vec<String>>>,
    /// Column -> the values its referenced column holds.
    references: BTreeMap<usize, Vec<Cell>>,
    has_unique: bool,
}

impl<'a> Filler<'a> {
    fn new(schema: &'a Schema, table: usize, db: &TestDatabase) -> Filler<'a> {
        let t = &schema.tables[table];
        let unique: Vec<Vec<usize>> = t
            .unique_sets()
            .map(|set| {
                set.iter()
                    .filter_map(|c| t.column_index(c))
                    .collect::<Vec<_>>()
            })
            .filter(|set| !set.is_empty())
            .collect();
        let mut references = BTreeMap::new();
        for (_, pairs) in foreign_key_pairs(schema, table) {
            for (c, (parent, r)) in pairs {
                let values: Vec<Cell> = db.tables[parent]
                    .iter()
                    .filter_map(|row| row.get(r).cloned())
                    .collect();
                references.insert(c, values);
            }
        }
        Filler {
            schema,
            table,
            nullable: (0..t.columns.len()).map(|c| t.nullable(c)).collect(),
            seen: vec![BTreeSet::new(); unique.len()],
            has_unique: !unique.is_empty(),
            unique,
            references,
        }
    }

    fn row(&self, pools: &[Pool], random: &mut SplitMix64, null_percent: usize) -> Vec<Cell> {
        (0..self.nullable.len())
            .map(|c| {
                if self.nullable[c] && null_percent > 0 && random.chance(null_percent) {
                    return Cell::Null;
                }
                if let Some(values) = self.references.get(&c) {
                    // A declared foreign key points at a row that exists (or is NULL).
                    return match values.get(random.below(values.len())) {
                        Some(v) => v.clone(),
                        None if self.nullable[c] => Cell::Null,
                        None => pools[c].pick(random),
                    };
                }
                pools[c].pick(random)
            })
            .collect()
    }

    /// Adds the row unless it breaks a constraint (a repeated key, a NULL in a NOT NULL column,
    /// a key that references nothing).
    fn push(&mut self, mut row: Vec<Cell>, rows: &mut Vec<Vec<Cell>>) {
        let table = &self.schema.tables[self.table];
        for (c, cell) in row.iter_mut().enumerate() {
            if *cell == Cell::Null && !self.nullable[c] {
                *cell = match table.columns[c].kind {
                    ColumnType::Text => Cell::Text(format!("v{}", rows.len())),
                    ColumnType::Date => Cell::Text(format!("2020-01-{:02}", 1 + rows.len() % 28)),
                    ColumnType::Real => Cell::Real(rows.len() as f64 + 0.5),
                    ColumnType::Integer => Cell::Int(rows.len() as i64 + 1),
                };
            }
        }
        if self
            .references
            .iter()
            .any(|(c, values)| row[*c] != Cell::Null && !values.contains(&row[*c]))
        {
            return;
        }
        for attempt in 0..3 {
            let clash = self.unique.iter().zip(&self.seen).any(|(set, seen)| {
                let key: Vec<String> = set.iter().map(|c| row[*c].key()).collect();
                // NULLs never clash in a UNIQUE column (as in SQLite).
                !key.iter().any(|k| k == "\0null") && seen.contains(&key)
            });
            if !clash {
                for (set, seen) in self.unique.iter().zip(self.seen.iter_mut()) {
                    seen.insert(set.iter().map(|c| row[*c].key()).collect());
                }
                rows.push(row);
                return;
            }
            if attempt == 2 {
                return;
            }
            // Make the first column of the first clashing set fresh.
            let Some(&c) = self.unique.first().and_then(|s| s.first()) else {
                return;
            };
            if self.references.contains_key(&c) {
                return;
            }
            row[c] = match table.columns[c].kind {
                ColumnType::Integer => Cell::Int(1000 + rows.len() as i64 + attempt),
                ColumnType::Real => Cell::Real(1000.5 + rows.len() as f64),
                ColumnType::Text => Cell::Text(format!("u{}", rows.len())),
                ColumnType::Date => Cell::Text(format!("2019-12-{:02}", 1 + rows.len() % 28)),
            };
        }
    }
}

/// Tables referenced by foreign keys come first, so their rows exist when keys are drawn.
fn creation_order(schema: &Schema) -> Vec<usize> {
    let mut order = Vec::new();
    let mut placed = vec![false; schema.tables.len()];
    for _ in 0..schema.tables.len() {
        for (i, table) in schema.tables.iter().enumerate() {
            if placed[i] {
                continue;
            }
            let ready = table.foreign_keys.iter().all(|fk| {
                schema
                    .table_index(&fk.table)
                    .is_none_or(|p| p == i || placed[p])
            });
            if ready {
                placed[i] = true;
                order.push(i);
            }
        }
    }
    order.extend((0..schema.tables.len()).filter(|i| !placed[*i]));
    order
}

/// Table -> column indexes named in `keys` (and, for grouping, their join partners).
fn column_set(
    schema: &Schema,
    keys: &[ColumnKey],
    links: &[(ColumnKey, ColumnKey)],
) -> BTreeMap<usize, Vec<usize>> {
    let mut out: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    let mut add = |key: &ColumnKey| {
        if let Some((t, c)) = column_at(schema, key) {
            let list = out.entry(t).or_default();
            if !list.contains(&c) {
                list.push(c);
            }
        }
    };
    for key in keys {
        add(key);
    }
    for (a, b) in links {
        if keys.contains(a) || keys.contains(b) {
            add(a);
            add(b);
        }
    }
    out
}

/// Each column's pool: plain values of its type, the literals compared with it and their
/// neighbours, `LIKE` pattern variants, values a loaded database holds, all shared across
/// columns that are compared with each other.
fn pools(schema: &Schema, hints: &Hints, known: &KnownValues, plan: &Plan) -> Vec<Vec<Pool>> {
    let mut pools: Vec<Vec<Pool>> = schema
        .tables
        .iter()
        .enumerate()
        .map(|(t, table)| {
            table
                .columns
                .iter()
                .enumerate()
                .map(|(c, column)| {
                    let mut pool = Pool::default();
                    let key = (table.name.to_lowercase(), column.name.to_lowercase());
                    let fractions = plan.fractions_in(table, column);
                    for literal in hints.values.get(&key).into_iter().flatten() {
                        for cell in neighbours(literal, column.kind) {
                            Pool::add(&mut pool.focus, cell);
                        }
                        if fractions
                            && let Literal::Number(n) = literal
                            && let Ok(x) = n.parse::<f64>()
                        {
                            Pool::add(&mut pool.focus, Cell::Real(x - 0.5));
                            Pool::add(&mut pool.focus, Cell::Real(x + 0.5));
                        }
                    }
                    if fractions {
                        Pool::add(&mut pool.plain, Cell::Real(2.5));
                        Pool::add(&mut pool.plain, Cell::Real(0.25));
                    }
                    for pattern in hints.patterns.get(&key).into_iter().flatten() {
                        for cell in pattern_variants(pattern) {
                            Pool::add(&mut pool.focus, cell);
                        }
                    }
                    for cell in known.get(t).and_then(|cs| cs.get(c)).into_iter().flatten() {
                        Pool::add(&mut pool.plain, cell.clone());
                    }
                    for cell in plain_values(column.kind) {
                        Pool::add(&mut pool.plain, cell);
                    }
                    // Literals of the queries compared through expressions the inference could
                    // not attribute still make good values for columns of their kind.
                    for literal in &hints.literals {
                        if fits(literal, column.kind) {
                            Pool::add(&mut pool.plain, convert(literal, column.kind));
                        }
                    }
                    pool
                })
                .collect()
        })
        .collect();
    // Join partners (declared foreign keys too) draw from one shared pool, so joins find rows.
    let mut links: Vec<(ColumnAt, ColumnAt)> = Vec::new();
    for (a, b) in &hints.links {
        if let (Some(a), Some(b)) = (column_at(schema, a), column_at(schema, b)) {
            links.push((a, b));
        }
    }
    for t in 0..schema.tables.len() {
        for (_, pairs) in foreign_key_pairs(schema, t) {
            links.extend(pairs.into_iter().map(|(c, parent)| ((t, c), parent)));
        }
    }
    merge_links(&mut pools, schema, &links);
    // A table's one-column INTEGER primary key is SQLite's rowid: it holds whole numbers only
    // (a fraction there fails the whole database with "datatype mismatch").
    for (t, table) in schema.tables.iter().enumerate() {
        if let Some(c) = rowid_column(table) {
            let pool = &mut pools[t][c];
            pool.focus.retain(|cell| matches!(cell, Cell::Int(_)));
            pool.plain.retain(|cell| matches!(cell, Cell::Int(_)));
        }
    }
    pools
}

/// The column that is the table's rowid, if one is: the one column of an INTEGER primary key
/// (`Schema::to_sql` declares every integer column `INTEGER`).
pub(crate) fn rowid_column(table: &SchemaTable) -> Option<usize> {
    match table.primary_key.as_slice() {
        [only] => table
            .column_index(only)
            .filter(|&c| table.columns[c].kind == ColumnType::Integer),
        _ => None,
    }
}

/// Join partners share their values: each side's pool takes the other's, until nothing changes
/// (classes are small).
fn merge_links(pools: &mut [Vec<Pool>], schema: &Schema, links: &[(ColumnAt, ColumnAt)]) {
    for _ in 0..4 {
        for &(a, b) in links {
            if schema.tables[a.0].columns[a.1].kind.is_numeric()
                != schema.tables[b.0].columns[b.1].kind.is_numeric()
            {
                continue;
            }
            let merged_focus: Vec<Cell> = pools[a.0][a.1]
                .focus
                .iter()
                .chain(&pools[b.0][b.1].focus)
                .cloned()
                .collect();
            let merged_plain: Vec<Cell> = pools[a.0][a.1]
                .plain
                .iter()
                .chain(&pools[b.0][b.1].plain)
                .cloned()
                .collect();
            for (t, c) in [a, b] {
                for cell in &merged_focus {
                    Pool::add(&mut pools[t][c].focus, cell.clone());
                }
                for cell in &merged_plain {
                    Pool::add(&mut pools[t][c].plain, cell.clone());
                }
            }
        }
    }
}

fn plain_values(kind: ColumnType) -> Vec<Cell> {
    match kind {
        ColumnType::Integer => vec![Cell::Int(1), Cell::Int(2), Cell::Int(3)],
        ColumnType::Real => vec![Cell::Real(1.5), Cell::Real(2.0), Cell::Real(3.25)],
        ColumnType::Text => vec![
            Cell::Text("a".into()),
            Cell::Text("b".into()),
            Cell::Text("c".into()),
        ],
        ColumnType::Date => vec![
            Cell::Text("2020-01-01".into()),
            Cell::Text("2021-06-15".into()),
        ],
    }
}

fn fits(literal: &Literal, kind: ColumnType) -> bool {
    match literal {
        Literal::Number(_) => kind.is_numeric(),
        Literal::Text(t) => match kind {
            ColumnType::Text => true,
            ColumnType::Date => looks_like_date(t),
            _ => false,
        },
    }
}

fn convert(literal: &Literal, kind: ColumnType) -> Cell {
    match literal {
        Literal::Number(n) => match (kind, n.parse::<i64>()) {
            (ColumnType::Integer, Ok(i)) => Cell::Int(i),
            _ => n.parse::<f64>().map_or(Cell::Text(n.clone()), Cell::Real),
        },
        Literal::Text(t) => Cell::Text(t.clone()),
    }
}

/// A literal and the values just around it, in the column's kind.
pub(crate) fn neighbours(literal: &Literal, kind: ColumnType) -> Vec<Cell> {
    match (literal, kind) {
        (Literal::Number(n), ColumnType::Integer) => match n.parse::<i64>() {
            Ok(i) => vec![
                Cell::Int(i),
                Cell::Int(i.saturating_sub(1)),
                Cell::Int(i.saturating_add(1)),
            ],
            Err(_) => match n.parse::<f64>() {
                Ok(x) => vec![
                    Cell::Int(x.floor() as i64),
                    Cell::Int(x.ceil() as i64),
                    Cell::Real(x),
                ],
                Err(_) => Vec::new(),
            },
        },
        // A text column compared with a number (`year TEXT` and `year = 2014`, as in Spider's
        // schemas): SQLite compares the number as text, so the column must hold "2014" as
        // written; a REAL 2014.0 would be stored as "2014.0" and never meet it.
        (Literal::Number(n), ColumnType::Text) => {
            let mut cells = vec![Cell::Text(n.clone())];
            if let Ok(i) = n.parse::<i64>() {
                cells.extend(
                    [i.saturating_sub(1), i.saturating_add(1)].map(|i| Cell::Text(i.to_string())),
                );
            }
            cells
        }
        (Literal::Number(n), _) => match n.parse::<f64>() {
            Ok(x) => vec![
                Cell::Real(x),
                Cell::Real(x - 0.5),
                Cell::Real(x + 0.5),
                Cell::Real(x + 1.0),
            ],
            Err(_) => vec![Cell::Text(n.clone())],
        },
        (Literal::Text(t), ColumnType::Integer | ColumnType::Real) => match t.parse::<f64>() {
            Ok(x) => vec![Cell::Real(x)],
            Err(_) => vec![Cell::Text(t.clone())],
        },
        (Literal::Text(t), ColumnType::Date) if looks_like_date(t) => {
            let mut cells = vec![Cell::Text(t.clone())];
            if let Some(day) = shift_date(&t[..10], -1) {
                cells.push(Cell::Text(day));
            }
            if let Some(day) = shift_date(&t[..10], 1) {
                cells.push(Cell::Text(day));
            }
            // A year either side: well inside and well outside a range that starts there.
            for days in [-365, 365] {
                if let Some(day) = shift_date(&t[..10], days) {
                    cells.push(Cell::Text(day));
                }
            }
            if t.len() == 10 {
                cells.push(Cell::Text(format!("{t} 12:00:00")));
            }
            cells
        }
        (Literal::Text(t), _) => {
            let mut cells = vec![Cell::Text(t.clone())];
            let upper = t.to_uppercase();
            let lower = t.to_lowercase();
            for variant in [upper, lower] {
                if &variant != t {
                    cells.push(Cell::Text(variant));
                }
            }
            // Just before and just after in text order.
            if t.chars().count() > 1 {
                let mut before: String = t.chars().collect();
                before.pop();
                cells.push(Cell::Text(before));
            }
            cells.push(Cell::Text(format!("{t}x")));
            cells
        }
    }
}

/// Values that match a `LIKE` pattern in different ways, and some that almost do.
fn pattern_variants(pattern: &str) -> Vec<Cell> {
    let core: String = pattern
        .chars()
        .filter(|c| *c != '%')
        .map(|c| if c == '_' { 'x' } else { c })
        .collect();
    let mut values = vec![
        core.clone(),
        format!("{core}x"),
        format!("x{core}"),
        format!("x{core}x"),
        core.to_uppercase(),
        pattern.replace('%', "").replace('_', "y"),
        pattern.to_string(),
    ];
    values.dedup();
    values.into_iter().map(Cell::Text).collect()
}

/// `YYYY-MM-DD` moved by `days` (civil calendar).
fn shift_date(date: &str, days: i64) -> Option<String> {
    let y: i64 = date.get(0..4)?.parse().ok()?;
    let m: i64 = date.get(5..7)?.parse().ok()?;
    let d: i64 = date.get(8..10)?.parse().ok()?;
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    let n = days_from_civil(y, m, d) + days;
    let (y, m, d) = civil_from_days(n);
    Some(format!("{y:04}-{m:02}-{d:02}"))
}

fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_move_across_month_and_year_ends() {
        assert_eq!(shift_date("2020-01-01", -1).as_deref(), Some("2019-12-31"));
        assert_eq!(shift_date("2020-02-28", 1).as_deref(), Some("2020-02-29"));
        assert_eq!(shift_date("2021-02-28", 1).as_deref(), Some("2021-03-01"));
    }

    #[test]
    fn literals_bring_their_neighbours() {
        assert_eq!(
            neighbours(&Literal::Number("5".into()), ColumnType::Integer),
            [Cell::Int(5), Cell::Int(4), Cell::Int(6)]
        );
        let text = neighbours(&Literal::Text("Paris".into()), ColumnType::Text);
        assert!(
            text.contains(&Cell::Text("PARIS".into())) && text.contains(&Cell::Text("Pari".into()))
        );
        assert!(pattern_variants("a%").contains(&Cell::Text("xa".into())));
    }

    fn plan(seed: u64) -> Plan {
        Plan {
            seed,
            databases: 10,
            max_rows: 8,
            fractional: true,
            whole_numbers: Vec::new(),
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_databases() {
        let schema = Schema::from_sql(
            "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)",
            qeval_core::SqlDialect::Sqlite,
        )
        .expect("schema");
        let a = generate(&schema, &Hints::default(), &Vec::new(), &plan(7));
        assert_eq!(
            a,
            generate(&schema, &Hints::default(), &Vec::new(), &plan(7))
        );
        assert_ne!(
            a,
            generate(&schema, &Hints::default(), &Vec::new(), &plan(8))
        );
        // The primary key stays unique and never NULL.
        for db in &a {
            let ids: Vec<String> = db.tables[0].iter().map(|r| r[0].key()).collect();
            let unique: BTreeSet<&String> = ids.iter().collect();
            assert_eq!(unique.len(), ids.len());
            assert!(db.tables[0].iter().all(|r| r[0] != Cell::Null));
        }
    }
}
