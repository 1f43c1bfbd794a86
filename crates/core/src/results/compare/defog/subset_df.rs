//! `subset_df(df_sub, df_super, query_category, question, query_super, query_sub)`.

use super::frame::{Frame, Series};
use super::normalization::{Asked, Normalization};
use super::normalize::{
    normalize_both, rows_agree, same_distinct_rows, same_sorted, series_cell_eq, sort_both,
};
use super::sort::{Sorted, check_sortable};
use super::{ErrorClass, PythonError, Spread};
use crate::results::Value;
use crate::results::python as py_values;

/// `subset_df`'s verdict, and the first column of `df_sub` that found no match (sql-eval prints
/// its name when `verbose`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Subset {
    pub equal: bool,
    pub unmatched: Option<usize>,
}

/// `subset_df`: each column of `sub` matched, in order, with the first unmatched column of `sup`
/// holding the same sorted values (`assert_series_equal`); then the matched frames normalised and
/// compared. Duplicate column names are first renamed `name_i` (`deduplicate_columns`) on both
/// sides; the matched columns are then taken from `sup` under their renamed names, which raises a
/// `KeyError` where a renamed column of `sup` matched (the original has no such name).
pub fn subset_df(
    sub: &Frame,
    sup: &Frame,
    asked: &Asked<'_>,
    query_super: Option<&str>,
    query_sub: Option<&str>,
    spread: &impl Spread,
) -> Result<Subset, PythonError> {
    if sub.rows == 0 || sub.columns.is_empty() {
        return Ok(Subset {
            equal: false,
            unmatched: None,
        });
    }
    // Every column is sorted up front; each is checked for what sql-eval cannot sort when
    // sql-eval would sort it, so the same error comes at the same point.
    let (sub_sorted, sup_sorted) = sort_both(sub, sup, spread);
    let mut sup_checked = vec![false; sup.columns.len()];
    let mut unmatched: Vec<usize> = (0..sup.columns.len()).collect();
    let mut matched = Vec::with_capacity(sub.columns.len());
    for (index, column) in sub.columns.iter().enumerate() {
        let mut checked = false;
        let mut found = None;
        for (slot, &candidate) in unmatched.iter().enumerate() {
            if !checked {
                check_sortable(column)?;
                checked = true;
            }
            if !sup_checked[candidate] {
                check_sortable(&sup.columns[candidate])?;
                sup_checked[candidate] = true;
            }
            let theirs = &sup.columns[candidate];
            let exact = column.exact() || theirs.exact();
            if same_sorted(
                (column, &sub_sorted[index]),
                (theirs, &sup_sorted[candidate]),
                exact,
            ) {
                found = Some(slot);
                break;
            }
        }
        let Some(slot) = found else {
            return Ok(Subset {
                equal: false,
                unmatched: Some(index),
            });
        };
        matched.push(unmatched.remove(slot));
    }
    // The matched columns of `sup` take `sub`'s (renamed) names, so both plans read those names;
    // sql-eval normalises `sub` before it takes the matched columns from `sup`.
    let names = deduplicated(&sub.names);
    let sub_plan = Normalization::new(&names, asked, query_sub)?;
    let matched = taken_from_original(sup, matched)?;
    let sup_plan = Normalization::new(&names, asked, query_super)?;
    let projected: Vec<&Series> = matched.iter().map(|&index| &sup.columns[index]).collect();
    // Cells equal exactly are equal within pandas' tolerance too: when the distinct rows are the
    // same, so is the verdict, without sorting. Otherwise numbers may still match within it.
    if sub_plan.order == sup_plan.order
        && same_distinct_rows(
            (&sub.view(), sub.rows, &sub_plan),
            (&projected, sup.rows, &sup_plan),
            spread,
        )? == Some(true)
    {
        return Ok(Subset {
            equal: true,
            unmatched: None,
        });
    }
    let projected_sorted: Vec<&Sorted> = matched.iter().map(|&index| &sup_sorted[index]).collect();
    let (sub_rows, sup_rows) = normalize_both(
        (
            &sub.view(),
            &sub_sorted.iter().collect::<Vec<_>>(),
            sub.rows,
            &sub_plan,
        ),
        (&projected, &projected_sorted, sup.rows, &sup_plan),
        spread,
    )?;
    if sub_rows.len() != sup_rows.len() || sub_plan.order != sup_plan.order {
        return Ok(Subset {
            equal: false,
            unmatched: None,
        });
    }
    let pairs: Vec<(&Series, &Series)> = sub_plan
        .order
        .iter()
        .map(|&column| (&sub.columns[column], projected[column]))
        .collect();
    let equal = rows_agree(&pairs, &sub_rows, &sup_rows, series_cell_eq, spread);
    Ok(Subset {
        equal,
        unmatched: None,
    })
}

/// `deduplicate_columns`: every name that occurs more than once becomes `f"{name}_{i}"`, `i` its
/// position.
fn deduplicated(names: &[Value]) -> Vec<Value> {
    names
        .iter()
        .enumerate()
        .map(|(index, name)| {
            let repeated = names
                .iter()
                .enumerate()
                .any(|(other, them)| other != index && py_values::eq(name, them));
            if repeated {
                Value::Text(format!("{}_{index}", python_str(name)).into())
            } else {
                name.clone()
            }
        })
        .collect()
}

/// Python's `str()` of a column name.
fn python_str(name: &Value) -> String {
    let mut text = String::new();
    // Writing into a String cannot fail.
    let _ = py_values::write_str(name, &mut text);
    text
}

/// `df_super[matched_columns]`: the matched columns (positions in `sup`) looked up in `sup` by
/// the names its deduplicated copy gave them. A renamed column is found only where the original
/// has a column of that name (then that one is taken); otherwise pandas raises `KeyError`.
fn taken_from_original(sup: &Frame, matched: Vec<usize>) -> Result<Vec<usize>, PythonError> {
    let renamed = deduplicated(&sup.names);
    let mut taken = Vec::with_capacity(matched.len());
    let mut missing = Vec::new();
    for index in matched {
        if py_values::eq(&renamed[index], &sup.names[index]) {
            taken.push(index);
        } else if let Some(other) = sup
            .names
            .iter()
            .position(|name| py_values::eq(name, &renamed[index]))
        {
            taken.push(other);
        } else {
            missing.push(format!("'{}'", python_str(&renamed[index])));
        }
    }
    if missing.is_empty() {
        Ok(taken)
    } else {
        Err(PythonError::new(
            ErrorClass::KeyError,
            format!(
                "\"None of [Index([{}])] are in the [columns]\"",
                missing.join(", ")
            ),
        ))
    }
}
