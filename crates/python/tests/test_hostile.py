"""Hostile and careless input through the Python package: never a panic (a ``PanicException``
escapes ``except Exception``), never a dead interpreter; an :class:`qeval.InputError` that says
what is wrong, or the peer's own verdict where the peer has one."""

from __future__ import annotations

import pytest

import qeval
from qeval.compat import spider

RAGGED = [
    [(1, 2), (3,)],
    [(None, 1.5, "a"), ("b",), ()],
    [(2,), ()],
]


@pytest.mark.parametrize("mode", ["f1", "seed", "subset"])
@pytest.mark.parametrize("rows", RAGGED)
def test_ragged_rows_in_the_table_modes_are_an_input_error_naming_the_row(mode, rows):
    with pytest.raises(qeval.InputError, match=r"expected row at index \d+ has \d+ values, not \d+ as the columns"):
        qeval.compare(rows, [(1, 2)], mode=mode)
    with pytest.raises(qeval.InputError, match=r"generated row at index \d+ has \d+ values"):
        qeval.compare([(1, 2)] * len(rows), rows, mode=mode)


@pytest.mark.parametrize("mode", ["bag", "set", "soft-f1"])
def test_ragged_rows_in_the_peer_modes_get_a_verdict(mode):
    comparison = qeval.compare([(1, 2), (3,)], [(1, 2), (3, 4)], mode=mode)
    assert comparison["equal"] is False


# Spider's own result_eq (test-suite-sql-eval, exec_eval.py, commit e97acc5) run on each case:
# its verdict, or the exception it raises. Where it raises, the drop-in raises InputError.
SPIDER_RAGGED = [
    ([(1,), (1, 2)], [(1,), (1, 2)], False, True),
    ([(1,), (1, 2)], [(1,), (2, 1)], False, False),
    ([(1,), (1, 2)], [(1, 2), (1,)], True, False),
    ([(1, 2), (1,)], [(2, 1), (1,)], False, "IndexError"),
    ([(1, 2), (1, 2, 3)], [(2, 1), (3, 2, 1)], False, "AssertionError"),
    ([(), (1,)], [(), (1,)], False, "AssertionError"),
    ([(1, 2, 3, 4), (1, 2, 3, 4, 5)], [(4, 3, 2, 1), (5, 4, 3, 2, 1)], False, False),
    ([(1, 2, 3, 4), (5, 6, 7, 8, 9)], [(1, 2, 3, 4), (9, 8, 7, 6, 5)], False, False),
    ([(1, 2), (3,)], [(1, 2), (3, 4)], False, False),
    ([(None, 1), ("a",)], [(1, None), ("b",)], False, False),
]


@pytest.mark.parametrize(("gold", "pred", "order", "verdict"), SPIDER_RAGGED)
def test_spider_result_eq_on_ragged_rows_answers_as_spider_or_raises_where_it_raises(gold, pred, order, verdict):
    if isinstance(verdict, str):
        with pytest.raises(qeval.InputError, match=verdict):
            spider.result_eq(gold, pred, order)
    else:
        assert spider.result_eq(gold, pred, order) is verdict


def test_a_row_wider_than_a_table_is_an_input_error_and_the_widest_table_compares():
    wide = [tuple(range(30_000))]
    with pytest.raises(qeval.InputError, match=r"30000 values; a result table has at most 4096 columns"):
        qeval.compare(wide, wide, mode="f1")
    widest = [tuple(i % 7 for i in range(4096))] * 20
    for mode in ["f1", "seed", "bag", "set", "subset", "soft-f1"]:
        assert qeval.compare(widest, widest, mode=mode)["equal"] is True, mode


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -1.0])
def test_a_tolerance_that_is_not_a_number_is_refused(value):
    with pytest.raises(qeval.InputError, match="tolerance takes a finite number"):
        qeval.compare([(1,)], [(1,)], mode="f1", tolerance=value)
    with pytest.raises(qeval.InputError, match="tolerance takes a finite number"):
        qeval.score_pairs([{"generated_sql": "SELECT 1", "expected_sql": "SELECT 1"}], tolerance=value)


def test_f1_aligns_unnamed_columns_within_the_tolerance():
    expected = [(3.3333333333333335, 1), (2.0, 2)]
    generated = [(1, 3.333333333333333), (2.0000000000000004, 2)]
    assert qeval.compare(expected, generated, mode="f1")["score"] == 1.0


@pytest.mark.parametrize("schema", ["hello, this is not SQL", "SELECT 1;", '{"orders": 5}', "{}"])
def test_a_schema_that_is_no_schema_is_refused(schema):
    with pytest.raises(qeval.InputError, match="schema is not a schema"):
        qeval.score_pairs([{"generated_sql": "SELECT id FROM orders", "expected_sql": "SELECT id FROM orders"}], schema=schema)
