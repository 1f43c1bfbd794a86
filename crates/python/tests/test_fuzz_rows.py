"""Generated result shapes through every Python entry point that takes rows: ragged, empty, wide
(past the 4,096 columns a table has), rows that are not sequences, values of every type. Each
call must answer or raise an ``Exception`` that names the problem; a ``PanicException`` (which
escapes ``except Exception``) or a dead interpreter fails.

Runs for ``QEVAL_FUZZ_SECONDS`` seconds (``cargo xtask fuzz`` gives it a share), 2 by default,
from the seed in ``QEVAL_FUZZ_SEED`` (printed, so a failure can be replayed).
"""

from __future__ import annotations

import decimal
import os
import random
import time

import qeval
from qeval.compat import bird, spider

VALUES = [
    0,
    1,
    -1,
    1.0,
    0.5,
    True,
    False,
    None,
    "",
    "a",
    "1",
    "1.0",
    2**70,
    -(2**63),
    float("nan"),
    float("inf"),
    -0.0,
    decimal.Decimal("1.5"),
    b"bytes",
    "\u00e9\u0000\ud7ff",
    3.3333333333333335,
]

ENTRY_POINTS = {
    **{f"compare {mode}": (lambda mode: lambda a, b: qeval.compare(a, b, mode=mode))(mode) for mode in
       ["f1", "seed", "bag", "set", "subset", "soft-f1"]},
    "compare bag in order": lambda a, b: qeval.compare(a, b, mode="bag", order_matters=True),
    "spider.result_eq": lambda a, b: spider.result_eq(a, b, order_matters=False),
    "spider.result_eq in order": lambda a, b: spider.result_eq(a, b, order_matters=True),
    "bird.calculate_ex": lambda a, b: bird.calculate_ex(b, a),
    "bird.calculate_f1_score": lambda a, b: bird.calculate_f1_score(b, a),
}


def row(rng: random.Random, width: int):
    cells = [rng.choice(VALUES) for _ in range(width)]
    shape = rng.random()
    if shape < 0.6:
        return tuple(cells)
    if shape < 0.85:
        return cells
    if shape < 0.9:
        return iter(cells)
    return rng.choice(["a string row", 7, None, {"a": 1}, b"xy", range(width)])


def result(rng: random.Random):
    kind = rng.random()
    if kind < 0.05:
        # Wide: around and past the most columns a table has.
        width = rng.choice([4095, 4096, 4097, 30_000])
        return [tuple(rng.choice(VALUES[:8]) for _ in range(width)) for _ in range(rng.randint(1, 2))]
    rows = rng.randint(0, 6)
    base = rng.randint(0, 5)
    ragged = kind < 0.5
    return [row(rng, rng.randint(0, 6) if ragged else base) for _ in range(rows)]


def test_generated_row_shapes_get_an_answer_or_an_exception():
    seconds = float(os.environ.get("QEVAL_FUZZ_SECONDS", "2"))
    seed = int(os.environ.get("QEVAL_FUZZ_SEED", str(random.randrange(1 << 30))))
    print(f"fuzz rows: seed {seed}, {seconds} s")
    rng = random.Random(seed)
    deadline = time.monotonic() + seconds
    calls = 0
    raised = 0
    while time.monotonic() < deadline:
        case = rng.randrange(1 << 30)
        for name, call in ENTRY_POINTS.items():
            # Made anew for each call: an iterator row is used up by the call it is given to.
            shapes = random.Random(case)
            a = result(shapes)
            b = result(random.Random(case)) if shapes.random() < 0.3 else result(shapes)
            try:
                call(a, b)
            except Exception:  # noqa: BLE001 - any named error is an answer; a panic is not
                raised += 1
            except BaseException as error:  # noqa: BLE001
                raise AssertionError(
                    f"{name} (seed {seed}, case {case}): {type(error).__name__}: {error}"
                ) from None
            calls += 1
    print(f"fuzz rows: {calls} calls, {raised} raised an exception")
    assert calls > 0
