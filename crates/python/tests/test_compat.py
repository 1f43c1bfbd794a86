"""The drop-ins give the original functions' verdicts on every cross-check case: each case's
verdict was computed by running the evaluator's own function (``tests/crosscheck/README.md``)."""

from __future__ import annotations

from conftest import crosscheck_cases

from qeval.compat.bird import calculate_ex, calculate_f1_score
from qeval.compat.spider import result_eq


def test_spider_result_eq_on_every_case():
    cases = crosscheck_cases("bag.jsonl")
    assert len(cases) > 600
    wrong = [c["id"] for c in cases if result_eq(c["expected"], c["generated"], c.get("order_matters", False)) != c["verdict"]]
    assert wrong == []


def test_bird_calculate_ex_on_every_case():
    cases = crosscheck_cases("set.jsonl")
    assert len(cases) > 600
    wrong = [c["id"] for c in cases if calculate_ex(c["generated"], c["expected"]) != int(c["verdict"])]
    assert wrong == []


def test_bird_calculate_f1_score_on_every_case():
    cases = crosscheck_cases("soft_f1.jsonl")
    assert len(cases) > 600
    wrong = [(c["id"], c["score"]) for c in cases if calculate_f1_score(c["generated"], c["expected"]) != c["score"]]
    assert wrong == []


def test_python_equality_quirks_hold_for_python_values():
    # 1 == 1.0 == True in Python, so in Spider's and BIRD's comparisons.
    assert result_eq([(1,)], [(1.0,)], False) is True
    assert calculate_ex([(True,)], [(1,)]) == 1
    assert calculate_ex([(None,)], [(None,)]) == 1
    assert calculate_ex([("1",)], [(1,)]) == 0
    # Python compares a NaN by identity; a result's NaN is one object (pandas' numpy.nan), and
    # qeval treats every NaN as that one.
    nan = float("nan")
    assert set([(nan,)]) == set([(nan,)])
    assert calculate_ex([(nan,)], [(nan,)]) == 1
    assert result_eq([(nan, 1)], [(1, nan)], False) is True
    assert calculate_ex([(nan,)], [(None,)]) == 0
    assert isinstance(result_eq([], [], True), bool)
    assert isinstance(calculate_ex([], []), int)
    assert isinstance(calculate_f1_score([], []), float)
