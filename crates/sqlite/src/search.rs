//! The boundary search: when every generated database agrees, more databases are built from
//! them, each a few edits away, aimed at the boundaries the queries' comparisons draw.
//!
//! The generator seeds each column with the literals the queries compare it with and their
//! neighbours, and sizes groups around each count threshold. What it cannot reach is a boundary
//! that several values meet together: a group of exactly five rows through a join, a `SUM`
//! exactly at its threshold while a `MAX` stays under another, `b.year = a.year + 4`,
//! `3 * price` exactly 21, `MAX(x) - MIN(x)` exactly 30. Each edit below drives one such
//! quantity onto a target made from the queries' own numbers:
//!
//! - **repeat**: copies of a row until the rows sharing its group or join value number a count
//!   the queries test (`HAVING COUNT(*) >= 5`: 4, 5 and 6 rows; through a join, the rows here
//!   times the partner rows that match), keys kept unique;
//! - **align**: one row's value set to another row's plus an offset from the queries (0, ±4), so
//!   joins meet, miss by exactly the offset, and two rows of a group differ by a threshold;
//! - **split**: a group (grown to two to four rows half the time) given values that add up to a
//!   target (`SUM(x) >= 100` with three rows: 34, 33, 33), so the sum sits on its threshold while
//!   each value stays small;
//! - **set**: one value set to a target: a literal, a neighbour, or a sum, difference, product or
//!   quotient of two literals (`3 * price BETWEEN 10 AND 21`: 7); now and then zero, a small
//!   negative number or a literal's negation (`FLOOR(x)` against `CAST(x AS INTEGER)`: -2.5);
//! - **meet**: one row given another table's row's values in every column they are joined on,
//!   so they meet through a `NATURAL JOIN` or a join on several columns;
//! - **regroup**: one row moved into another row's group;
//! - **connect**: a row of every table the queries read, joined into one chain (the values of
//!   each join column copied along it, shifted by the number in `d.budget = t.year + 4`), then
//!   perhaps made all its tables hold, its first row repeated to a count, a sum through it split
//!   onto a threshold: the boundaries that need several of the edits above on the same rows;
//! - **vary**: a row copied, the copy's value of a column the queries compare with literals set
//!   to one of them or a neighbour, so it joins where the original does and passes another
//!   filter (an airline with one flight from each of two airports);
//! - **clone**: a row copied a count the queries test of times with fresh keys, the rows of
//!   other tables joined to it copied along and joined to each copy: more groups alike (four
//!   students with their grades, for `LIMIT 3` against `LIMIT 5`);
//! - **drop**: some rows of one table removed, so a row that hides a difference goes;
//! - **twin**: every row of a table copied, a column the queries sort by one step down in one
//!   copy and up in another, so two rows pass the same filters and sort apart (`ORDER BY pages
//!   DESC LIMIT 1` against ascending, under `pages > 300`).
//!
//! Where the queries join columns, **aimed candidates** come first: one per number the queries
//! compare a column with (its sum over two rows of an isolated chain) and per count they test
//! (a chain row repeated), each three times from other rows, so those boundaries do not wait
//! on the seed (`Targets::aims`).
//!
//! A random candidate takes one to three edits (one boundary at a time, and several together).
//! Every candidate is kept to the schema's constraints, and is run like a generated database.
//! The search is seeded and counted in candidates, not in time, so the same pair gets the same
//! verdict on every machine; the pair's time budget still stops it.

use std::collections::{BTreeMap, BTreeSet};

use qeval_core::{ColumnKey, ColumnType, Hints, Literal, Schema, SplitMix64};

use crate::generate::{
    Cell, ColumnAt, Plan, TestDatabase, column_at, foreign_key_pairs, neighbours, rowid_column,
};
use crate::report::BoundarySearch;

/// What the search is told about a candidate it built.
pub(crate) enum Tried {
    /// Both queries give the same result on it.
    Agree,
    /// The results differ: the search ends with this candidate.
    Differ,
    /// It could not be used (a query failed on it): the next candidate is built.
    Skip,
    /// The pair's time budget is spent: the search ends.
    Stop,
}

/// How one search went.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Searched {
    /// Candidates it may build.
    pub tries: usize,
    /// Candidates built and run.
    pub tried: usize,
    /// The candidate the results differ on, if one did.
    pub found: Option<Found>,
    /// Whether the pair's time budget stopped the search early.
    pub stopped: bool,
}

/// The candidate the results differ on.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Found {
    pub database: TestDatabase,
    /// Its number among the tries (1-based).
    pub candidate: usize,
    /// The generated database it was built from (1-based).
    pub from: usize,
}

impl Searched {
    /// The search as the report says it.
    pub fn report(&self) -> BoundarySearch {
        BoundarySearch {
            tries: self.tries,
            tried: self.tried,
            found_at: self.found.as_ref().map(|found| found.candidate),
            stopped: self.stopped,
        }
    }
}

/// A boundary an aimed candidate is built for (`Targets::aims`).
#[derive(Debug, Clone, Copy)]
enum Aim {
    /// A group of `count` rows through the chain, its row of table `first` repeated.
    Count { first: usize, count: usize },
    /// The chain's sum of a column exactly `total`.
    Sum { column: ColumnAt, total: f64 },
}

/// The columns and numbers the edits draw from, read once from the schema and the hints.
struct Targets {
    /// Columns the queries mention (compared, grouped, joined, ordered) and every numeric
    /// column: `(table, column)` indexes.
    columns: Vec<ColumnAt>,
    /// Per table, the columns rows are grouped or joined by.
    group_columns: Vec<Vec<usize>>,
    /// Each joined column's partners in other tables.
    partners: Partners,
    shifts: Shifts,
    /// Values the quantities are driven to.
    numbers: Vec<f64>,
    /// Per column, the numbers the queries compare it (or its `SUM`, `MAX`...) with, and their
    /// neighbours: what a split of that column aims at first.
    column_numbers: BTreeMap<ColumnAt, Vec<f64>>,
    /// Zero and negative values, for `set` now and then.
    signs: Vec<f64>,
    /// Offsets for `align`: 0 and each literal, both signs.
    offsets: Vec<f64>,
    /// Group sizes for `repeat`.
    counts: Vec<usize>,
    /// Per table and column: may it hold a fraction.
    fractional: Vec<Vec<bool>>,
    /// The tables edits touch: the ones the queries read (of a written schema's, perhaps
    /// many), or every table when that is not known.
    tables: Vec<usize>,
    /// The edits a random candidate draws from: the ones these queries give work to.
    edits: Vec<Edit>,
    /// Columns the queries sort by, for `twin`.
    ordered: Vec<ColumnAt>,
    /// Per column the queries compare with literals, those literals as values of the column
    /// and then their neighbours, for `vary`: `(column, values, how many are literals)`.
    column_values: Vec<(ColumnAt, Vec<Cell>, usize)>,
}

/// The edits, as the module's doc names them.
#[derive(Debug, Clone, Copy)]
enum Edit {
    Repeat,
    Align,
    Split,
    Set,
    Regroup,
    Connect,
    Meet,
    Twin,
    Vary,
    Drop,
    Clone,
}

/// Builds and runs up to `tries` candidates from `suite`; `run` runs one.
pub(crate) fn search(
    schema: &Schema,
    hints: &Hints,
    suite: &[TestDatabase],
    plan: &Plan,
    tries: usize,
    mut run: impl FnMut(&TestDatabase) -> Tried,
) -> Searched {
    let mut searched = Searched {
        tries,
        tried: 0,
        found: None,
        stopped: false,
    };
    let bases: Vec<usize> = (0..suite.len()).filter(|&i| suite[i].rows() > 0).collect();
    if bases.is_empty() || tries == 0 {
        return searched;
    }
    let targets = Targets::new(schema, hints, plan);
    // A stream of its own: the search never shifts the suite's databases.
    let mut random = SplitMix64::new(plan.seed ^ 0x5ea2_c4b0_0d5a_11e5);
    // Each aim three times, from other rows: what the aim does not set (an `AVG` beside the
    // count aimed at) is the chain's own. At most half the candidates, so the random edits
    // keep the rest.
    let once = targets.aims(schema);
    let mut aims: Vec<Aim> = once.iter().chain(&once).chain(&once).copied().collect();
    aims.truncate(tries / 2);
    // An aimed candidate's chain needs a row in every table the queries read.
    let full: Vec<usize> = bases
        .iter()
        .copied()
        .filter(|&i| {
            !aims.is_empty()
                && targets
                    .tables
                    .iter()
                    .all(|&t| !suite[i].tables[t].is_empty())
        })
        .collect();
    for attempt in 0..tries {
        let aim = aims.get(attempt).copied();
        let from = if aim.is_some() && !full.is_empty() {
            &full
        } else {
            &bases
        };
        let base = from[random.below(from.len())];
        let mut candidate = suite[base].clone();
        let changed = match aim {
            Some(aim) => targets.aim(schema, &mut candidate, aim, &mut random),
            None => {
                let edits = 1 + random.below(3);
                let mut changed = false;
                for _ in 0..edits {
                    changed |= targets.edit(schema, &mut candidate, &mut random);
                }
                changed
            }
        };
        if !changed || !keeps_constraints(schema, &candidate) {
            continue;
        }
        searched.tried += 1;
        match run(&candidate) {
            Tried::Agree | Tried::Skip => {}
            Tried::Differ => {
                searched.found = Some(Found {
                    database: candidate,
                    candidate: attempt + 1,
                    from: base + 1,
                });
                return searched;
            }
            Tried::Stop => {
                searched.stopped = true;
                return searched;
            }
        }
    }
    searched
}

impl Targets {
    fn new(schema: &Schema, hints: &Hints, plan: &Plan) -> Targets {
        let read: Vec<usize> = (0..schema.tables.len())
            .filter(|&t| hints.tables.contains(&schema.tables[t].name.to_lowercase()))
            .collect();
        let tables = if read.is_empty() {
            (0..schema.tables.len()).collect()
        } else {
            read
        };
        let (group_columns, partners, shifts) = groups_and_partners(schema, hints, &tables);
        // Some table's columns meet one other table's in two or more places.
        let links: BTreeSet<(usize, usize, usize)> = partners
            .iter()
            .flat_map(|(&(t, c), list)| list.iter().map(move |&(other, _)| (t, other, c)))
            .collect();
        let several_join_columns = links.iter().any(|&(t, other, c)| {
            links
                .iter()
                .any(|&(t2, o2, c2)| (t2, o2) == (t, other) && c2 != c)
        });
        let ordered: Vec<ColumnAt> = hints
            .ordered
            .iter()
            .filter_map(|key| column_at(schema, key))
            .filter(|(t, _)| tables.contains(t))
            .collect();
        // `connect` and `clone` only where columns are joined, `meet` only where two tables are
        // joined on several columns (elsewhere `align` does its work), `twin` only where the
        // queries sort, `vary` only where they compare a column with literals.
        let mut edits = vec![
            Edit::Repeat,
            Edit::Align,
            Edit::Split,
            Edit::Set,
            Edit::Regroup,
            Edit::Drop,
        ];
        if !partners.is_empty() {
            edits.push(Edit::Connect);
            edits.push(Edit::Clone);
            if several_join_columns {
                edits.push(Edit::Meet);
            }
        }
        if !ordered.is_empty() {
            edits.push(Edit::Twin);
        }
        let fractional = fraction_columns(schema, plan);
        let column_values: Vec<(ColumnAt, Vec<Cell>, usize)> = hints
            .values
            .iter()
            .filter_map(|(key, literals)| {
                let (t, c) = column_at(schema, key).filter(|(t, _)| tables.contains(t))?;
                let kind = schema.tables[t].columns[c].kind;
                let fits = |cell: &Cell| {
                    fractional[t][c] || !matches!(cell, Cell::Real(x) if x.fract() != 0.0)
                };
                // A literal's first neighbour is the literal itself, in the column's kind.
                let all: Vec<Vec<Cell>> = literals.iter().map(|l| neighbours(l, kind)).collect();
                let mut cells: Vec<Cell> = Vec::new();
                let add = |list: &mut Vec<Cell>, cell: &Cell| {
                    if fits(cell) && !list.contains(cell) {
                        list.push(cell.clone());
                    }
                };
                all.iter()
                    .filter_map(|n| n.first())
                    .for_each(|cell| add(&mut cells, cell));
                let exact = cells.len();
                all.iter().flatten().for_each(|cell| add(&mut cells, cell));
                (!cells.is_empty()).then_some(((t, c), cells, exact))
            })
            .collect();
        if !column_values.is_empty() {
            edits.push(Edit::Vary);
        }
        let literals: Vec<f64> = hints
            .literals
            .iter()
            .filter_map(number_of)
            .chain(hints.counts.iter().map(|&n| n as f64))
            .collect();
        // Zero, small negatives and a fraction below zero, and each literal's negation: what
        // tells `FLOOR(x)` from `CAST(x AS INTEGER)` and `ABS(x)` from `x`; the generator draws
        // no negative number of its own.
        let signs = distinct(
            [0.0, -1.0, -2.5]
                .into_iter()
                .chain(literals.iter().map(|x| -x))
                .collect(),
        );
        let offsets = distinct(
            std::iter::once(0.0)
                .chain(literals.iter().flat_map(|&x| [x, -x]))
                .collect(),
        );
        let mut counts: Vec<usize> = hints
            .counts
            .iter()
            .filter(|&&n| (0..=30).contains(&n))
            .flat_map(|&n| [n - 1, n, n + 1])
            .filter(|&n| n > 0)
            .map(|n| n as usize)
            .chain([2, 3])
            .collect();
        counts.sort_unstable();
        counts.dedup();
        let column_numbers = hints
            .values
            .iter()
            .filter_map(|(key, literals)| {
                let numbers: Vec<f64> = literals
                    .iter()
                    .filter_map(number_of)
                    .flat_map(|x| [x, x - 1.0, x + 1.0])
                    .collect();
                Some((column_at(schema, key)?, distinct(numbers)))
            })
            .filter(|(_, numbers)| !numbers.is_empty())
            .collect();
        Targets {
            columns: target_columns(schema, hints)
                .into_iter()
                .filter(|(t, _)| tables.contains(t))
                .collect(),
            group_columns,
            partners,
            shifts,
            numbers: combined(&literals),
            column_numbers,
            signs,
            offsets,
            counts,
            fractional,
            tables,
            edits,
            ordered,
            column_values,
        }
    }

    /// One edit, chosen at random; whether it changed the database.
    fn edit(&self, schema: &Schema, db: &mut TestDatabase, random: &mut SplitMix64) -> bool {
        match self.edits[random.below(self.edits.len())] {
            Edit::Repeat => self.repeat(schema, db, random),
            Edit::Align => self.align(schema, db, random),
            Edit::Split => self.split(schema, db, random, None),
            Edit::Set => self.set(schema, db, random),
            Edit::Regroup => self.regroup(db, random),
            Edit::Connect => self.connect(schema, db, random),
            Edit::Meet => self.meet(db, random),
            Edit::Twin => self.twin(schema, db, random),
            Edit::Vary => self.vary(schema, db, random),
            Edit::Drop => self.drop(db, random),
            Edit::Clone => self.clone_rows(schema, db, random),
        }
    }

    /// A row copied with fresh keys, a count the queries test of times, each copy with copies
    /// of the rows of other tables joined to it, joined to the copy: more groups or joined
    /// rows alike. `... GROUP BY s.id HAVING AVG(e.grade) > 3 ORDER BY ... LIMIT 3` against
    /// `LIMIT 5` differ only where four students or more pass, each with their grades.
    fn clone_rows(&self, schema: &Schema, db: &mut TestDatabase, random: &mut SplitMix64) -> bool {
        let (Some((t, r)), Some(&copies)) = (self.pick_row(db, random), pick(&self.counts, random))
        else {
            return false;
        };
        let row = db.tables[t][r].clone();
        for _ in 0..copies {
            copy_row(schema, db, t, &row, 1);
            let Some(copy) = db.tables[t].last().cloned() else {
                return false;
            };
            for (g, value) in copy.iter().enumerate() {
                if *value == row[g] {
                    continue;
                }
                let partners: BTreeSet<ColumnAt> = self.partners_of((t, g)).collect();
                for (pt, pc) in partners {
                    if pt == t || self.shifts.contains_key(&((t, g), (pt, pc))) {
                        continue;
                    }
                    let joined: Vec<Vec<Cell>> = db.tables[pt]
                        .iter()
                        .filter(|o| o[pc] == row[g])
                        .cloned()
                        .collect();
                    for partner in joined {
                        copy_row_holding(schema, db, (pt, pc), &partner, value);
                    }
                }
            }
        }
        copies > 0
    }

    /// Some rows of one table removed, each with even odds (one at least, one kept at least):
    /// a difference one row shows can be hidden by another (`... INTERSECT ...` over names two
    /// airlines share, `NOT IN`, `MAX`), and the generated databases are built full.
    fn drop(&self, db: &mut TestDatabase, random: &mut SplitMix64) -> bool {
        let Some((t, keep)) = self.pick_row(db, random) else {
            return false;
        };
        let before = db.tables[t].len();
        let mut r = 0;
        db.tables[t].retain(|_| {
            r += 1;
            r - 1 == keep || random.chance(50)
        });
        db.tables[t].len() < before
    }

    /// A row copied, the copy's value of a column the queries compare with literals set to one
    /// of them or a neighbour: a row that joins and groups where the original does and falls on
    /// the other side of one filter. `... WHERE source = 'OSL' INTERSECT ... WHERE source =
    /// 'LIM'` against `... WHERE dest = 'LIM'` differ only on an airline with flights that pass
    /// different filters.
    fn vary(&self, schema: &Schema, db: &mut TestDatabase, random: &mut SplitMix64) -> bool {
        let Some(&((t, c), ref cells, exact)) = pick(&self.column_values, random) else {
            return false;
        };
        // Half the time a row that holds one of the values already (one that passes a filter)
        // is copied once per other literal, since a neighbour may be no key the parent holds;
        // else any row, once, with any of the values.
        let holding: Vec<usize> = (0..db.tables[t].len())
            .filter(|&r| cells.contains(&db.tables[t][r][c]))
            .collect();
        let (r, values) = match pick(&holding, random) {
            Some(&r) if random.chance(50) => (r, cells[..exact].to_vec()),
            _ => match (index_below(db.tables[t].len(), random), pick(cells, random)) {
                (Some(r), Some(value)) => (r, vec![value.clone()]),
                _ => return false,
            },
        };
        let original = db.tables[t][r].clone();
        let mut changed = false;
        for value in values.into_iter().filter(|value| *value != original[c]) {
            let mut row = original.clone();
            row[c] = value;
            copy_row(schema, db, t, &row, 1);
            add_parent(schema, db, t, c);
            changed = true;
        }
        changed
    }

    /// Every row of a table the queries sort by a column of copied twice, the copies' values of
    /// that column one step down and one up (text: one copy, a character longer): two rows that
    /// pass the same filters and differ where the queries sort. `ORDER BY pages DESC LIMIT 1`
    /// against `ORDER BY pages LIMIT 1` under `pages > 300` differ only on two such rows, and
    /// the generator seeds one value above 300, 301. Every row, since which ones pass is the
    /// queries' to say.
    fn twin(&self, schema: &Schema, db: &mut TestDatabase, random: &mut SplitMix64) -> bool {
        let Some(&(t, c)) = pick(&self.ordered, random) else {
            return false;
        };
        let rows = db.tables[t].clone();
        let mut changed = false;
        for row in rows {
            let twins = match (&row[c], schema.tables[t].columns[c].kind) {
                (Cell::Int(x), _) => [-1.0, 1.0].map(|step| self.number(t, c, *x as f64 + step)),
                (Cell::Real(x), _) => [-1.0, 1.0].map(|step| self.number(t, c, x + step)),
                (Cell::Text(text), ColumnType::Text) => {
                    [None, Some(Cell::Text(format!("{text}0")))]
                }
                _ => [None, None],
            };
            for value in twins.into_iter().flatten() {
                let mut twin = row.clone();
                twin[c] = value;
                copy_row(schema, db, t, &twin, 1);
                changed = true;
            }
        }
        changed
    }

    /// A chain of rows, one per table the queries read, that meets through every join: from
    /// one row, each partner table's row (one picked) takes the values of the columns the two
    /// are joined on, shifted where one is compared with the other plus a number
    /// (`d.budget = t.year + 4`). Half the time the chain is then all its tables hold; half
    /// the time its first row is repeated to a count the queries test; half the time a sum
    /// through it is split onto a threshold. A group of exactly five rows through a `NATURAL
    /// JOIN` and a `SUM` through two joins are what edits made one at a time at random rows
    /// rarely line up.
    fn connect(&self, schema: &Schema, db: &mut TestDatabase, random: &mut SplitMix64) -> bool {
        let Some((first, r)) = self.pick_row(db, random) else {
            return false;
        };
        let (mut chain, mut changed) = self.link(db, first, r, random);
        // Half the time the chain is all its tables hold, so that no other row adds to its
        // groups: a count through it is then exactly the copies below.
        if random.chance(50) {
            changed |= isolate(db, &mut chain);
        }
        let r = chain[&first];
        // Copied as it is, so the copies meet the chain too: a group of `count` rows through it.
        if random.chance(50)
            && let Some(&count) = pick(&self.counts, random)
            && count > 1
        {
            let row = db.tables[first][r].clone();
            copy_row(schema, db, first, &row, count - 1);
            changed = true;
        }
        if random.chance(50) {
            changed |= self.split(schema, db, random, Some(&chain));
        }
        changed
    }

    /// The chain `connect` starts from row `r` of table `first`: a row of each table reached
    /// through the joins (one picked), given the joined values. The chain (a row per table) and
    /// whether a value changed.
    fn link(
        &self,
        db: &mut TestDatabase,
        first: usize,
        r: usize,
        random: &mut SplitMix64,
    ) -> (BTreeMap<usize, usize>, bool) {
        let mut chain = BTreeMap::from([(first, r)]);
        let mut queue = vec![first];
        let mut changed = false;
        while let Some(t) = queue.pop() {
            for &c in &self.group_columns[t] {
                for (pt, pc) in self.partners_of((t, c)) {
                    if pt == t || db.tables[pt].is_empty() {
                        continue;
                    }
                    let pr = *chain.entry(pt).or_insert_with(|| {
                        queue.push(pt);
                        random.below(db.tables[pt].len())
                    });
                    let shift = self.shifts.get(&((t, c), (pt, pc)));
                    let value = match (&db.tables[t][chain[&t]][c], shift) {
                        (Cell::Int(x), Some(by)) => self.number(pt, pc, *x as f64 + by),
                        (Cell::Real(x), Some(by)) => self.number(pt, pc, x + by),
                        (value, _) => Some(value.clone()),
                    };
                    if let Some(value) = value
                        && self.holds(pt, pc, &value)
                        && db.tables[pt][pr][pc] != value
                    {
                        db.tables[pt][pr][pc] = value;
                        changed = true;
                    }
                }
            }
        }
        (chain, changed)
    }

    /// The boundaries the queries name, one aimed candidate each, tried before the random
    /// edits: through a chain of joined rows that is all its tables hold, each count the
    /// queries test (its first row repeated, from each table in turn) and each number they
    /// compare a column with (the column's value split over two rows, so a `SUM` sits on the
    /// number while a `MAX` stays under it). At random such a boundary takes several edits
    /// landing together; aimed, it takes one candidate whatever the seed. Only where the
    /// queries join columns, as `connect`.
    fn aims(&self, schema: &Schema) -> Vec<Aim> {
        if self.partners.is_empty() {
            return Vec::new();
        }
        let counts = self.tables.iter().flat_map(|&first| {
            self.counts
                .iter()
                .filter(|&&count| count > 1)
                .map(move |&count| Aim::Count { first, count })
        });
        let sums = self
            .column_numbers
            .iter()
            .filter(|((t, c), _)| {
                self.tables.contains(t) && schema.tables[*t].columns[*c].kind.is_numeric()
            })
            .flat_map(|(&column, numbers)| {
                numbers.iter().map(move |&total| Aim::Sum { column, total })
            });
        // The sums first: a number the queries compare that very column with is the most
        // particular aim, and where there are more aims than candidates the first are kept.
        sums.chain(counts).collect()
    }

    /// One aimed candidate: the chain from a row of the aim's table, alone in its tables, then
    /// the aim's count or sum.
    fn aim(
        &self,
        schema: &Schema,
        db: &mut TestDatabase,
        aim: Aim,
        random: &mut SplitMix64,
    ) -> bool {
        let first = match aim {
            Aim::Count { first, .. } => first,
            Aim::Sum { column, .. } => column.0,
        };
        let Some(r) = index_below(db.tables[first].len(), random) else {
            return false;
        };
        // No NULL on the chain: a NULL join value meets nothing, and `COUNT(x)` skips one.
        fill_nulls(schema, db, first, r);
        let (mut chain, _) = self.link(db, first, r, random);
        for (&t, &row) in &chain {
            fill_nulls(schema, db, t, row);
        }
        isolate(db, &mut chain);
        let row = db.tables[first][0].clone();
        match aim {
            Aim::Count { count, .. } => copy_row(schema, db, first, &row, count - 1),
            Aim::Sum {
                column: (t, c),
                total,
            } => {
                let group = self.group_columns[t].first().copied();
                copy_row(schema, db, t, &row, 1);
                let total = match group {
                    Some(g) => total / self.join_multiplier(db, t, g, &row[g]),
                    None => total,
                };
                let members = group_of(&db.tables[t], group, &row);
                return self.spread(db, (t, c), total, &members);
            }
        }
        true
    }

    /// One row given another table's row's values in every column the two are joined on, so
    /// that they meet through a join on several columns at once (`NATURAL JOIN`, `USING (a,
    /// b)`), which one aligned value at a time rarely reaches.
    fn meet(&self, db: &mut TestDatabase, random: &mut SplitMix64) -> bool {
        let Some((t, r)) = self.pick_row(db, random) else {
            return false;
        };
        let links: Vec<(usize, ColumnAt)> = self.group_columns[t]
            .iter()
            .flat_map(|&c| {
                self.partners
                    .get(&(t, c))
                    .into_iter()
                    .flatten()
                    .filter(|(pt, _)| *pt != t)
                    .map(move |&partner| (c, partner))
            })
            .collect();
        let Some(&(_, (other, _))) = pick(&links, random) else {
            return false;
        };
        let Some(o) = index_below(db.tables[other].len(), random) else {
            return false;
        };
        let mut changed = false;
        for &(c, (pt, pc)) in links.iter().filter(|(_, (pt, _))| *pt == other) {
            let value = db.tables[pt][o][pc].clone();
            if value != Cell::Null && self.holds(t, c, &value) && db.tables[t][r][c] != value {
                db.tables[t][r][c] = value;
                changed = true;
            }
        }
        changed
    }

    /// Copies of a row until the rows sharing its group value number one of `counts`.
    fn repeat(&self, schema: &Schema, db: &mut TestDatabase, random: &mut SplitMix64) -> bool {
        let Some((t, r)) = self.pick_row(db, random) else {
            return false;
        };
        let mut row = db.tables[t][r].clone();
        let group = pick(&self.group_columns[t], random).copied();
        let partner = group.and_then(|g| {
            self.partners
                .get(&(t, g))
                .and_then(|p| pick(p, random))
                .copied()
        });
        // Half the time the copies join: their value is one the partner column holds.
        if let (Some(g), Some((pt, pc))) = (group, partner)
            && random.chance(50)
            && let Some(pr) = index_below(db.tables[pt].len(), random)
            && self.holds(t, g, &db.tables[pt][pr][pc])
        {
            row[g] = db.tables[pt][pr][pc].clone();
        }
        let size = group_of(&db.tables[t], group, &row).len();
        let Some(&count) = pick(&self.counts, random) else {
            return false;
        };
        // Through a join the group is this table's rows times the partner's that match: with
        // two partner rows, a count of 6 takes 3 rows here.
        let matching = match (group, partner) {
            (Some(g), Some((pt, pc))) => db.tables[pt].iter().filter(|o| o[pc] == row[g]).count(),
            _ => 0,
        };
        let target = match matching {
            0 | 1 => count,
            m if count % m == 0 => count / m,
            _ => return false,
        };
        if target <= size {
            return false;
        }
        copy_row(schema, db, t, &row, target - size);
        true
    }

    /// One row's value set to another row's (of any table) plus an offset.
    fn align(&self, schema: &Schema, db: &mut TestDatabase, random: &mut SplitMix64) -> bool {
        let Some(&(t1, c1)) = pick(&self.columns, random) else {
            return false;
        };
        let Some(r1) = index_below(db.tables[t1].len(), random) else {
            return false;
        };
        let numeric = schema.tables[t1].columns[c1].kind.is_numeric();
        // Half the time the same column of another row (a self-join's `b.year = a.year + 4`,
        // a group's `MAX(x) - MIN(x)`), and then half the time a row of the same group; else
        // any column of the same kind.
        let (t2, c2) = if random.chance(50) {
            (t1, c1)
        } else {
            let alike: Vec<&ColumnAt> = self
                .columns
                .iter()
                .filter(|(t, c)| schema.tables[*t].columns[*c].kind.is_numeric() == numeric)
                .collect();
            match pick(&alike, random) {
                Some(&&column) => column,
                None => return false,
            }
        };
        let group: Vec<usize> = match pick(&self.group_columns[t1], random) {
            Some(&g) if t2 == t1 && random.chance(50) => {
                group_of(&db.tables[t1], Some(g), &db.tables[t1][r1])
                    .into_iter()
                    .filter(|&o| o != r1)
                    .collect()
            }
            _ => (0..db.tables[t2].len()).collect(),
        };
        let Some(&r2) = pick(&group, random) else {
            return false;
        };
        let source = db.tables[t2][r2][c2].clone();
        let value = match (source, schema.tables[t1].columns[c1].kind) {
            (Cell::Null, _) => return false,
            (Cell::Text(text), ColumnType::Text | ColumnType::Date) => Some(Cell::Text(text)),
            (Cell::Int(x), ColumnType::Integer | ColumnType::Real) => {
                self.number(t1, c1, x as f64 + self.offset(random))
            }
            (Cell::Real(x), ColumnType::Integer | ColumnType::Real) => {
                self.number(t1, c1, x + self.offset(random))
            }
            _ => return false,
        };
        let Some(value) = value else {
            return false;
        };
        db.tables[t1][r1][c1] = value;
        true
    }

    /// A group's values (one numeric column) set to add up to a target; the group of a row of
    /// `chain` (a row per table) when one is given.
    fn split(
        &self,
        schema: &Schema,
        db: &mut TestDatabase,
        random: &mut SplitMix64,
        chain: Option<&BTreeMap<usize, usize>>,
    ) -> bool {
        // Mostly a column the queries compare with a number (its `SUM`, `MAX`...): of a written
        // schema's many numeric columns, the one a threshold is about.
        let compared = random.chance(75);
        let numeric: Vec<&ColumnAt> = self
            .columns
            .iter()
            .filter(|(t, c)| schema.tables[*t].columns[*c].kind.is_numeric())
            .filter(|column| !compared || self.column_numbers.contains_key(column))
            .filter(|(t, _)| chain.is_none_or(|chain| chain.contains_key(t)))
            .collect();
        let Some(&&(t, c)) = pick(&numeric, random) else {
            return false;
        };
        // Half the time a number the queries compare this very column with (`SUM(x) > 100`).
        // Through a chain, always: it was built for the threshold.
        let totals = match self.column_numbers.get(&(t, c)) {
            Some(own) if chain.is_some() || random.chance(50) => own,
            _ => &self.numbers,
        };
        let Some(&total) = pick(totals, random) else {
            return false;
        };
        let Some(r) = chain
            .and_then(|chain| chain.get(&t).copied())
            .or_else(|| index_below(db.tables[t].len(), random))
        else {
            return false;
        };
        let group = pick(&self.group_columns[t], random).copied();
        let row = db.tables[t][r].clone();
        // Half the time the group first grows to two to four rows, so the sum can sit on its
        // threshold while each value stays under another (`SUM(x) >= 100 AND MAX(x) < 50`).
        let size = 2 + random.below(3);
        let members = group_of(&db.tables[t], group, &row).len();
        if random.chance(50) && members < size {
            copy_row(schema, db, t, &row, size - members);
        }
        let members = group_of(&db.tables[t], group, &row);
        // A group of one row here (its column unique, say) can still be several rows through a
        // join: half the time a partner table's matching row is copied instead, so the sum is
        // this value times their count.
        if let (1, Some(g)) = (members.len(), group)
            && random.chance(50)
        {
            self.grow_partner(schema, db, (t, g), &row[g], size, random);
        }
        // Half the time the sum is taken through the joins: each value here is counted once
        // per matching row of every partner table, so the share shrinks by their product.
        let total = match group {
            Some(g) if chain.is_some() || random.chance(50) => {
                total / self.join_multiplier(db, t, g, &row[g])
            }
            _ => total,
        };
        self.spread(db, (t, c), total, &members)
    }

    /// Column `c` of the rows `members` of table `t` set to add up to `total`: every member
    /// gets an even share but the last, which takes what is left, so the sum is exactly
    /// `total` and no value is far above the others.
    fn spread(
        &self,
        db: &mut TestDatabase,
        (t, c): ColumnAt,
        total: f64,
        members: &[usize],
    ) -> bool {
        let m = members.len() as f64;
        let share = if self.fractional[t][c] {
            total / m
        } else {
            (total / m).floor()
        };
        let last = total - share * (m - 1.0);
        for (k, &o) in members.iter().enumerate() {
            let x = if k + 1 == members.len() { last } else { share };
            match self.number(t, c, x) {
                Some(value) => db.tables[t][o][c] = value,
                None => return false,
            }
        }
        true
    }

    /// Copies a row of a partner table of column `g` of table `t` that holds `value`, until
    /// `size` of its rows hold it.
    fn grow_partner(
        &self,
        schema: &Schema,
        db: &mut TestDatabase,
        (t, g): ColumnAt,
        value: &Cell,
        size: usize,
        random: &mut SplitMix64,
    ) {
        let partners: Vec<ColumnAt> = self
            .partners_of((t, g))
            .filter(|&(pt, pc)| pt != t && db.tables[pt].iter().any(|o| o[pc] == *value))
            .collect();
        let Some(&(pt, pc)) = pick(&partners, random) else {
            return;
        };
        let matching: Vec<usize> = (0..db.tables[pt].len())
            .filter(|&o| db.tables[pt][o][pc] == *value)
            .collect();
        if let Some(&first) = matching.first()
            && matching.len() < size
        {
            let partner = db.tables[pt][first].clone();
            copy_row(schema, db, pt, &partner, size - matching.len());
        }
    }

    /// The columns `column` is joined to, as the queries list them (one may come more than once,
    /// once per place the queries join them).
    fn partners_of(&self, column: ColumnAt) -> impl Iterator<Item = ColumnAt> + '_ {
        self.partners.get(&column).into_iter().flatten().copied()
    }

    /// A row of a table the edits touch.
    fn pick_row(&self, db: &TestDatabase, random: &mut SplitMix64) -> Option<(usize, usize)> {
        let tables: Vec<usize> = self
            .tables
            .iter()
            .copied()
            .filter(|&t| !db.tables[t].is_empty())
            .collect();
        let &t = pick(&tables, random)?;
        Some((t, random.below(db.tables[t].len())))
    }

    /// How many times a row of table `t` whose column `g` holds `value` is counted through the
    /// joins: the product, over the partner tables, of their rows that hold it too (1 when
    /// none does).
    fn join_multiplier(&self, db: &TestDatabase, t: usize, g: usize, value: &Cell) -> f64 {
        let mut tables: Vec<ColumnAt> = self.partners_of((t, g)).collect();
        tables.sort_unstable();
        tables.dedup_by_key(|(pt, _)| *pt);
        tables
            .iter()
            .filter(|(pt, _)| *pt != t)
            .map(|&(pt, pc)| db.tables[pt].iter().filter(|o| o[pc] == *value).count())
            .filter(|&n| n > 0)
            .product::<usize>() as f64
    }

    /// One value set to a target number.
    fn set(&self, schema: &Schema, db: &mut TestDatabase, random: &mut SplitMix64) -> bool {
        let targets = if random.chance(25) {
            &self.signs
        } else {
            &self.numbers
        };
        let (Some(&(t, c)), Some(&x)) = (pick(&self.columns, random), pick(targets, random)) else {
            return false;
        };
        if !schema.tables[t].columns[c].kind.is_numeric() {
            return false;
        }
        let (Some(r), Some(value)) = (
            index_below(db.tables[t].len(), random),
            self.number(t, c, x),
        ) else {
            return false;
        };
        db.tables[t][r][c] = value;
        true
    }

    /// One row moved into another row's group.
    fn regroup(&self, db: &mut TestDatabase, random: &mut SplitMix64) -> bool {
        let Some((t, r)) = self.pick_row(db, random) else {
            return false;
        };
        let (Some(&g), Some(other)) = (
            pick(&self.group_columns[t], random),
            index_below(db.tables[t].len(), random),
        ) else {
            return false;
        };
        let value = db.tables[t][other][g].clone();
        if db.tables[t][r][g] == value {
            return false;
        }
        db.tables[t][r][g] = value;
        true
    }

    /// Whether column `c` of table `t` may take `cell` as it is (no NULL: the search adds none).
    fn holds(&self, t: usize, c: usize, cell: &Cell) -> bool {
        match cell {
            Cell::Null => false,
            Cell::Int(_) | Cell::Text(_) => true,
            Cell::Real(x) => x.fract() == 0.0 || self.fractional[t][c],
        }
    }

    fn offset(&self, random: &mut SplitMix64) -> f64 {
        pick(&self.offsets, random).copied().unwrap_or(0.0)
    }

    /// `x` as a value of column `c` of table `t`: `None` for a fraction where the column holds
    /// whole numbers.
    fn number(&self, t: usize, c: usize, x: f64) -> Option<Cell> {
        if !x.is_finite() {
            None
        } else if x.fract() == 0.0 && x.abs() < 1e15 {
            Some(Cell::Int(x as i64))
        } else if self.fractional[t][c] {
            Some(Cell::Real(x))
        } else {
            None
        }
    }
}

/// The columns the queries mention (compared, grouped, joined, ordered) and every numeric one:
/// the hints do not name a column inside arithmetic or an aggregate (`b.year = a.year + 4`,
/// `MAX(score) - MIN(score)`).
fn target_columns(schema: &Schema, hints: &Hints) -> Vec<ColumnAt> {
    let mentioned = hints
        .values
        .keys()
        .chain(&hints.grouped)
        .chain(&hints.ordered)
        .chain(hints.links.iter().flat_map(|(a, b)| [a, b]))
        .chain(hints.joins.iter().flat_map(|(a, b)| [a, b]))
        .filter_map(|key| column_at(schema, key));
    let numeric = (0..schema.tables.len()).flat_map(|t| {
        (0..schema.tables[t].columns.len())
            .filter(move |&c| schema.tables[t].columns[c].kind.is_numeric())
            .map(move |c| (t, c))
    });
    mentioned
        .chain(numeric)
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect()
}

/// Each joined column's partners in other tables.
type Partners = BTreeMap<ColumnAt, Vec<ColumnAt>>;

/// What a partner's value is a column's plus, for columns compared with another plus a number
/// (`d.budget = t.year + 4`: from `t.year` to `d.budget`, 4; back, -4).
type Shifts = BTreeMap<(ColumnAt, ColumnAt), f64>;

/// Per table the columns rows are grouped or joined by, and each joined column's partners:
/// columns compared with each other (with the shift between them where one is compared with
/// the other plus a number), and columns of the same name in two tables (what NATURAL JOIN and
/// USING join on).
fn groups_and_partners(
    schema: &Schema,
    hints: &Hints,
    tables: &[usize],
) -> (Vec<Vec<usize>>, Partners, Shifts) {
    let index = |key: &ColumnKey| column_at(schema, key).filter(|(t, _)| tables.contains(t));
    let mut partners = Partners::new();
    let compared = hints.links.iter().chain(&hints.joins);
    for (a, b) in compared.filter_map(|(a, b)| Some((index(a)?, index(b)?))) {
        partners.entry(a).or_default().push(b);
        partners.entry(b).or_default().push(a);
    }
    let mut shifts = Shifts::new();
    for (a, b, k) in &hints.shifted {
        let (Some(a), Some(b)) = (index(a), index(b)) else {
            continue;
        };
        for (from, to, by) in [(b, a, *k), (a, b, -*k)] {
            shifts.insert((from, to), by);
            partners.entry(from).or_default().push(to);
        }
    }
    for &t in tables {
        for (c, column) in schema.tables[t].columns.iter().enumerate() {
            for &other in tables.iter().filter(|&&other| other != t) {
                if let Some(oc) = schema.tables[other].column_index(&column.name) {
                    partners.entry((t, c)).or_default().push((other, oc));
                }
            }
        }
    }
    let mut group_columns = vec![Vec::new(); schema.tables.len()];
    let grouped = hints.grouped.iter().filter_map(index);
    for (t, c) in grouped.chain(partners.keys().copied()) {
        if !group_columns[t].contains(&c) {
            group_columns[t].push(c);
        }
    }
    (group_columns, partners, shifts)
}

/// The values quantities are driven to: each literal and its neighbours, and the sum,
/// differences, product and quotients of two (`3 * price = 21`: 7).
fn combined(literals: &[f64]) -> Vec<f64> {
    let mut numbers = Vec::new();
    for (i, &a) in literals.iter().enumerate().take(12) {
        numbers.extend([a, a - 1.0, a + 1.0]);
        for &b in literals.iter().skip(i + 1).take(12) {
            numbers.extend([a + b, a - b, b - a, a * b]);
            if b != 0.0 {
                numbers.push(a / b);
            }
            if a != 0.0 {
                numbers.push(b / a);
            }
        }
    }
    distinct(numbers)
}

/// Per table and column: may it hold a fraction. A REAL column may; an INTEGER one where the
/// generator gives it fractions too (`Plan::fractions_in`); a rowid never.
fn fraction_columns(schema: &Schema, plan: &Plan) -> Vec<Vec<bool>> {
    schema
        .tables
        .iter()
        .map(|table| {
            let rowid = rowid_column(table);
            table
                .columns
                .iter()
                .enumerate()
                .map(|(c, column)| {
                    rowid != Some(c)
                        && (column.kind == ColumnType::Real || plan.fractions_in(table, column))
                })
                .collect()
        })
        .collect()
}

/// Each NULL of row `r` of table `t` given a value its column holds in another row, or a
/// fresh one.
fn fill_nulls(schema: &Schema, db: &mut TestDatabase, t: usize, r: usize) {
    for c in 0..db.tables[t][r].len() {
        if db.tables[t][r][c] != Cell::Null {
            continue;
        }
        let rows = &db.tables[t];
        let value = rows
            .iter()
            .map(|row| &row[c])
            .find(|cell| **cell != Cell::Null)
            .cloned()
            .unwrap_or_else(|| fresh(rows, c, schema.tables[t].columns[c].kind, 0));
        db.tables[t][r][c] = value;
    }
}

/// Where column `c` of table `t` is a foreign key of one column, a row of the parent table
/// holding its value in the last row of `t`, when none does: a copy of the parent's first row
/// with that key, so the value a row was given does not break the key.
fn add_parent(schema: &Schema, db: &mut TestDatabase, t: usize, c: usize) {
    let Some(value) = db.tables[t].last().map(|row| row[c].clone()) else {
        return;
    };
    for (fk, pairs) in foreign_key_pairs(schema, t) {
        let ([_], &[(child, (p, pc))]) = (fk.columns.as_slice(), pairs.as_slice()) else {
            continue;
        };
        if child != c || value == Cell::Null || db.tables[p].iter().any(|row| row[pc] == value) {
            continue;
        }
        if let Some(first) = db.tables[p].first().cloned() {
            copy_row_holding(schema, db, (p, pc), &first, &value);
        }
    }
}

/// A copy of `row` appended to its table, keys made fresh (`copy_row`), then holding `value`
/// in `column`: a partner's copy joined to a clone, a parent row for a new key.
fn copy_row_holding(
    schema: &Schema,
    db: &mut TestDatabase,
    (t, c): ColumnAt,
    row: &[Cell],
    value: &Cell,
) {
    copy_row(schema, db, t, row, 1);
    if let Some(added) = db.tables[t].last_mut() {
        added[c] = value.clone();
    }
}

/// Each table of `chain` left holding only its chain row; whether a row went.
fn isolate(db: &mut TestDatabase, chain: &mut BTreeMap<usize, usize>) -> bool {
    let mut changed = false;
    for (&t, row) in chain.iter_mut() {
        changed |= db.tables[t].len() > 1;
        db.tables[t] = vec![db.tables[t][*row].clone()];
        *row = 0;
    }
    changed
}

/// The rows of `rows` in `row`'s group: those holding its value in column `group`, or all of
/// them when there is no group column.
fn group_of(rows: &[Vec<Cell>], group: Option<usize>, row: &[Cell]) -> Vec<usize> {
    (0..rows.len())
        .filter(|&o| group.is_none_or(|g| rows[o][g] == row[g]))
        .collect()
}

/// Appends `copies` copies of `row` to table `t`, each key made fresh.
fn copy_row(schema: &Schema, db: &mut TestDatabase, t: usize, row: &[Cell], copies: usize) {
    let table = &schema.tables[t];
    let unique: BTreeSet<usize> = table
        .unique_sets()
        .filter_map(|set| set.first())
        .filter_map(|name| table.column_index(name))
        .collect();
    for copy in 0..copies {
        let mut new = row.to_vec();
        for &c in &unique {
            new[c] = fresh(&db.tables[t], c, table.columns[c].kind, copy);
        }
        db.tables[t].push(new);
    }
}

/// A value column `c` does not hold yet, for a copied row's key.
fn fresh(rows: &[Vec<Cell>], c: usize, kind: ColumnType, copy: usize) -> Cell {
    let taken = |cell: &Cell| rows.iter().any(|row| &row[c] == cell);
    (0..)
        .map(|n| match kind {
            ColumnType::Integer => Cell::Int(5000 + (copy + n) as i64),
            ColumnType::Real => Cell::Real(5000.5 + (copy + n) as f64),
            ColumnType::Text => Cell::Text(format!("copy{}", copy + n)),
            ColumnType::Date => Cell::Text(format!("2018-01-{:02}", 1 + (copy + n) % 28)),
        })
        .take(64)
        .find(|cell| !taken(cell))
        .unwrap_or(Cell::Null)
}

/// Whether every key is still unique, every NOT NULL column filled and every foreign key
/// resolved.
fn keeps_constraints(schema: &Schema, db: &TestDatabase) -> bool {
    let unique = schema.tables.iter().zip(&db.tables).all(|(table, rows)| {
        table.unique_sets().all(|set| {
            let columns: Vec<usize> = set.iter().filter_map(|c| table.column_index(c)).collect();
            let mut seen = BTreeSet::new();
            rows.iter().all(|row| {
                let key: Vec<String> = columns.iter().map(|&c| row[c].key()).collect();
                columns.iter().any(|&c| row[c] == Cell::Null) || seen.insert(key)
            })
        })
    });
    let filled = schema.tables.iter().zip(&db.tables).all(|(table, rows)| {
        rows.iter().all(|row| {
            row.iter()
                .enumerate()
                .all(|(c, cell)| *cell != Cell::Null || table.nullable(c))
        })
    });
    // A rowid holds whole numbers only.
    let rowids = schema.tables.iter().zip(&db.tables).all(|(table, rows)| {
        rowid_column(table).is_none_or(|c| {
            rows.iter()
                .all(|row| matches!(row[c], Cell::Int(_) | Cell::Null))
        })
    });
    unique && filled && rowids && db.keys_resolve(schema)
}

fn pick<'a, T>(items: &'a [T], random: &mut SplitMix64) -> Option<&'a T> {
    index_below(items.len(), random).map(|i| &items[i])
}

fn index_below(n: usize, random: &mut SplitMix64) -> Option<usize> {
    (n > 0).then(|| random.below(n))
}

/// A literal's number, when it is one of a size a value can take.
fn number_of(literal: &Literal) -> Option<f64> {
    match literal {
        Literal::Number(text) => text
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite() && x.abs() < 1e9),
        Literal::Text(_) => None,
    }
}

fn distinct(mut numbers: Vec<f64>) -> Vec<f64> {
    numbers.retain(|x| x.is_finite());
    numbers.sort_by(f64::total_cmp);
    numbers.dedup();
    numbers
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::database::Database;
    use crate::generate::generate;
    use qeval_core::{SqlDialect, hints_for_schema, parse_sql};

    const SCHEMA: &str = "CREATE TABLE teams (team_id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
        CREATE TABLE players (player_id INTEGER PRIMARY KEY, team_id INTEGER NOT NULL REFERENCES teams (team_id), goals INTEGER, rating REAL)";
    const QUERY: &str = "SELECT t.name FROM teams t JOIN players p ON p.team_id = t.team_id GROUP BY t.name HAVING COUNT(*) >= 5 AND SUM(p.goals) > 100 AND MAX(p.rating) - MIN(p.rating) < 2.5";

    fn setting() -> (Schema, Hints, Vec<TestDatabase>, Plan) {
        let schema = Schema::from_sql(SCHEMA, SqlDialect::Sqlite).expect("schema");
        let query = parse_sql(QUERY, SqlDialect::Sqlite, Default::default()).expect("query");
        let hints = hints_for_schema(&schema, &query, &query);
        let plan = Plan {
            seed: 3,
            databases: 16,
            max_rows: 6,
            fractional: false,
            whole_numbers: Vec::new(),
        };
        let suite = generate(&schema, &hints, &Vec::new(), &plan);
        (schema, hints, suite, plan)
    }

    /// Every candidate, as the search hands them over.
    fn candidates(tries: usize) -> Vec<TestDatabase> {
        let (schema, hints, suite, plan) = setting();
        let mut seen = Vec::new();
        search(&schema, &hints, &suite, &plan, tries, |db| {
            seen.push(db.clone());
            Tried::Agree
        });
        seen
    }

    #[test]
    fn every_candidate_keeps_the_schema_and_sqlite_builds_it() {
        let (schema, ..) = setting();
        let seen = candidates(300);
        assert!(seen.len() > 100, "{} candidates of 300", seen.len());
        for db in &seen {
            assert!(db.keys_resolve(&schema));
            let script = db
                .script(&schema)
                .replace("foreign_keys = OFF", "foreign_keys = ON");
            if let Err(e) = Database::scratch(&script) {
                panic!("{e}:\n{script}");
            }
        }
    }

    #[test]
    fn candidates_reach_the_queries_boundaries() {
        let (schema, ..) = setting();
        let seen = candidates(300);
        let players = schema.table_index("players").expect("players");
        let groups = |db: &TestDatabase| -> BTreeMap<String, Vec<Vec<Cell>>> {
            let mut groups: BTreeMap<String, Vec<Vec<Cell>>> = BTreeMap::new();
            for row in &db.tables[players] {
                groups.entry(row[1].key()).or_default().push(row.clone());
            }
            groups
        };
        let some_group = |test: &dyn Fn(&[Vec<Cell>]) -> bool| {
            seen.iter().any(|db| groups(db).values().any(|g| test(g)))
        };
        let number = |cell: &Cell| match cell {
            Cell::Int(i) => Some(*i as f64),
            Cell::Real(x) => Some(*x),
            _ => None,
        };
        assert!(
            some_group(&|g| g.len() == 5),
            "a team of exactly five players"
        );
        assert!(
            some_group(&|g| g.iter().filter_map(|r| number(&r[2])).sum::<f64>() == 100.0),
            "a team whose goals add up to exactly 100"
        );
        assert!(
            some_group(&|g| {
                let ratings: Vec<f64> = g.iter().filter_map(|r| number(&r[3])).collect();
                ratings.iter().any(|a| ratings.iter().any(|b| a - b == 2.5))
            }),
            "two ratings of one team exactly 2.5 apart"
        );
    }

    #[test]
    fn the_same_seed_builds_the_same_candidates() {
        assert_eq!(candidates(50), candidates(50));
    }

    #[test]
    fn a_difference_or_the_budget_ends_the_search() {
        let (schema, hints, suite, plan) = setting();
        let mut runs = 0;
        let found = search(&schema, &hints, &suite, &plan, 100, |_| {
            runs += 1;
            if runs == 7 {
                Tried::Differ
            } else {
                Tried::Agree
            }
        });
        assert_eq!(found.tried, 7);
        assert!(
            found
                .found
                .as_ref()
                .is_some_and(|found| found.candidate >= 7 && found.from >= 1)
        );
        let stopped = search(&schema, &hints, &suite, &plan, 100, |_| Tried::Stop);
        assert_eq!(
            (stopped.tried, stopped.stopped, stopped.found),
            (1, true, None)
        );
    }
}
