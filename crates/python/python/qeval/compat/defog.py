"""defog's sql-eval (``eval/eval.py``): ``compare_df`` and ``subset_df`` on pandas DataFrames.

Replace ``from eval.eval import compare_df, subset_df`` with
``from qeval.compat.defog import compare_df, subset_df``.

Both normalise a result as sql-eval does before comparing it: duplicate rows dropped, columns in
the alphabetical order of their names, rows sorted on every column unless the question asks for
an order (the words "order", "sort" or "arrange") or ``query_category`` is ``"order_by"``; then the
query's ``ORDER BY`` columns, read from its text, lead the sort and go last among the columns, in
one direction: ascending only when the first ``ORDER BY`` term says ``ASC`` and not ``DESC``. The quirks
come along: ``compare_df`` first compares the values as given, with NumPy broadcasting (a one-row
gold result equals a generated one whose every row is that row), and NaN never equals NaN there;
after normalising it fills missing values with -99999, so they then equal each other (and -99999),
and raises ``TypeError`` where a text column holds one. ``subset_df`` matches columns by their
sorted values within pandas' tolerances. Where sql-eval raises (a column mixing text and numbers
sorted alone, duplicate column names), these raise the same exception. The work is qeval-core's
``defog`` comparison, which the ``defog`` mode of ``qeval compare`` and ``qeval score`` also runs.

One difference: sql-eval's ``subset_df`` renames ``df_sub``'s duplicate columns in the caller's
DataFrame; this one leaves the caller's DataFrame as it is.
"""

from __future__ import annotations

from typing import Any, Optional

from .. import _native


def compare_df(
    df_gold: Any,
    df_gen: Any,
    query_category: str,
    question: str,
    query_gold: Optional[str] = None,
    query_gen: Optional[str] = None,
) -> bool:
    """True when the two results are the same after sql-eval's normalisation (see the module)."""
    return _native.defog_compare_df(
        _frame(df_gold), _frame(df_gen), _category(query_category), question, query_gold, query_gen
    )


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
    sub = _frame(df_sub)
    equal, unmatched = _native.defog_subset_df(
        sub, _frame(df_super), _category(query_category), question, query_super, query_sub
    )
    if verbose and unmatched is not None:
        print(f"no match for {sub[0][unmatched]}")
    return equal


def _category(query_category: Any) -> str:
    """sql-eval only compares ``query_category`` with ``"order_by"``."""
    return query_category if isinstance(query_category, str) else ""


def _frame(df: Any) -> tuple[list, list, int]:
    """``(names, columns, rows)``: each column as ``(kind, data)``, NumPy numbers as their bytes,
    pandas' Arrow-backed text as its Arrow data, and everything else as a list of Python values
    (``str`` for pandas' text type, its missing values as NaN; ``object`` otherwise)."""
    import numpy as np
    import pandas as pd

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
        text_type = isinstance(series.dtype, pd.StringDtype)
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
            columns.append(("str" if text_type else "object", cells))
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


