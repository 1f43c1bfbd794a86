"""Scoring at scale on Ray Data: pairs in a Ray Dataset become scorecards, a batch at a time,
each batch one call into the Rust core (which scores it on every core of its worker).

Nothing here is cluster-specific: ``ray.init()`` starts a local cluster, and
``ray.init(address="ray://head:10001")`` (or ``RAY_ADDRESS``) points the same code at a cluster
whose workers have the ``qeval`` package installed.

Rows may be pairs (the pairs file's fields as columns) or pairs-file lines (a ``text`` column,
as ``ray.data.read_text`` gives them). A ``line`` column, when present, is each pair's line
number and is carried into its scorecard, as ``qeval score`` writes it.

Benchmarks too: :func:`bench_spider`, :func:`bench_bird` and :func:`bench_spider2` take :mod:`qeval.bench`'s arguments
and give its results, the records byte for byte the command line's; each job (one database's
examples, or a share of them) runs as a Ray task, and each database travels once to the
cluster's object store.
"""

from __future__ import annotations

import glob
import json
import os
from typing import Any, Optional

import ray.data

from . import _native, _options
from . import bench as _bench

#: Pairs per batch: large enough that the core's per-call work dwarfs Ray's per-batch cost.
BATCH_SIZE = 4096


def _line_of(row: dict[str, Any]) -> str:
    text = row.get("text")
    if isinstance(text, str):
        return text
    pair = {key: value for key, value in row.items() if key != "line" and not _is_missing(value)}
    return json.dumps(pair, default=_plain)


def _is_missing(value: Any) -> bool:
    # Columns a pair does not have come back from Arrow as None (or NaN for numbers).
    return value is None or (isinstance(value, float) and value != value)


def _plain(value: Any) -> Any:
    """numpy scalars and arrays as JSON takes them."""
    if hasattr(value, "tolist"):
        return value.tolist()
    return str(value)


def _score_batch(batch: Any, options: dict[str, Any]) -> dict[str, list[Any]]:
    rows = batch.to_dict("records")
    lines = [_line_of(row) for row in rows]
    numbers = [int(row["line"]) for row in rows] if rows and "line" in rows[0] else None
    scored = _native.score_lines(lines, numbers, **options)
    out: dict[str, list[Any]] = {
        "ok": [ok for ok, _ in scored],
        "scorecard": [text for _, text in scored],
    }
    if numbers is not None:
        out["line"] = numbers
    for extra in ("path",):
        if rows and extra in rows[0]:
            out[extra] = [row[extra] for row in rows]
    return out


def score(dataset: "ray.data.Dataset", **options: Any) -> "ray.data.Dataset":
    """Scorecards for every pair of ``dataset``: a Dataset with ``ok`` (False for a pair that
    could not be read), ``scorecard`` (the JSON text ``qeval score`` writes for that pair, or its
    rejection record) and, when the input has them, ``line`` and ``path``.

    ``options`` are :func:`qeval.score_pairs`'s (``profile``, ``mode``, ``dialect``, ...).
    """
    checked = _options(options)
    return dataset.map_batches(
        _score_batch,
        batch_size=BATCH_SIZE,
        batch_format="pandas",
        fn_kwargs={"options": checked},
    )


def _file_lines(row: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for number, line, rejection in _native.pairs_file_lines(bytes(row["bytes"])):
        text = line if line is not None else ""
        out.append({"path": row["path"], "line": number, "text": text, "rejection": rejection or ""})
    return out


def _score_lines_batch(batch: Any, options: dict[str, Any]) -> dict[str, list[Any]]:
    rows = batch.to_dict("records")
    readable = [row for row in rows if not row["rejection"]]
    scored = iter(
        _native.score_lines([row["text"] for row in readable], [int(row["line"]) for row in readable], **options)
    )
    out: dict[str, list[Any]] = {"path": [], "line": [], "ok": [], "scorecard": []}
    for row in rows:
        ok, text = (False, row["rejection"]) if row["rejection"] else next(scored)
        out["path"].append(row["path"])
        out["line"].append(int(row["line"]))
        out["ok"].append(ok)
        out["scorecard"].append(text)
    return out


def run(path_or_glob: str, output_dir: Optional[str] = None, **options: Any) -> dict[str, list[str]]:
    """Scores pairs files (a path, a folder or a glob) with Ray: each file's lines are read as
    ``qeval score --pairs FILE`` reads them (blank lines skipped, numbered as in the file), scored
    in batches across the cluster, and put back in order.

    Returns each file's output lines (the JSON text ``qeval score`` prints, in order) by path.
    With ``output_dir``, also writes them to ``<output_dir>/<file name>.scored.jsonl``.
    """
    checked = _options(options)
    if os.path.isdir(path_or_glob):
        paths = sorted(glob.glob(os.path.join(path_or_glob, "*.jsonl")))
    else:
        paths = sorted(glob.glob(path_or_glob)) or [path_or_glob]
    if not paths or not all(os.path.isfile(path) for path in paths):
        raise FileNotFoundError(f"no pairs file at {path_or_glob}")
    files = ray.data.read_binary_files(paths, include_paths=True)
    lines = files.flat_map(_file_lines)
    scored = lines.map_batches(
        _score_lines_batch, batch_size=BATCH_SIZE, batch_format="pandas", fn_kwargs={"options": checked}
    )
    # Ray names local files without the leading slash.
    def local(path: str) -> str:
        return os.path.normpath("/" + os.path.abspath(path).lstrip("/"))

    by_path: dict[str, list[tuple[int, str]]] = {local(path): [] for path in paths}
    for row in scored.iter_rows():
        by_path.setdefault(local(row["path"]), []).append((int(row["line"]), row["scorecard"]))
    outputs = {path: [text for _, text in sorted(by_path[local(path)])] for path in paths}
    if output_dir is not None:
        os.makedirs(output_dir, exist_ok=True)
        for path, texts in outputs.items():
            name = os.path.basename(path)
            with open(os.path.join(output_dir, f"{name}.scored.jsonl"), "w", encoding="utf-8") as out:
                out.write("".join(text + "\n" for text in texts))
    return outputs


@ray.remote
def _run_job(job: str, database: bytes) -> str:
    return _native.bench_run_job_bytes(job, database)


def _run_plan(plan: Any) -> None:
    """Runs a benchmark's jobs as Ray tasks, each database read once and put in the object
    store, and hands the answers back to the plan."""
    cpus = int(ray.cluster_resources().get("CPU", 1)) or 1
    jobs = plan.jobs(plan.per_job(cpus))
    paths = plan.databases()
    stored: dict[int, Any] = {}
    refs = []
    for job in jobs:
        number = json.loads(job)["database"]
        if number not in stored:
            with open(paths[number], "rb") as file:
                stored[number] = ray.put(file.read())
        refs.append(_run_job.remote(job, stored[number]))
    plan.absorb(ray.get(refs))


def bench_spider(gold: Any, pred: Any, db: Any, *, output: Any = None, json: Any = None, **options: Any) -> Any:
    """:func:`qeval.bench.spider` on the Ray cluster ``ray.init()`` connected to."""
    paths, single = _bench._paths(pred)
    options.pop("num_cpus", None)
    plan = _native.bench_spider(os.fspath(gold), paths, os.fspath(db), **options)
    _run_plan(plan)
    return _bench._finish(plan, single, "SQLite", output, json, None)


def bench_bird(
    pred: Any,
    gold: Any,
    db_root: Any,
    *,
    metric: Any = "ex",
    sql_dialect: str = "SQLite",
    output_log_path: Any = None,
    output: Any = None,
    json: Any = None,
    **options: Any,
) -> Any:
    """:func:`qeval.bench.bird` on the Ray cluster ``ray.init()`` connected to."""
    paths, single = _bench._paths(pred)
    options.pop("num_cpus", None)
    if "diff" in options:
        options["diff"] = _bench._optional(options["diff"])
    metrics = [metric] if isinstance(metric, str) else list(metric)
    plan = _native.bench_bird(
        os.fspath(gold), paths, os.fspath(db_root), metrics=metrics, sql_dialect=sql_dialect, **options
    )
    _run_plan(plan)
    return _bench._finish(plan, single, sql_dialect, output, json, output_log_path)


def bench_spider2(result_dir: Any, gold_dir: Any, *, output: Any = None, json: Any = None, **options: Any) -> Any:
    """:func:`qeval.bench.spider2` on the Ray cluster ``ray.init()`` connected to (in ``sql``
    mode the local tasks' queries run as Ray tasks)."""
    options.pop("num_cpus", None)
    for key in ("instances", "db"):
        if key in options:
            options[key] = _bench._optional(options[key])
    plan = _native.bench_spider2(os.fspath(result_dir), os.fspath(gold_dir), **options)
    _run_plan(plan)
    return _bench._finish(plan, True, "SQLite", output, json, None)
