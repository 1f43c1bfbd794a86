"""``qeval.bench`` and ``qeval.ray``'s benchmarks give what ``qeval bench`` gives: the official
tables, and records byte for byte."""

from __future__ import annotations

import json
import pathlib
import shutil
import sqlite3
import subprocess

import pytest

import qeval
import qeval.bench

from conftest import ROOT


def layout(fixture: str, into: pathlib.Path) -> pathlib.Path:
    """A fixture of ``tests/bench`` laid out as its users have it: each ``NAME.sql`` under a
    database folder built into ``NAME.sqlite``."""
    target = into / fixture
    shutil.copytree(ROOT / "tests" / "bench" / fixture, target)
    for script in target.rglob("*.sql"):
        if "database" in str(script.parent):
            connection = sqlite3.connect(script.with_suffix(".sqlite"))
            connection.executescript(script.read_text())
            connection.commit()
            connection.close()
            script.unlink()
    return target


def cli_bench(cli: pathlib.Path, args: list) -> subprocess.CompletedProcess:
    return subprocess.run([cli, "bench", *map(str, args)], capture_output=True, text=True, check=True)


def test_spider_gives_the_official_table_and_the_command_lines_records(cli, tmp_path):
    spider = layout("spider", tmp_path)
    out = tmp_path / "cli.jsonl"
    printed = cli_bench(cli, ["spider", "--gold", spider / "gold.txt", "--pred", spider / "pred.txt", "--db", spider / "database", "-o", out]).stdout
    result = qeval.bench.spider(spider / "gold.txt", spider / "pred.txt", spider / "database", output=tmp_path / "py.jsonl")
    assert result["table"] == printed == (spider / "expected" / "exec.txt").read_text()
    assert (tmp_path / "py.jsonl").read_bytes() == out.read_bytes()
    assert [r["benchmark"]["exec"] for r in result["records"]] == [
        json.loads(line)["exec"] for line in (spider / "expected" / "verdicts.jsonl").read_text().splitlines()
    ]
    assert result["summary"]["measure"].startswith("test-suite accuracy")


def test_spider_exact_set_match_gives_what_the_command_line_gives(cli, tmp_path):
    exact = layout("spider/exact", tmp_path)
    args = ["--gold", exact / "gold.txt", "--pred", exact / "pred.txt", "--db", exact / "database"]
    printed = cli_bench(cli, ["spider", *args, "--etype", "match", "--table", exact / "tables.json"]).stdout
    result = qeval.bench.spider(exact / "gold.txt", exact / "pred.txt", exact / "database", etype="match", table=exact / "tables.json")
    assert result["table"] == printed
    assert "PARTIAL MATCHING F1" in printed
    official = [json.loads(line) for line in (exact / "expected" / "verdicts.jsonl").read_text().splitlines()]
    same = sum(r["benchmark"]["exact"] == v["exact"] for r, v in zip(result["records"], official))
    assert same >= len(official) - 5
    assert result["summary"]["measure"] == "exact set match accuracy"
    with pytest.raises(qeval.InputError, match="needs --table"):
        qeval.bench.spider(exact / "gold.txt", exact / "pred.txt", exact / "database", etype="match")


def test_bird_takes_the_official_arguments_and_several_prediction_files(cli, tmp_path):
    bird = layout("bird", tmp_path)
    results = qeval.bench.bird(
        [bird / "predict_dev.json", bird / "predict_dev_sorted_keys.json"],
        bird / "dev_gold.sql",
        bird / "dev_databases",
        diff=bird / "dev.jsonl",
        metric=["ex", "soft-f1"],
        output_log_path=tmp_path / "log.txt",
    )
    official = (bird / "expected" / "ex.txt").read_text() + (bird / "expected" / "soft_f1.txt").read_text()
    assert [r["table"] for r in results] == [official, official]
    assert results[1]["summary"]["misplaced"] == 22
    assert (tmp_path / "log.txt").read_text() == (bird / "expected" / "log.txt").read_text() * 2
    verdicts = [json.loads(line) for line in (bird / "expected" / "verdicts.jsonl").read_text().splitlines()]
    assert [r["benchmark"]["ex"] for r in results[0]["records"]] == [v["ex"] for v in verdicts]


def test_bad_files_raise_input_error_naming_them(tmp_path):
    bird = layout("bird", tmp_path)
    short = tmp_path / "short.json"
    short.write_text('{"0": "SELECT 1"}')
    with pytest.raises(qeval.InputError, match="1 prediction in the predictions file for 24 gold lines"):
        qeval.bench.bird(short, bird / "dev_gold.sql", bird / "dev_databases")
    with pytest.raises(qeval.InputError, match="time_limit takes a number of seconds above 0"):
        qeval.bench.spider(bird / "dev_gold.sql", short, bird, time_limit=float("nan"))


def test_ray_runs_the_jobs_on_the_cluster_to_the_same_records(cli, tmp_path):
    ray = pytest.importorskip("ray")
    import qeval.ray

    spider = layout("spider", tmp_path)
    out = tmp_path / "cli.jsonl"
    cli_bench(cli, ["spider", "--gold", spider / "gold.txt", "--pred", spider / "pred.txt", "--db", spider / "database", "-o", out])
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        result = qeval.ray.bench_spider(spider / "gold.txt", spider / "pred.txt", spider / "database", output=tmp_path / "ray.jsonl")
    finally:
        ray.shutdown()
    assert (tmp_path / "ray.jsonl").read_bytes() == out.read_bytes()
    assert result["table"] == (spider / "expected" / "exec.txt").read_text()


def test_spider2_gives_the_official_scores_in_both_modes(cli, tmp_path):
    spider2 = layout("spider2", tmp_path)
    gold = spider2 / "gold"
    printed = cli_bench(cli, ["spider2", "--result_dir", spider2 / "pred_csv", "--gold_dir", gold]).stdout
    result = qeval.bench.spider2(spider2 / "pred_csv", gold)
    assert result["table"] == printed
    assert "Final score: 0.6181818181818182, Correct examples: 34, Total examples: 55" in printed
    official = json.loads((spider2 / "expected" / "exec_result" / "results.json").read_text())
    assert [(r["test_id"], r["benchmark"]["score"]) for r in result["records"]] == [
        (o["instance_id"], o["score"]) for o in official
    ]
    sql = qeval.bench.spider2(spider2 / "pred_sql", gold, mode="sql", db=spider2 / "databases")
    assert [i for i, _ in sql["summary"]["spider2"]["not_scored"]] == ["bq001", "ga001"]
    assert "Correct examples: 25, Total examples: 46" in sql["table"]
    with pytest.raises(qeval.InputError, match="use \"exec_result\""):
        qeval.bench.spider2(spider2 / "pred_csv", gold, mode="csv")


def test_ray_scores_spider2_sql_tasks_on_the_cluster(tmp_path):
    ray = pytest.importorskip("ray")
    import qeval.ray

    spider2 = layout("spider2", tmp_path)
    local = qeval.bench.spider2(spider2 / "pred_sql", spider2 / "gold", mode="sql", db=spider2 / "databases")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        result = qeval.ray.bench_spider2(spider2 / "pred_sql", spider2 / "gold", mode="sql", db=spider2 / "databases")
    finally:
        ray.shutdown()
    assert result["records"] == local["records"]
    assert result["table"] == local["table"]


def test_strict_verdicts_sit_beside_the_official_ones(cli, tmp_path):
    spider2 = layout("spider2", tmp_path)
    args = ["spider2", "--result_dir", spider2 / "pred_csv", "--gold_dir", spider2 / "gold", "--strict"]
    printed = cli_bench(cli, args).stdout
    result = qeval.bench.spider2(spider2 / "pred_csv", spider2 / "gold", strict=True)
    assert result["table"] == printed
    assert result["summary"]["strict"]["changed_by"] == {"row_scramble": 2}
    assert result["summary"]["passed"] == 34, "the official number stays the headline"
    scrambled = next(r for r in result["records"] if r["test_id"] == "local008")
    assert scrambled["benchmark"]["score"] == 1
    assert scrambled["benchmark"]["strict"] == {"passed": False, "score": 0.0, "changed_by": ["row_scramble"]}
    bird = layout("bird", tmp_path)
    result = qeval.bench.bird(bird / "predict_dev.json", bird / "dev_gold.sql", bird / "dev_databases", strict=True)
    assert result["summary"]["strict"]["changed_by"]["duplicates"] >= 1
