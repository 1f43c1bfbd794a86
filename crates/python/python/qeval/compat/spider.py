"""Spider's test-suite evaluation (``exec_eval.py``): ``result_eq``.

Replace ``from exec_eval import result_eq`` with ``from qeval.compat.spider import result_eq``.
"""

from __future__ import annotations

from typing import Any, Sequence

from .. import _native
from .._rows import with_rows


def result_eq(result1: Sequence[Sequence[Any]], result2: Sequence[Sequence[Any]], order_matters: bool) -> bool:
    """Whether two results are the same multiset of rows up to a permutation of columns (and in
    the same order when ``order_matters``): Spider's verdict, including its treatment of ``1``,
    ``1.0`` and ``True``, NULLs, duplicates and rows of different widths. ``result1`` is the gold
    result, ``result2`` the predicted one, as Spider calls it.
    """
    equal, _ = with_rows(lambda a, b: _native.verdict(a, b, "bag", order_matters), result1, result2)
    return equal
