"""BIRD's evaluation: ``calculate_ex`` (``evaluation_ex.py``) and ``calculate_f1_score``
(``evaluation_f1.py``, the Soft-F1 of BIRD mini-dev).

Replace ``from evaluation_ex import calculate_ex`` with
``from qeval.compat.bird import calculate_ex`` (and the same for ``calculate_f1_score``).
"""

from __future__ import annotations

from typing import Any, Sequence

from .. import _native
from .._rows import rows_of, with_rows


def calculate_ex(predicted_res: Sequence[Sequence[Any]], ground_truth_res: Sequence[Sequence[Any]]) -> int:
    """1 when the two results hold the same set of rows (``set(predicted) == set(gold)``), else 0."""
    equal, _ = with_rows(lambda a, b: _native.verdict(a, b, "set"), ground_truth_res, predicted_res)
    return int(equal)


def calculate_f1_score(predicted: Sequence[Sequence[Any]], ground_truth: Sequence[Sequence[Any]]) -> float:
    """BIRD's Soft-F1 of the predicted result against the gold one, in 0..1.

    BIRD pairs the rows of the two results by their place in ``list(set(rows))``: Python's set
    order, which follows the rows' hashes (and so, for text, the process's hash seed). This takes
    the distinct rows in that same order, from a set made as BIRD makes it, so the score is BIRD's
    in the same process. Where BIRD's own function raises on an input (unhashable rows, an empty
    row; its evaluation loop then records 0), this returns that 0.
    """
    if not _has_rows(predicted) and not _has_rows(ground_truth):
        return 1.0
    try:
        predicted_rows = list(set(rows_of(predicted)))
        ground_truth_rows = list(set(rows_of(ground_truth)))
    except TypeError:
        return 0.0
    _, score = _native.verdict(ground_truth_rows, predicted_rows, "soft-f1")
    return score


def _has_rows(result: Any) -> bool:
    """``bool(result)`` as BIRD tests it, for lists, and a row count for tables."""
    for attribute in ("num_rows", "height"):
        if isinstance(getattr(result, attribute, None), int):
            return getattr(result, attribute) > 0
    if type(result).__module__.split(".")[0] == "pandas":
        return len(result) > 0
    return bool(result)
