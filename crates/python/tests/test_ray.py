"""Scoring on a local Ray cluster gives exactly what ``qeval score`` prints for the same file."""

from __future__ import annotations

import json
import subprocess

import pytest

ray = pytest.importorskip("ray")

import qeval
import qeval.ray


PAIRS = [
    {"id": 1, "generated_sql": "SELECT name FROM singer WHERE age >= 30", "expected_sql": "SELECT name FROM singer WHERE age > 30"},
    {"id": 2, "generated_sql": "select id from users", "expected_sql": "SELECT id FROM users"},
    {"id": 3, "generated_sql": "SELECT a FROM t", "expected_sql": "SELECT a FROM t", "expected_result": [[1], [2]], "generated_result": [[2], [1]]},
    {"id": 4, "generated_sql": "T | count", "expected_sql": "T | where x > 1 | count", "language": "kql"},
]


@pytest.fixture(scope="module")
def cluster():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_ray_run_prints_what_qeval_score_prints(cluster, cli, tmp_path):
    lines = [json.dumps(pair) for pair in PAIRS * 50]
    lines.insert(3, "")  # blank lines are skipped but counted
    lines.insert(7, '{"generated_sql": "SELECT 1", "expected_sql": ')  # a bad line is reported, not fatal
    path = tmp_path / "pairs.jsonl"
    path.write_text("\ufeff" + "\r\n".join(lines) + "\r\n")
    printed = subprocess.run([cli, "score", "--pairs", path], capture_output=True, text=True).stdout
    out = qeval.ray.run(str(path), output_dir=str(tmp_path / "out"))
    assert "".join(text + "\n" for text in out[str(path)]) == printed
    assert (tmp_path / "out" / "pairs.jsonl.scored.jsonl").read_text() == printed
    assert len(out[str(path)]) == len(PAIRS) * 50 + 1


def test_ray_score_maps_a_dataset_of_pairs_to_the_scorecards_score_pairs_gives(cluster):
    dataset = ray.data.from_items([{**pair, "line": n} for n, pair in enumerate(PAIRS, start=1)])
    rows = sorted(qeval.ray.score(dataset).take_all(), key=lambda row: row["line"])
    assert [row["ok"] for row in rows] == [True] * len(PAIRS)
    assert [json.loads(row["scorecard"]) for row in rows] == qeval.score_pairs(PAIRS)
    text_rows = ray.data.from_items([{"text": json.dumps(pair)} for pair in PAIRS])
    scored = qeval.ray.score(text_rows, equivalence=False).take_all()
    assert all("equivalence" not in json.loads(row["scorecard"])["metrics"] for row in scored)


def test_ray_run_names_a_missing_file(cluster, tmp_path):
    with pytest.raises(FileNotFoundError, match="no pairs file"):
        qeval.ray.run(str(tmp_path / "missing.jsonl"))


def test_ray_score_takes_a_pairs_file_read_by_ray_read_json(cluster, tmp_path):
    # Columns a pair lacks come back from Arrow as nulls, and nested results as arrays: both are
    # read as the pairs file has them.
    path = tmp_path / "pairs.jsonl"
    path.write_text("".join(json.dumps(pair) + "\n" for pair in PAIRS))
    rows = qeval.ray.score(ray.data.read_json(str(path)), equivalence=False).take_all()
    got = sorted((json.loads(row["scorecard"]) for row in rows), key=lambda card: card["id"])
    want = [{k: v for k, v in card.items() if k != "line"} for card in qeval.score_pairs(PAIRS, equivalence=False)]
    assert got == want
