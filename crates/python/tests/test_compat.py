"""The drop-ins give the original functions' verdicts on every cross-check case: each case's
verdict was computed by running the evaluator's own function (``tests/crosscheck/README.md``)."""

from __future__ import annotations

import importlib.util
import json
import os

import pandas as pd
import pytest
from conftest import ROOT, crosscheck_cases

from qeval.compat.bird import calculate_ex, calculate_f1_score
from qeval.compat.defog import compare_df, subset_df
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


def soft_f1_in_set_order(predicted: list, ground_truth: list) -> float:
    """BIRD's Soft-F1 as its definition reads: the distinct rows of each side in Python's set
    order, paired by place; per pair, values of one row found in the other, over the gold row's
    width; unpaired rows miss wholly. 0 where the definition divides by zero."""
    if not predicted and not ground_truth:
        return 1.0
    pred, gold = list(set(predicted)), list(set(ground_truth))
    matched = pred_only = gold_only = 0.0
    for index, gold_row in enumerate(gold):
        if index >= len(pred):
            gold_only += 1
            continue
        if not gold_row:
            return 0.0
        pred_row = pred[index]
        found = sum(value in gold_row for value in pred_row)
        matched += found / len(gold_row)
        pred_only += (len(pred_row) - found) / len(gold_row)
        gold_only += sum(value not in pred_row for value in gold_row) / len(gold_row)
    pred_only += max(len(pred) - len(gold), 0)
    precision = matched / (matched + pred_only) if matched + pred_only else 0
    recall = matched / (matched + gold_only) if matched + gold_only else 0
    return 2 * precision * recall / (precision + recall) if precision + recall else 0


def test_bird_calculate_f1_score_on_every_case():
    # The cases' `score` pairs rows in first-seen order, as qeval's soft-f1 mode does. BIRD's
    # function pairs them in Python's set order, which follows the process's hash seed (and, on
    # Python before 3.12, where None sits in memory), so its score can only be had in the same
    # process: the drop-in takes that order, as the definition above does.
    cases = crosscheck_cases("soft_f1.jsonl")
    assert len(cases) > 600
    wrong = [
        c["id"] for c in cases
        if abs(calculate_f1_score(c["generated"], c["expected"]) - soft_f1_in_set_order(c["generated"], c["expected"])) > 1e-12
    ]
    assert wrong == []
    in_order = [c for c in cases if list(dict.fromkeys(c["generated"])) == list(set(c["generated"]))
                and list(dict.fromkeys(c["expected"])) == list(set(c["expected"]))]
    assert len(in_order) > 50
    assert [c["id"] for c in in_order if calculate_f1_score(c["generated"], c["expected"]) != c["score"]] == []


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


def _regen_module():
    """The script that made the defog verdicts: its ``dataframe`` builds a case's frames as
    sql-eval was given them."""
    path = ROOT / "tests" / "crosscheck" / "regen" / "defog_verdicts.py"
    spec = importlib.util.spec_from_file_location("defog_verdicts", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


dataframe = _regen_module().dataframe


def defog_verdict(function, case: dict) -> object:
    try:
        return bool(function(
            dataframe(case["gold"]), dataframe(case["generated"]), case["query_category"], case["question"],
            case["query_gold"], case["query_gen"],
        ))
    except (TypeError, ValueError, KeyError):
        return "raises"


def test_defog_compare_df_and_subset_df_on_every_case():
    cases = [json.loads(line) for line in (ROOT / "tests" / "crosscheck" / "defog.jsonl").read_text().splitlines()]
    assert len(cases) > 700
    wrong = [
        (case["id"], name)
        for case in cases
        for name, function in (("compare_df", compare_df), ("subset_df", subset_df))
        if defog_verdict(function, case) != case[name]
    ]
    assert wrong == []


def test_defog_quirks_users_meet():
    gold = pd.DataFrame({"total": [1.5, float("nan")]})
    # compare_df fills missing values with -99999 once it has normalised the frames: NaN then
    # equals NaN, and equals -99999 too. subset_df matches missing values by place.
    assert compare_df(gold, gold.copy(), "group_by", "What is the total?") is True
    assert compare_df(gold.iloc[1:], pd.DataFrame({"total": [-99999.0]}), "group_by", "What is the total?") is True
    assert subset_df(gold, gold.copy(), "group_by", "What is the total?") is True
    # pandas' text type cannot hold -99999: a text column with a missing value raises there.
    names = pd.DataFrame({"name": pd.Series(["x", None], dtype="str")})
    with pytest.raises(TypeError):
        compare_df(names, names.iloc[::-1], "group_by", "Which names?")
    # A one-row gold result equals a generated one that repeats that row (NumPy broadcasting).
    one = pd.DataFrame({"n": [3]})
    assert compare_df(one, pd.DataFrame({"n": [3, 3, 3]}), "group_by", "How many?") is True
    # A column mixing text and numbers cannot be sorted alone: sql-eval raises, and so does this.
    mixed = pd.DataFrame({"x": pd.Series([1, "a"], dtype=object)})
    with pytest.raises(TypeError):
        compare_df(mixed, mixed.iloc[::-1], "group_by", "How many?")
    # Integers past 2^53 (ids) are sorted exactly, as pandas sorts them, though one float
    # stands for both: the same rows in another order are the same result.
    big = 2**60
    ids = pd.DataFrame({"id": [big + 1, big], "name": ["x", "y"]})
    shuffled = pd.DataFrame({"id": [big, big + 1], "name": ["y", "x"]})
    assert compare_df(ids, shuffled, "group_by", "Which ids?") is True
    assert subset_df(ids[["id"]], shuffled, "group_by", "Which ids?") is True
    assert compare_df(ids, shuffled.assign(name=["x", "y"]), "group_by", "Which ids?") is False


def test_defog_subset_df_verbose_names_the_unmatched_column(capsys):
    sub = pd.DataFrame({"name": ["x", "y"], "total": [1, 2]})
    sup = pd.DataFrame({"name": ["x", "y"], "total": [1, 3]})
    assert subset_df(sub, sup, "group_by", "Totals per name", verbose=True) is False
    assert capsys.readouterr().out == "no match for total\n"
