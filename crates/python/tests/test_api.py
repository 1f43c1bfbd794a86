"""The package's API as a user calls it: the same answers as the command line."""

from __future__ import annotations

import json
import subprocess

import pytest

import qeval


def test_tables_lists_the_base_tables_as_the_cli_does(cli):
    sql = "WITH recent AS (SELECT * FROM Sales.Orders) SELECT * FROM recent JOIN users u ON u.id = recent.user_id"
    got = qeval.tables(sql, dialect="postgresql")
    printed = subprocess.run(
        [cli, "tables", "--json", "--dialect", "postgresql", sql], capture_output=True, text=True, check=True
    ).stdout
    assert got == json.loads(printed) == ["sales.orders", "users"]


def test_kql_tables_keep_their_case():
    assert qeval.tables("StormEvents | join (PopulationData) on State", language="kql") == [
        "StormEvents",
        "PopulationData",
    ]


def test_a_query_that_does_not_parse_raises_with_its_position():
    with pytest.raises(qeval.InputError, match=r"does not parse as .*SQL: .*[Ll]ine 1"):
        qeval.tables("SELEC name FROM users")
    with pytest.raises(ValueError):  # InputError is a ValueError
        qeval.tables("SELECT * FROM (")


def test_score_pair_gives_the_scorecard_qeval_score_writes(cli, tmp_path):
    pairs = [
        {"id": "same", "generated_sql": "select id from users", "expected_sql": "SELECT id FROM users"},
        {
            "id": "results",
            "generated_sql": "SELECT name FROM users",
            "expected_sql": "SELECT name FROM users WHERE active",
            "expected_result": {"columns": ["name"], "rows": [["a"], ["b"]]},
            "generated_result": [["a"], ["b"], ["c"]],
        },
        {"id": "kql", "generated_sql": "T | where x > 1 | count", "expected_sql": "T | count", "language": "kql"},
    ]
    path = tmp_path / "pairs.jsonl"
    path.write_text("".join(json.dumps(pair) + "\n" for pair in pairs))
    out = subprocess.run([cli, "score", "--pairs", path], capture_output=True, text=True).stdout
    from_cli = [json.loads(line) for line in out.splitlines()]
    assert len(from_cli) == 3
    for pair, expected in zip(pairs, from_cli):
        fields = {k: v for k, v in pair.items() if k not in ("generated_sql", "expected_sql")}
        card = qeval.score_pair(pair["generated_sql"], pair["expected_sql"], **fields)
        expected.pop("line")
        assert card == expected
    assert qeval.score_pairs(pairs) == [json.loads(line) for line in out.splitlines()]


def test_options_change_the_score_as_the_cli_flags_do():
    loose = qeval.score_pair("SELECT a FROM t", "SELECT a FROM t WHERE b", expected_result=[[1], [2]],
                             generated_result=[[1]], mode="subset")
    assert loose["metrics"]["execution"]["score"] == 0.0
    f1 = qeval.score_pair("SELECT a FROM t", "SELECT a FROM t WHERE b", expected_result=[[1], [2]],
                          generated_result=[[1]], mode="f1")
    assert 0.0 < f1["metrics"]["execution"]["score"] < 1.0
    with pytest.raises(qeval.InputError, match="profile"):
        qeval.score_pair("SELECT 1", "SELECT 1", profile="no-such-profile")
    with pytest.raises(TypeError, match="unknown option 'modee'"):
        qeval.score_pairs([], modee="bag")


def test_a_bad_field_names_itself_and_a_bad_pair_never_loses_the_others():
    with pytest.raises(qeval.InputError, match="field `expected_tables`"):
        qeval.score_pair("SELECT 1", expected_tables="users")
    out = qeval.score_pairs([
        {"generated_sql": "SELECT 1", "expected_sql": "SELECT 1"},
        '{"generated_sql": "SELECT 1", "expected_sql": ',
        {"generated_sql": "SELECT 2", "expected_sql": "SELECT 2"},
    ])
    assert [record["line"] for record in out] == [1, 2, 3]
    assert out[0]["identical"] and out[2]["identical"]
    assert "invalid JSON" in out[1]["error"]["message"]
    assert out[1]["error"]["column"] > 0


def test_compare_takes_lists_dataframes_and_arrow_tables_alike():
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    pa = pytest.importorskip("pyarrow")
    gold = [(1, "a", 2.5), (2, "b", None)]
    pred = [(2, "b", None), (1, "a", 2.5)]
    columns = ["id", "name", "x"]
    shapes = [
        (gold, pred),
        (pd.DataFrame(gold, columns=columns), pd.DataFrame(pred, columns=columns)),
        (pl.DataFrame(gold, schema=columns, orient="row"), pl.DataFrame(pred, schema=columns, orient="row")),
        (pa.table({c: [r[i] for r in gold] for i, c in enumerate(columns)}),
         pa.table({c: [r[i] for r in pred] for i, c in enumerate(columns)})),
    ]
    for expected, generated in shapes:
        result = qeval.compare(expected, generated, "bag")
        assert result["equal"] is True, (type(expected), result)
        assert qeval.compare(expected, generated, "bag", order_matters=True)["equal"] is False
    near = qeval.compare(gold, [(1, "a", 2.5), (2, "c", None)], "soft-f1")
    assert 0.0 < near["score"] < 1.0
    assert near["explanation"]


def test_rows_that_are_not_sequences_are_refused_with_the_row_number():
    with pytest.raises(TypeError, match="generated row 1: a row is a sequence"):
        qeval.compare([(1,)], [(1,), 5], "bag")
    with pytest.raises(TypeError, match="expected row 0: a row is a sequence of values .*, not a string"):
        qeval.compare(["abc"], [], "set")
    with pytest.raises(qeval.InputError, match="mode"):
        qeval.compare([], [], "exact")


def test_the_equivalence_check_runs_as_the_cli_runs_it_and_can_be_turned_off():
    pair = ("SELECT name FROM singer WHERE age >= 30", "SELECT name FROM singer WHERE age > 30")
    checked = qeval.score_pair(*pair)
    assert checked["metrics"]["equivalence"]["details"]["verdict"] == "different"
    assert checked["metrics"]["equivalence"]["details"]["schema_source"] == "inferred"
    written = qeval.score_pair(*pair, schema="CREATE TABLE singer (name TEXT, age INTEGER);", databases=5, seed=7)
    assert written["metrics"]["equivalence"]["details"]["schema_source"] == "written"
    assert written["metrics"]["equivalence"]["details"]["seed"] == 7
    assert "equivalence" not in qeval.score_pair(*pair, equivalence=False)["metrics"]
    with pytest.raises(qeval.InputError, match="databases takes 1 to 1000, not 0"):
        qeval.score_pair(*pair, databases=0)


def test_the_boundary_search_finds_what_the_generated_databases_miss_as_the_cli_does(cli, tmp_path):
    import json
    import subprocess

    pair = (
        "SELECT dept FROM staff GROUP BY dept HAVING SUM(hours) > 120 AND MAX(hours) < 50",
        "SELECT dept FROM staff GROUP BY dept HAVING SUM(hours) >= 120 AND MAX(hours) < 50",
    )
    found = qeval.score_pair(*pair)["metrics"]["equivalence"]
    assert found["details"]["verdict"] == "different"
    assert found["details"]["search"]["found_at"] >= 1
    assert found["explanation"].startswith("Different results on a database the boundary search built")
    off = qeval.score_pair(*pair, search=0)["metrics"]["equivalence"]
    assert off["details"]["verdict"] == "equivalent"
    assert "search" not in off["details"]
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text(json.dumps({"generated_sql": pair[0], "expected_sql": pair[1]}) + "\n")
    out = subprocess.run([cli, "score", "--pairs", str(pairs)], capture_output=True, check=False)
    native = json.loads(out.stdout.decode().splitlines()[0])["metrics"]["equivalence"]
    assert native["explanation"] == found["explanation"]
    assert native["details"]["search"] == found["details"]["search"]
    with pytest.raises(qeval.InputError, match="search takes 0 to 10000, not 20000"):
        qeval.score_pair(*pair, search=20_000)


def test_run_scores_a_run_folder_into_the_records_qeval_run_writes(cli, tmp_path):
    import shutil
    from conftest import ROOT, without_clock

    example = ROOT / "static" / "example-run"
    folder = tmp_path / "example-run"
    shutil.copytree(example, folder)
    run_dir = folder / "run-2026-11-20T14-30-00"
    (run_dir / "evaluation-results.jsonl").unlink()
    subprocess.run([cli, "run", run_dir, "--output", tmp_path / "cli.jsonl"], capture_output=True, check=False)
    report = qeval.run(run_dir)
    assert report["output"] == str(run_dir / "evaluation-results.jsonl")
    ours = [json.loads(line) for line in (run_dir / "evaluation-results.jsonl").read_text().splitlines()]
    theirs = [json.loads(line) for line in (tmp_path / "cli.jsonl").read_text().splitlines()]
    assert without_clock(ours) == without_clock(theirs) and len(ours) > 3
    assert report["summary"]["tests"] == len(ours)
    assert report["rejected"] == []
    # Only scored records: their stored scores are checked instead.
    (run_dir / "test-results.jsonl").unlink()
    checked = qeval.run(run_dir)
    assert checked["contradicted"] == [] and checked["summary"]["tests"] == len(ours)
    with pytest.raises(qeval.InputError, match="is not a folder"):
        qeval.run(tmp_path / "missing")


def test_run_on_a_database_with_test_suite_databases_writes_what_qeval_run_writes(cli, tmp_path):
    from conftest import ROOT

    db = ROOT / "tests" / "fixtures" / "shop.sqlite"
    tests = [
        {"test_id": 1, "generated_sql": "SELECT name FROM users WHERE active = 1", "expected_sql": "SELECT name FROM users WHERE active <> 0"},
        {"test_id": 2, "generated_sql": "SELECT user_id, COUNT(*) FROM orders GROUP BY user_id", "expected_sql": "SELECT user_id, COUNT(id) AS n FROM orders GROUP BY user_id"},
        {"test_id": 3, "generated_sql": "SELECT SUM(totl) FROM orders", "expected_sql": "SELECT SUM(total) FROM orders"},
    ]
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    (run_dir / "test-results.jsonl").write_text("".join(json.dumps(t) + "\n" for t in tests))
    subprocess.run([cli, "run", run_dir, "--db", db, "--suite", "5", "--seed", "3", "--output", tmp_path / "cli.jsonl"],
                   capture_output=True, check=True)
    qeval.run(run_dir, db=db, suite=5, seed=3)
    ours = (run_dir / "evaluation-results.jsonl").read_text().splitlines()
    theirs = (tmp_path / "cli.jsonl").read_text().splitlines()
    assert ours == theirs
    records = [json.loads(line) for line in ours]
    # `active = 1` and `active <> 0` agree on the file, not on every generated database; the
    # third test's generated query fails, so it is not checked.
    assert records[0]["test_suite"]["score"] == 0.0
    assert "of 5 (seed 3)" in records[0]["test_suite"]["explanation"]
    assert "test_suite" not in records[2]
    with pytest.raises(qeval.InputError, match="give db too"):
        qeval.run(run_dir, suite=5)
    with pytest.raises(qeval.InputError, match="suite takes 1 to 1000 databases, not 0"):
        qeval.run(run_dir, db=db, suite=0)
    # The database's limits, as --max-rows and --time-limit.
    subprocess.run([cli, "run", run_dir, "--db", db, "--max-rows", "1", "--output", tmp_path / "cut.jsonl"],
                   capture_output=True, check=True)
    qeval.run(run_dir, db=db)
    whole = (run_dir / "evaluation-results.jsonl").read_text()
    qeval.run(run_dir, db=db, max_rows=1)
    cut = (run_dir / "evaluation-results.jsonl").read_text()
    # A result of two rows or more is cut to one, as the command cuts it (records carry no time).
    assert cut == (tmp_path / "cut.jsonl").read_text() and cut != whole
    with pytest.raises(qeval.InputError, match="time_limit takes a number of seconds above 0"):
        qeval.run(run_dir, db=db, time_limit=0)
    with pytest.raises(qeval.InputError, match="max_rows takes at least 1"):
        qeval.run(run_dir, db=db, max_rows=0)


def test_arrow_data_is_read_from_its_buffers_and_agrees_with_its_rows():
    pa = pytest.importorskip("pyarrow")
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    import datetime
    import decimal

    from qeval import _native

    table = pa.table({"id": pa.array([1, 2, 3], pa.int32()), "x": [1.5, None, 2.0], "s": ["a", "b", None],
                      "ok": [True, False, None], "big": pa.array([1, 2, 2**63], pa.uint64())})
    rows = [(1, 1.5, "a", True, 1), (2, None, "b", False, 2), (3, 2.0, None, None, 2**63)]
    verdict = lambda result: {key: result[key] for key in ("equal", "score", "matched_rows")}  # noqa: E731
    for mode in ("bag", "set", "soft-f1", "subset", "f1", "seed"):
        assert verdict(qeval.compare(table, rows, mode)) == verdict(qeval.compare(rows, rows, mode)), mode
    # Arrow's column names are kept: the comparison names them.
    assert qeval.compare(table, rows, "bag")["alignment"][0]["expected"] == "id"
    # The native reader takes the table itself: no Python object per cell.
    assert _native.verdict(table, rows, "bag") == (True, 1.0)
    assert _native.verdict(pl.from_arrow(table), rows, "bag") == (True, 1.0)
    assert _native.verdict(pd.DataFrame({"a": [1, 2], "b": ["x", "y"]}), [(1, "x"), (2, "y")], "bag") == (True, 1.0)
    # A column Arrow reading leaves to Python (dates, decimals) still compares, through its rows.
    dated = pa.table({"d": [datetime.date(2024, 1, 2)], "n": [decimal.Decimal("1.5")]})
    with pytest.raises(_native.ArrowTypeError, match="column \"d\""):
        _native.verdict(dated, [], "bag")
    assert qeval.compare(dated, [("2024-01-02", 1.5)], "bag")["equal"] is True


def test_run_exports_groups_and_limit_as_qeval_run_does(cli, tmp_path):
    import shutil
    from conftest import ROOT

    folder = tmp_path / "example-run"
    shutil.copytree(ROOT / "static" / "example-run", folder)
    # Only the scored records: both read the same stored records, so the exports match byte for byte.
    run_dir = folder / "run-2026-11-19T16-00-00"
    (run_dir / "test-results.jsonl").unlink()
    exports = {name: tmp_path / f"cli.{name}" for name in ("csv", "junit", "markdown")}
    subprocess.run(
        [cli, "run", run_dir, "--by", "agent_used", *[arg for name, path in exports.items() for arg in (f"--{name}", path)]],
        capture_output=True, check=False,
    )
    ours = {name: tmp_path / f"ours.{name}" for name in exports}
    report = qeval.run(run_dir, by=["agent_used"], **ours)
    for name in exports:
        assert ours[name].read_text() == exports[name].read_text() and ours[name].stat().st_size > 100, name
    assert sorted(report["exports"]) == sorted(str(path) for path in ours.values())
    groupings = json.dumps(report["summary"])
    assert "agent_used" in groupings and "sql-of-thought" in groupings
    limited = qeval.run(run_dir, limit=3)
    assert limited["summary"]["tests"] == 3 and report["summary"]["tests"] > 3
    # A labels file beside the run is read as the command reads it; a bad line is named.
    (run_dir / "human-labels.jsonl").write_text('{"test_id": 2, "human_label": false}\n{"test_id": 3, "human_label": "maybe"}\n')
    labelled = qeval.run(run_dir)
    assert labelled["labels"]["labels"] == 1 and labelled["labels"]["applied"] == 1
    assert [(r["line"], r["file"].endswith("human-labels.jsonl")) for r in labelled["rejected"]] == [(2, True)]
    with pytest.raises(TypeError, match="list of field names"):
        qeval.run(run_dir, by="agent_used")
