"""defog's sql-eval (``eval/eval.py``): ``compare_df`` and ``subset_df`` on pandas DataFrames.

Replace ``from eval.eval import compare_df, subset_df`` with
``from qeval.compat.defog import compare_df, subset_df``.

Both normalise a result as sql-eval does before comparing it: duplicate rows dropped, columns in
the alphabetical order of their names, rows sorted on every column unless the question asks for
an order (the words "order", "sort" or "arrange") or ``query_category`` is ``"order_by"``; then the
query's ``ORDER BY`` columns, read from its text, lead the sort and go last among the columns, in
the one direction its first ``ASC``/``DESC`` gives (descending when it names none). The quirks
come along: ``compare_df`` first compares the values as given, with NumPy broadcasting (a one-row
gold result equals a generated one whose every row is that row), and NaN never equals NaN there;
``subset_df`` matches columns by their sorted values within pandas' tolerances. Where sql-eval
raises (a column mixing text and numbers sorted alone, duplicate column names), these raise too.
"""

from __future__ import annotations

import re
from typing import Any, Optional

from .. import _native

_ORDER_WORDS = re.compile(r"\b(order|sort|arrange)\b", re.IGNORECASE)
_ORDER_BY_CLAUSE = re.compile(r"ORDER BY[\s\S]*", re.IGNORECASE)
_ORDER_BY_TERMS = re.compile(r"(?<=ORDER BY)(.*?)(?=;|,|\)|$)", re.IGNORECASE)
_NOT_COLUMNS = {"desc", "asc", "nulls", "last", "first", "limit"}


def compare_df(
    df_gold: Any,
    df_gen: Any,
    query_category: str,
    question: str,
    query_gold: Optional[str] = None,
    query_gen: Optional[str] = None,
) -> bool:
    """True when the two results are the same after sql-eval's normalisation (see the module)."""
    gold, gen = _frame(df_gold), _frame(df_gen)
    plans = [_plan(gold[0], query_category, question, query_gold), _plan(gen[0], query_category, question, query_gen)]
    equal = _native.defog_compare_df(gold[1:], gen[1:], *[_or_none(plan) for plan in plans])
    return _raise_unplanned(equal, plans)


def subset_df(
    df_sub: Any,
    df_super: Any,
    query_category: str,
    question: str,
    query_super: Optional[str] = None,
    query_sub: Optional[str] = None,
    verbose: bool = False,
) -> bool:
    """True when every column of ``df_sub`` matches a distinct column of ``df_super`` (the same
    values once sorted, floats within ``rtol=1e-5``) and the matched columns hold the same rows
    after normalisation. With ``verbose``, says which column found no match, as sql-eval does.
    """
    sub, sup = _frame(df_sub), _frame(df_super)
    # The matched columns of df_super take df_sub's names, so both plans read df_sub's names.
    plans = [_plan(sub[0], query_category, question, query_sub), _plan(sub[0], query_category, question, query_super)]
    equal, unmatched = _native.defog_subset_df(sub[1:], sup[1:], *[_or_none(plan) for plan in plans])
    if verbose and unmatched is not None:
        print(f"no match for {sub[0][unmatched]}")
    return _raise_unplanned(equal, plans)


def _or_none(plan: Any) -> Any:
    return None if isinstance(plan, Exception) else plan


def _raise_unplanned(verdict: Optional[bool], plans: list) -> bool:
    """The verdict; None when the comparison needed a normalisation that sql-eval could not do
    (its error is raised now, as sql-eval raises it only when it gets that far)."""
    if verdict is None:
        raise next(plan for plan in plans if isinstance(plan, Exception))
    return verdict


def _frame(df: Any) -> tuple[list, list, int]:
    """``(names, columns, rows)``: each column as ``(kind, data)``, NumPy numbers as their bytes,
    pandas' Arrow-backed text as its Arrow data, and everything else as a list of Python values
    (pandas' missing text as NaN)."""
    import numpy as np

    names = list(df.columns)
    columns = []
    for index in range(df.shape[1]):
        series = df.iloc[:, index]
        text = _arrow_text(series)
        if text is not None:
            columns.append(("text", text))
            continue
        kind = getattr(series.dtype, "kind", "O")
        values = series.to_numpy()
        if kind == "i" or (kind == "u" and (len(values) == 0 or values.max() < 2**63)):
            columns.append(("int", np.ascontiguousarray(values, dtype=np.int64).tobytes()))
        elif kind == "f":
            columns.append(("float", np.ascontiguousarray(values, dtype=np.float64).tobytes()))
        elif kind == "b" and values.dtype == np.bool_:
            columns.append(("bool", np.ascontiguousarray(values).tobytes()))
        else:
            if values.dtype != object:
                values = series.to_numpy(dtype=object)
            cells = values.tolist()
            if series.hasnans and getattr(series.dtype, "na_value", None) is not None:
                # Extension types (text, nullable numbers) hold pd.NA or NaN for a missing value;
                # pandas' comparisons treat it as NaN.
                cells = [float("nan") if _missing(cell) else cell for cell in cells]
            columns.append(("object", cells))
    return names, columns, len(df)


def _arrow_text(series: Any) -> Any:
    """A pandas text column kept by Arrow (the ``str`` dtype with pyarrow installed, or
    ``string[pyarrow]``) as a one-column Arrow table, read without a Python object per cell;
    None for any other column."""
    import pandas as pd

    if not (isinstance(series.dtype, pd.StringDtype) and series.dtype.storage == "pyarrow"):
        return None
    import pyarrow as pa

    return pa.table([series.array.__arrow_array__()], names=["text"])


def _missing(cell: Any) -> bool:
    import pandas as pd

    return cell is not None and pd.isna(cell)


def _plan(names: list, query_category: str, question: str, sql: Optional[str]) -> Any:
    """What sql-eval's ``normalize_table`` does to a frame with these column names: the columns
    it keeps in order (``order``), and its ``sort``: key columns and ascending, or None. Indices are positions in
    ``names``. Where sql-eval would raise, the exception (returned, not raised)."""
    try:
        return _plan_or_raise(names, query_category, question, sql)
    except (TypeError, ValueError) as err:
        return err


def _plan_or_raise(names: list, query_category: str, question: str, sql: Optional[str]) -> dict:
    if len(set(names)) != len(names):
        raise ValueError("cannot reindex on an axis with duplicate labels")
    ordered = sorted(names)
    position = {name: index for index, name in enumerate(names)}
    asks_order = query_category == "order_by" or _ORDER_WORDS.search(question.lower())
    if not asks_order:
        return {"order": [position[name] for name in ordered], "sort": ([position[name] for name in ordered], True)}
    clause = _ORDER_BY_CLAUSE.search(sql) if sql else None
    if not clause:
        return {"order": [position[name] for name in ordered], "sort": None}
    terms = _ORDER_BY_TERMS.findall(clause.group(0))
    words = [word.strip().rsplit(".", 1)[-1] for word in (terms[0].split() if terms else [])]
    upper = [word.upper() for word in words]
    ascending = "DESC" not in upper and "ASC" in upper
    words = [word.strip().replace(",", "").replace("(", "") for word in words]
    keys = [word for word in words if word.lower() not in _NOT_COLUMNS]
    rest = [name for name in ordered if name not in keys]
    keys = [word for word in keys if word in ordered]
    return {"order": [position[name] for name in rest + keys], "sort": ([position[name] for name in keys + rest], ascending)}
