"""The LLM judge from Python (``qeval.Judge``) against a local double of the providers: the same
records and scorecards as the command line's ``--judge``, its caches, and its failures."""

from __future__ import annotations

import json
import shutil
import subprocess
import urllib.request

import pytest

import qeval
from conftest import ROOT, without_clock


def stats(url: str) -> dict:
    with urllib.request.urlopen(f"{url}/_stats") as answer:
        return json.load(answer)


def reset(url: str) -> None:
    urllib.request.urlopen(urllib.request.Request(f"{url}/_reset", method="POST")).close()


def example_run(tmp_path):
    folder = tmp_path / "example-run"
    shutil.copytree(ROOT / "static" / "example-run", folder)
    run_dir = folder / "run-2026-11-20T14-30-00"
    (run_dir / "evaluation-results.jsonl").unlink()
    return run_dir


def records(path) -> list[dict]:
    return without_clock([json.loads(line) for line in path.read_text().splitlines()])


def test_run_with_a_judge_writes_the_records_qeval_run_writes(cli, judge_double, tmp_path):
    run_dir = example_run(tmp_path)
    flags = ["--judge", "openai", "--judge-model", "double", "--judge-url", judge_double, "--no-cache"]
    subprocess.run([cli, "run", run_dir, "--output", tmp_path / "cli.jsonl", *flags], capture_output=True, check=True)
    reset(judge_double)
    report = qeval.run(run_dir, judge=qeval.Judge("openai", "double", url=judge_double, cache=False))
    ours, theirs = records(run_dir / "evaluation-results.jsonl"), records(tmp_path / "cli.jsonl")
    assert ours == theirs and len(ours) > 3
    # The judge answered every question this run asked: its verdicts are in the records.
    asked = stats(judge_double)["requests"]
    assert asked > 0 and report["judge"]["calls"] == asked
    assert report["judge"]["errors"] == 0 and report["judge"]["cache_hits"] == 0
    assert "double" in report["judge"]["judge"]
    # The double's reasoning for queries that differ is what the records explain.
    assert "The queries differ." in json.dumps(ours)


def test_a_second_run_takes_the_verdicts_from_the_disk_cache(judge_double, tmp_path):
    run_dir = example_run(tmp_path)
    judge = qeval.Judge("openai", "cached", url=judge_double, cache_dir=tmp_path / "cache")
    reset(judge_double)
    first = qeval.run(run_dir, judge=judge)
    made = stats(judge_double)["requests"]
    assert made > 0 and first["judge"]["calls"] == made
    second = qeval.run(run_dir, judge=judge)
    assert stats(judge_double)["requests"] == made
    assert second["judge"]["calls"] == 0 and second["judge"]["cache_hits"] == first["judge"]["calls"]


def test_score_pairs_with_a_judge_gives_qeval_scores_scorecards(cli, judge_double, tmp_path):
    pairs = ROOT / "static" / "examples" / "pairs.jsonl"
    out = subprocess.run(
        [cli, "score", "--pairs", pairs, "--judge", "anthropic", "--judge-model", "double", "--judge-url", judge_double, "--no-cache"],
        capture_output=True, text=True, check=True,
    ).stdout
    theirs = [json.loads(line) for line in out.splitlines()]
    ours = qeval.score_pairs(pairs.read_text().splitlines(), judge=qeval.Judge("anthropic", "double", url=judge_double, cache=False))
    assert without_clock(ours) == without_clock(theirs) and len(ours) > 3


def test_a_failing_judge_leaves_the_structural_judges_scores(judge_double, tmp_path):
    run_dir = example_run(tmp_path)
    plain = qeval.run(run_dir)
    plain_records = records(run_dir / "evaluation-results.jsonl")
    report = qeval.run(run_dir, judge=qeval.Judge("openai", "fault-500", url=judge_double, cache=False))
    judged = records(run_dir / "evaluation-results.jsonl")
    assert report["judge"]["errors"] > 0 and report["summary"]["tests"] == plain["summary"]["tests"]
    # Where the judge failed, the structural judge's score stands, and the record says why.
    assert "LLM judge failed (LLM judge HTTP 500" in json.dumps(judged)
    for with_judge, without in zip(judged, plain_records):
        assert with_judge["qas_evaluation"]["semantic_score"] == without["qas_evaluation"]["semantic_score"]
        assert with_judge["qas_evaluation"]["execution_score"] == without["qas_evaluation"]["execution_score"]


def test_judge_settings_are_checked_before_any_call(judge_double, tmp_path):
    run_dir = example_run(tmp_path)
    with pytest.raises(qeval.InputError, match="unknown judge provider"):
        qeval.run(run_dir, judge=qeval.Judge("nobody", "m", url=judge_double))
    with pytest.raises(qeval.InputError, match="judge concurrency"):
        qeval.run(run_dir, judge=qeval.Judge("openai", "m", url=judge_double, concurrency=0))
    with pytest.raises(qeval.InputError, match="judge timeout"):
        qeval.run(run_dir, judge=qeval.Judge("openai", "m", url=judge_double, timeout=-1))
    with pytest.raises(qeval.InputError, match="unknown prompt version"):
        qeval.score_pair("SELECT 1", "SELECT 1", judge=qeval.Judge("openai", "m", url=judge_double, prompt="v9"))
    with pytest.raises(TypeError, match="qeval.Judge"):
        qeval.score_pair("SELECT 1", "SELECT 1", judge={"provider": "openai"})
