"""BIRD's evaluation: ``calculate_ex`` (``evaluation_ex.py``) and ``calculate_f1_score``
(``evaluation_f1.py``, the Soft-F1 of BIRD mini-dev).

Replace ``from evaluation_ex import calculate_ex`` with
``from qeval.compat.bird import calculate_ex`` (and the same for ``calculate_f1_score``).
"""

from __future__ import annotations

from typing import Any, Sequence

from .. import _native
from .._rows import with_rows


def calculate_ex(predicted_res: Sequence[Sequence[Any]], ground_truth_res: Sequence[Sequence[Any]]) -> int:
    """1 when the two results hold the same set of rows (``set(predicted) == set(gold)``), else 0."""
    equal, _ = with_rows(lambda a, b: _native.verdict(a, b, "set"), ground_truth_res, predicted_res)
    return int(equal)


def calculate_f1_score(predicted: Sequence[Sequence[Any]], ground_truth: Sequence[Sequence[Any]]) -> float:
    """BIRD's Soft-F1 of the predicted result against the gold one, in 0..1.

    Where BIRD's own function raises on an input (its evaluation loop then records 0), this
    returns that 0.
    """
    _, score = with_rows(lambda a, b: _native.verdict(a, b, "soft-f1"), ground_truth, predicted)
    return score
