"""Rows from the shapes results come in: lists of tuples, DataFrames, Arrow tables."""

from __future__ import annotations

from typing import Any, Callable, TypeVar

T = TypeVar("T")


def rows_of(result: Any) -> Any:
    """An iterable of row sequences for ``result``; lists and other iterables pass unchanged."""
    module = type(result).__module__.split(".")[0]
    if module == "pandas" and hasattr(result, "itertuples"):
        return result.itertuples(index=False, name=None)
    if module == "polars" and hasattr(result, "rows"):
        return result.rows()
    if module == "pyarrow" and hasattr(result, "columns") and hasattr(result, "num_rows"):
        columns = [column.to_pylist() for column in result.columns]
        return zip(*columns) if columns else [() for _ in range(result.num_rows)]
    return result


def _arrow(result: Any) -> bool:
    return hasattr(result, "__arrow_c_stream__")


def with_rows(call: Callable[[Any, Any], T], expected: Any, generated: Any) -> T:
    """``call(expected, generated)`` on the core's side. Arrow data (pyarrow tables, polars and
    pandas DataFrames) goes as is and is read from its buffers, without a Python object per
    cell; when it cannot be (a column of dates or decimals, an object column Arrow cannot
    type), its rows are read through Python instead."""
    if not (_arrow(expected) or _arrow(generated)):
        return call(expected, generated)
    try:
        return call(expected, generated)
    except Exception:  # noqa: BLE001 - any failure of the Arrow path falls back to rows
        return call(rows_of(expected), rows_of(generated))
