"""Recomputes the verdicts in ``tests/crosscheck/defog.jsonl`` by running defog's sql-eval on each case,
and writes ``tests/crosscheck/defog_results.jsonl``: the same cases as query results (rows of Python
values, made into DataFrames as sql-eval's ``query_sqlite_db`` makes them) with the verdict of
``compare_query_results`` for one gold query: ``compare_df`` with both queries, else ``subset_df``
without them.

Usage (from the repository root, with pandas and NumPy at the versions the README names):

    python tests/crosscheck/regen/defog_verdicts.py /path/to/sql-eval [--check]

``/path/to/sql-eval`` is a checkout of defog-ai/sql-eval; only ``eval/eval.py``'s ``compare_df`` and
``subset_df`` are called (its imports of database drivers are skipped, as these functions need none).
Without ``--check`` the file is rewritten with the new verdicts; with it, the cases whose verdicts
changed are listed and nothing is written.
"""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path

import pandas as pd

CASES = Path(__file__).resolve().parents[1] / "defog.jsonl"
RESULTS = Path(__file__).resolve().parents[1] / "defog_results.jsonl"


def load_eval(checkout: Path) -> types.ModuleType:
    """sql-eval's ``eval/eval.py`` as a module, without the imports only its database helpers use."""
    source = (checkout / "eval" / "eval.py").read_text()
    kept = [
        line
        for line in source.splitlines()
        if not line.startswith(("from func_timeout", "from sqlalchemy", "from utils"))
    ]
    module = types.ModuleType("sql_eval")
    exec(compile("\n".join(kept), str(checkout / "eval" / "eval.py"), "exec"), module.__dict__)
    return module


def dataframe(frame: dict) -> pd.DataFrame:
    """A case's frame: ``columns``, pandas ``dtypes`` (a null in a float column is NaN), ``rows``."""
    columns = list(zip(*frame["rows"])) if frame["rows"] else [()] * len(frame["columns"])
    series = []
    for dtype, values in zip(frame["dtypes"], columns):
        if dtype == "float64":
            values = [float("nan") if value is None else value for value in values]
        series.append(pd.Series(list(values), dtype=dtype))
    df = pd.concat(series, axis=1) if series else pd.DataFrame(index=range(len(frame["rows"])))
    df.columns = frame["columns"]
    return df


def verdict(function, case: dict) -> object:
    """True or False, or "raises" where the function raised (any exception: sql-eval's runner
    scores the query 0 with the error)."""
    try:
        return bool(function(
            dataframe(case["gold"]), dataframe(case["generated"]), case["query_category"], case["question"],
            case["query_gold"], case["query_gen"],
        ))
    except Exception:
        return "raises"


def query_result_verdict(sql_eval: types.ModuleType, case: dict) -> object:
    """``compare_query_results``' "correct" for one gold query, on DataFrames built from rows."""
    def frame(side: dict) -> pd.DataFrame:
        return pd.DataFrame([tuple(row) for row in side["rows"]], columns=side["columns"])

    try:
        gold, generated = frame(case["gold"]), frame(case["generated"])
        if sql_eval.compare_df(gold, generated, case["query_category"], case["question"], case["query_gold"], case["query_gen"]):
            return True
        return bool(sql_eval.subset_df(frame(case["gold"]), generated, case["query_category"], case["question"]))
    except Exception:
        return "raises"


def main() -> None:
    checkout, check = Path(sys.argv[1]), "--check" in sys.argv[2:]
    sql_eval = load_eval(checkout)
    cases = [json.loads(line) for line in CASES.read_text().splitlines()]
    changed = []
    for case in cases:
        for name in ("compare_df", "subset_df"):
            new = verdict(getattr(sql_eval, name), case)
            if new != case[name]:
                changed.append((case["id"], name, case[name], new))
                case[name] = new
    for change in changed:
        print(*change, sep="\t")
    print(f"{len(changed)} verdicts changed", file=sys.stderr)
    if not check:
        CASES.write_text("".join(json.dumps(case) + "\n" for case in cases))
        results = [
            {
                "id": case["id"],
                "expected": {"columns": case["gold"]["columns"], "rows": case["gold"]["rows"]},
                "generated": {"columns": case["generated"]["columns"], "rows": case["generated"]["rows"]},
                **{key: case[key] for key in ("query_category", "question", "query_gold", "query_gen")},
                "verdict": query_result_verdict(sql_eval, case),
            }
            for case in cases
        ]
        RESULTS.write_text("".join(json.dumps(case) + "\n" for case in results))


if __name__ == "__main__":
    main()
