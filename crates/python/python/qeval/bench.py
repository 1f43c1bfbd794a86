"""Public benchmarks scored from their own files, as ``qeval bench`` scores them::

    import qeval.bench
    result = qeval.bench.spider("dev_gold.sql", "pred.txt", "database/")
    print(result["table"])                  # what Spider's evaluation.py prints
    failed = [r for r in result["records"] if not r["qas_evaluation"]["passed"]]

    qeval.bench.bird("predict_dev.json", "dev_gold.sql", "dev_databases/", diff="dev.json",
                     metric=["ex", "soft-f1"])

    qeval.bench.spider2("my_csvs/", "spider2-lite/evaluation_suite/gold")

``strict=True`` adds qeval's strict verdict beside the official one (each record's
``benchmark.strict``, the summary's ``strict``, and the strict lines after the official table).

Each returns ``{"table", "summary", "records", "log", "notes"}`` for one prediction file (a
list of those for a list of prediction files): the official table as the official script prints
it, the summary (the table's numbers, the golds that cannot pass and the ceiling they set,
failed predictions by kind; what ``--json`` writes), one record per example (the
``evaluation-results.jsonl`` lines ``--output`` writes, which :func:`qeval.run` and
``qeval report`` read), BIRD's log lines, and notes on the input files. Queries run on every
core. :mod:`qeval.ray` runs the same on a Ray cluster.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from typing import Any, Optional, Union

from . import _native

__all__ = ["bird", "spider", "spider2"]

PathLike = Union[str, os.PathLike]


def _paths(value: Union[PathLike, Sequence[PathLike]]) -> tuple[list[str], bool]:
    """The prediction files as paths, and whether one was given (not a list)."""
    if isinstance(value, (str, os.PathLike)):
        return [os.fspath(value)], True
    return [os.fspath(item) for item in value], False


def _optional(value: Optional[PathLike]) -> Optional[str]:
    return None if value is None else os.fspath(value)


def _cores(num_cpus: Optional[int]) -> int:
    if num_cpus is not None and num_cpus < 1:
        raise _native.InputError("num_cpus takes 1 or more")
    return num_cpus or os.cpu_count() or 1


def _finish(plan: Any, single: bool, dialect: str, output: Any, json_path: Any, log: Any) -> Any:
    outputs, _ = _paths(output) if output is not None else ([], True)
    text = plan.finish(dialect=dialect, output=outputs, json=_optional(json_path), output_log_path=_optional(log))
    finished = json.loads(text)
    results = [dict(result, notes=finished["notes"]) for result in finished["results"]]
    return results[0] if single else results


def spider(
    gold: PathLike,
    pred: Union[PathLike, Sequence[PathLike]],
    db: PathLike,
    *,
    etype: str = "exec",
    table: Optional[PathLike] = None,
    keep_distinct: bool = False,
    plug_value: bool = False,
    plug_value_limit: int = 10_000,
    time_limit: float = 60.0,
    max_rows: int = 1_000_000,
    strict: bool = False,
    num_cpus: Optional[int] = None,
    output: Union[PathLike, Sequence[PathLike], None] = None,
    json: Optional[PathLike] = None,
) -> Any:
    """Spider (or SParC, CoSQL) as ``qeval bench spider`` scores it, which is as
    test-suite-sql-eval's ``evaluation.py --etype exec`` does: ``gold`` holds ``SQL<TAB>db_id``
    lines (a blank line ends an interaction), ``pred`` one query per line (a list of files scores
    several models, each gold run once), and each example runs on every ``*.sqlite`` of
    ``db/<db_id>/``: one database gives execution accuracy, several (the test-suite download)
    test-suite accuracy.

    ``etype`` is the official flag: ``"exec"``, ``"match"`` (exact set match, reading the foreign
    keys from ``table``, Spider's ``tables.json``, and the schema from ``db/<db_id>/<db_id>.sqlite``)
    or ``"all"`` (both tables). Each record then has ``benchmark.exact`` and the F1 of each
    component (``benchmark.partial_f1``).

    ``keep_distinct`` and ``plug_value`` are the official flags; ``plug_value_limit`` caps the
    variants tried per prediction; ``time_limit`` (seconds) interrupts a query; ``max_rows`` cuts a
    result (a cut result gives no verdict). ``output`` (one path per prediction file) and ``json``
    write the records and the summary.
    """
    paths, single = _paths(pred)
    plan = _native.bench_spider(
        os.fspath(gold),
        paths,
        os.fspath(db),
        etype=etype,
        table=None if table is None else os.fspath(table),
        keep_distinct=keep_distinct,
        plug_value=plug_value,
        plug_value_limit=plug_value_limit,
        time_limit=time_limit,
        max_rows=max_rows,
        strict=strict,
    )
    plan.run(_cores(num_cpus))
    return _finish(plan, single, "SQLite", output, json, None)


def bird(
    pred: Union[PathLike, Sequence[PathLike]],
    gold: PathLike,
    db_root: PathLike,
    *,
    diff: Optional[PathLike] = None,
    metric: Union[str, Sequence[str]] = "ex",
    meta_time_out: float = 30.0,
    sql_dialect: str = "SQLite",
    ves_iterations: int = 100,
    max_rows: int = 1_000_000,
    strict: bool = False,
    num_cpus: Optional[int] = None,
    output_log_path: Optional[PathLike] = None,
    output: Union[PathLike, Sequence[PathLike], None] = None,
    json: Optional[PathLike] = None,
) -> Any:
    """BIRD dev or mini-dev as ``qeval bench bird`` scores it, which is as BIRD's
    ``evaluation_ex.py``, ``evaluation_f1.py`` and ``evaluation_ves.py`` do, the arguments
    named as theirs: ``pred`` (``predicted_sql_path``: a JSON object from question index to
    ``SQL\\t----- bird -----\\tdb_id``; a list scores several models), ``gold``
    (``ground_truth_path``), ``db_root`` (``db_root_path``, holding ``<db_id>/<db_id>.sqlite``),
    ``diff`` (``diff_json_path``: the difficulties, a JSON list or JSON Lines),
    ``meta_time_out`` (seconds for a prediction and its gold together), ``output_log_path``
    (the tables appended there).

    Predictions are matched to golds by key, not by their place in the file; ``metric`` is one
    of ``ex``, ``soft-f1``, ``ves`` or a list of them (the first is the records' score).
    """
    paths, single = _paths(pred)
    metrics = [metric] if isinstance(metric, str) else list(metric)
    plan = _native.bench_bird(
        os.fspath(gold),
        paths,
        os.fspath(db_root),
        diff=_optional(diff),
        metrics=metrics,
        meta_time_out=meta_time_out,
        sql_dialect=sql_dialect,
        ves_iterations=ves_iterations,
        max_rows=max_rows,
        strict=strict,
    )
    plan.run(_cores(num_cpus))
    return _finish(plan, single, sql_dialect, output, json, output_log_path)


def spider2(
    result_dir: PathLike,
    gold_dir: PathLike,
    *,
    mode: str = "exec_result",
    variant: Optional[str] = None,
    instances: Optional[PathLike] = None,
    db: Optional[PathLike] = None,
    timeout: Optional[float] = None,
    max_rows: int = 1_000_000,
    strict: bool = False,
    num_cpus: Optional[int] = None,
    output: Optional[PathLike] = None,
    json: Optional[PathLike] = None,
) -> Any:
    """Spider 2.0-lite or -snow as ``qeval bench spider2`` scores it, which is as
    ``evaluation_suite/evaluate.py`` does: ``result_dir`` holds ``<instance_id>.csv``
    (``mode="exec_result"``) or ``<instance_id>.sql`` (``mode="sql"``); ``gold_dir`` holds
    ``spider2lite_eval.jsonl`` (or ``spider2snow_eval.jsonl``; ``variant`` picks one when both
    are there) and ``exec_result/``. Only instances with both a gold line and a prediction are
    scored, as the official script scores them.

    In ``sql`` mode the local tasks run on ``db/<db>.sqlite`` (default: ``resource/databases``
    two folders above ``gold_dir``), each instance's database read from ``instances``
    (``spider2-lite.jsonl``); BigQuery and Snowflake tasks are listed in the summary's
    ``spider2.not_scored``, never scored 0. ``timeout`` (seconds) interrupts a query (the
    official script has no limit). ``table`` is the official score lines; each record's
    ``benchmark`` has the score, ``error_kind`` and ``error_info``.
    """
    plan = _native.bench_spider2(
        os.fspath(result_dir),
        os.fspath(gold_dir),
        mode=mode,
        variant=variant,
        instances=_optional(instances),
        db=_optional(db),
        timeout=timeout,
        max_rows=max_rows,
        strict=strict,
    )
    plan.run(_cores(num_cpus))
    return _finish(plan, True, "SQLite", output, json, None)
