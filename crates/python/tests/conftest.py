"""Shared inputs: the repository's cross-check cases and the command line to agree with."""

from __future__ import annotations

import json
import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]


def crosscheck_cases(name: str) -> list[dict]:
    """The cases of ``tests/crosscheck/<name>``, rows as tuples (as ``cursor.fetchall()`` gives)."""
    cases = []
    for line in (ROOT / "tests" / "crosscheck" / name).read_text().splitlines():
        case = json.loads(line)
        case["expected"] = [tuple(row) for row in case["expected"]]
        case["generated"] = [tuple(row) for row in case["generated"]]
        cases.append(case)
    return cases


def without_clock(cards: list[dict]) -> list[dict]:
    """The cards or records without the wall-clock times they carry (a card's ``evaluated_at``, a
    metric error's ``at``): two runs of the same inputs agree on everything else, but a run that
    crosses a second boundary stamps a different second."""
    for card in cards:
        card.pop("evaluated_at", None)
        for metric in (card.get("metrics") or {}).values():
            if isinstance(metric, dict) and isinstance(metric.get("error"), dict):
                metric["error"].pop("at", None)
    return cards


@pytest.fixture(scope="session")
def cli() -> pathlib.Path:
    """The ``qeval`` binary (``QEVAL_CLI``, set by ``cargo xtask test``)."""
    path = os.environ.get("QEVAL_CLI")
    if not path:
        pytest.fail("QEVAL_CLI is not set: run these tests with `cargo xtask test`, or point it at a built qeval")
    return pathlib.Path(path)


@pytest.fixture(scope="session")
def judge_double() -> str:
    """The URL of a running test double of the LLM providers (``QEVAL_JUDGE_DOUBLE``, built and
    set by ``cargo xtask test``): real HTTP, with the providers' wire formats."""
    import subprocess

    path = os.environ.get("QEVAL_JUDGE_DOUBLE")
    if not path:
        pytest.fail("QEVAL_JUDGE_DOUBLE is not set: run these tests with `cargo xtask test`, or point it at a built qeval-judge-double")
    double = subprocess.Popen([path], stdout=subprocess.PIPE, text=True)
    try:
        yield double.stdout.readline().strip()
    finally:
        double.kill()
        double.wait()
