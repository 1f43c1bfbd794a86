"""Benchmark (not a test): qeval's drop-ins against the peers' own functions, on the same Python
objects, in one process. Tables of 100k and 1M rows x 8 columns, generated from a fixed seed: the
gold rows, and the generated rows made apart (as two ``cursor.fetchall()`` calls make them) and
shuffled: equal, and near-miss (one cell changed). defog's functions take the same tables as pandas
DataFrames (without NULLs: a NaN makes ``compare_df`` false even on equal frames). Each figure is
the median of 3 runs and includes qeval's reading of the Python objects.

Peers: BIRD's EX is ``set(predicted) == set(ground_truth)`` and is timed always. The others are
imported from their own files in the folder ``QEVAL_PEERS`` names: ``exec_eval.py`` from
taoyds/test-suite-sql-eval (``result_eq``), ``evaluation_f1.py`` from bird-bench/mini_dev
(``calculate_f1_score``) and ``eval.py`` from defog-ai/sql-eval's ``eval/`` folder (``compare_df``,
``subset_df``; its imports of func_timeout, sqlalchemy and ``utils.creds`` must resolve). Without
them a row says the peer was not found. Prints a table; with ``QEVAL_BENCH_OUT``, also writes it
as JSON.
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
import statistics
import sys
import time

from qeval.compat.bird import calculate_ex, calculate_f1_score
from qeval.compat.defog import compare_df, subset_df
from qeval.compat.spider import result_eq

SIZES = [100_000, 1_000_000]
if os.environ.get("QEVAL_BENCH_SIZES"):
    SIZES = [int(size) for size in os.environ["QEVAL_BENCH_SIZES"].split(",")]


COLUMNS = ["id", "n", "amount", "name", "flag", "bucket", "key", "score"]


def table(rows: int, seed: int, nulls: bool = True) -> list[tuple]:
    rng = random.Random(seed)
    words = [f"name-{i}" for i in range(5_000)]
    return [
        (i, rng.randrange(1_000), round(rng.random() * 1e4, 2), rng.choice(words), rng.random() < 0.5,
         None if nulls and rng.random() < 0.1 else rng.randrange(50), f"k{i % 977}", rng.random())
        for i in range(rows)
    ]


def generated(rows: int, nulls: bool = True) -> tuple[list[tuple], list[tuple]]:
    """The generated side, equal and near-miss: the gold rows made again and shuffled."""
    equal = table(rows, 7, nulls)
    random.Random(8).shuffle(equal)
    near = equal[:]
    near[rows // 2] = near[rows // 2][:3] + ("changed",) + near[rows // 2][4:]
    return equal, near


def median_seconds(function, *args) -> tuple[float, object]:
    times, result = [], None
    for _ in range(3):
        started = time.perf_counter()
        result = function(*args)
        times.append(time.perf_counter() - started)
    return statistics.median(times), result


def frame(rows: list[tuple]):
    import pandas as pd

    return pd.DataFrame(rows, columns=COLUMNS)


def load_peer(file: str, function: str):
    folder = os.environ.get("QEVAL_PEERS")
    if not folder or not os.path.exists(os.path.join(folder, file)):
        return None
    spec = importlib.util.spec_from_file_location(file.removesuffix(".py"), os.path.join(folder, file))
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, folder)
    spec.loader.exec_module(module)
    return getattr(module, function, None)


def bird_ex(predicted_res, ground_truth_res):
    return 1 if set(predicted_res) == set(ground_truth_res) else 0


def main() -> None:
    question = "What are the amounts per name?"
    comparisons = {
        "bag (Spider result_eq)": (
            False, lambda g, p: result_eq(g, p, False), load_peer("exec_eval.py", "result_eq"), lambda f, g, p: f(g, p, False)),
        "set (BIRD calculate_ex)": (False, lambda g, p: calculate_ex(p, g), bird_ex, lambda f, g, p: f(p, g)),
        "soft-f1 (BIRD calculate_f1_score)": (
            False, lambda g, p: calculate_f1_score(p, g), load_peer("evaluation_f1.py", "calculate_f1_score"), lambda f, g, p: f(p, g)),
        "compare_df (defog)": (
            True, lambda g, p: compare_df(g, p, "group_by", question), load_peer("eval.py", "compare_df"),
            lambda f, g, p: f(g, p, "group_by", question)),
        "subset (defog subset_df)": (
            True, lambda g, p: subset_df(g, p, "group_by", question), load_peer("eval.py", "subset_df"),
            lambda f, g, p: f(g, p, "group_by", question)),
    }
    rows_out = []
    print("| comparison | rows x 8 | case | qeval | peer | peer / qeval | verdicts agree |")
    print("|---|---|---|---|---|---|---|")
    for size in SIZES:
        # Keyed by whether the comparison takes DataFrames: (gold, equal, near-miss).
        inputs = {
            False: (table(size, 7), *generated(size)),
            True: tuple(frame(side) for side in (table(size, 7, nulls=False), *generated(size, nulls=False))),
        }
        for name, (frames, ours, peer, call) in comparisons.items():
            gold, equal, near = inputs[frames]
            for case, predicted in (("equal", equal), ("near-miss", near)):
                ours_s, ours_v = median_seconds(ours, gold, predicted)
                if peer is None:
                    peer_cell, ratio, agree = "not found", "—", "—"
                    peer_s = None
                else:
                    peer_s, peer_v = median_seconds(lambda g, p: call(peer, g, p), gold, predicted)
                    peer_cell, ratio, agree = f"{peer_s:.3f} s", f"{peer_s / ours_s:.1f}x", str(bool(peer_v == ours_v))
                print(f"| {name} | {size:,} | {case} | {ours_s:.3f} s | {peer_cell} | {ratio} | {agree} |", flush=True)
                rows_out.append({"comparison": name, "rows": size, "case": case, "qeval_s": ours_s, "peer_s": peer_s})
    if os.environ.get("QEVAL_BENCH_OUT"):
        with open(os.environ["QEVAL_BENCH_OUT"], "w", encoding="utf-8") as out:
            json.dump(rows_out, out, indent=1)


if __name__ == "__main__":
    main()
