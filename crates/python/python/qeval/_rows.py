"""Rows from the shapes results come in: lists of tuples, DataFrames, Arrow tables."""

from __future__ import annotations

from typing import Any


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
