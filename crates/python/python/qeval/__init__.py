"""qeval: score LLM-generated SQL and KQL queries against expected ones.

The same core as the ``qeval`` command line, in-process::

    import qeval
    qeval.tables("SELECT * FROM sales.orders o JOIN users u ON u.id = o.user_id")
    card = qeval.score_pair("SELECT name FROM users", "SELECT name FROM users WHERE active")
    qeval.compare([(1, "a")], [(1.0, "a")], mode="bag")["equal"]

Scorecards and comparisons are the JSON objects the command line prints, as dicts. Drop-in
replacements for Spider's and BIRD's comparison functions are in :mod:`qeval.compat`.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Iterable
from typing import Any, Optional, Union

from . import _native, bench
from ._native import InputError, __version__
from ._rows import with_rows

__all__ = ["InputError", "Judge", "__version__", "bench", "compare", "run", "score_pair", "score_pairs", "tables"]

_OPTIONS = (
    "profile",
    "mode",
    "dialect",
    "language",
    "tolerance",
    "numeric_tolerance",
    "ignore_case",
    "equivalence",
    "databases",
    "seed",
    "search",
    "schema",
    "judge",
)


@dataclasses.dataclass(frozen=True)
class Judge:
    """An LLM judge for :func:`score_pair`, :func:`score_pairs` and :func:`run`: the metrics the
    structural judge scores are asked of a model instead, as ``qeval score --judge PROVIDER
    --judge-model MODEL`` asks it (the same prompts, retries, caches and verdict checks)::

        judge = qeval.Judge("openai", "gpt-4o-mini")
        qeval.run("runs/2026-11-20", judge=judge)
        qeval.score_pairs(pairs, judge=qeval.Judge("openai", "llama3.1", url="http://localhost:11434/v1"))

    ``provider`` is ``openai`` (also any OpenAI-compatible server: Azure OpenAI, Ollama, vLLM, LM
    Studio, OpenRouter), ``anthropic`` or ``gemini``; ``url`` its base URL when not the provider's
    public API. The key is read from the environment only: ``key_env`` names the variable
    (default ``OPENAI_API_KEY``, ``ANTHROPIC_API_KEY``, or ``GEMINI_API_KEY`` then
    ``GOOGLE_API_KEY``); without one the calls go without a key, which a local server accepts.
    ``key_header`` and ``query`` are for servers that want the key in another header or a query
    string on every call (Azure: ``key_header="api-key"``, ``query="api-version=2024-10-21"``).

    ``timeout`` is seconds to wait for a verdict; ``prompt`` the prompt version (``v2`` shows the
    schema and both results, ``v1`` the question and queries only); ``concurrency`` the calls in
    flight at once. Verdicts are
    cached on disk in ``cache_dir`` (default ``$XDG_CACHE_HOME/qeval/judge`` or
    ``~/.cache/qeval/judge``) for ``cache_ttl`` seconds, unless ``cache`` is false; a call
    reuses its own verdicts either way. Where the judge fails (an HTTP error, no answer in time,
    a reply that is not a verdict), the structural judge's score stands and the explanation says
    why, as with the command line.
    """

    provider: str
    model: str
    url: Optional[str] = None
    key_env: Optional[str] = None
    key_header: Optional[str] = None
    query: Optional[str] = None
    timeout: float = 30.0
    prompt: str = "v2"
    concurrency: int = 4
    cache: bool = True
    cache_dir: Union[str, os.PathLike, None] = None
    cache_ttl: float = 24 * 3600.0

    def _fields(self) -> dict[str, Any]:
        fields = dataclasses.asdict(self)
        if fields["cache_dir"] is not None:
            fields["cache_dir"] = os.fspath(fields["cache_dir"])
        return fields


def _judge(judge: Optional[Judge]) -> Optional[dict[str, Any]]:
    if judge is None:
        return None
    if not isinstance(judge, Judge):
        raise TypeError(f"judge is a qeval.Judge, not {type(judge).__name__}")
    return judge._fields()


def tables(sql: str, dialect: str = "generic", language: str = "sql") -> list[str]:
    """The base tables ``sql`` reads, in order of first appearance, as ``qeval tables`` prints them.

    SQL names are lower-cased and qualified as written (``sales.orders``); KQL names are kept as
    written. Raises :class:`InputError` when the query does not parse, with the position.
    """
    return _native.tables(sql, dialect, language)


def _options(options: dict[str, Any]) -> dict[str, Any]:
    unknown = sorted(set(options) - set(_OPTIONS))
    if unknown:
        raise TypeError(f"unknown option {unknown[0]!r} (options: {', '.join(_OPTIONS)})")
    if "judge" in options:
        options = {**options, "judge": _judge(options["judge"])}
    return options


def _line(pair: Union[dict[str, Any], str]) -> str:
    if isinstance(pair, str):
        return pair
    if not isinstance(pair, dict):
        raise TypeError(f"a pair is a dict of pairs-file fields or a JSON line, not {type(pair).__name__}")
    return json.dumps(pair, default=str)


def score_pair(generated: str, expected: Optional[str] = None, **fields: Any) -> dict[str, Any]:
    """Scores one generated query against the expected one: the scorecard ``qeval score`` writes.

    ``fields`` are the pairs file's other fields (``expected_result``, ``generated_result``,
    ``question``, ``expected_tables``, ``id``, ...) and the options of ``qeval score``:
    ``profile``, ``mode``, ``dialect``, ``language``, ``tolerance``, ``numeric_tolerance``,
    ``ignore_case``; and for the equivalence check both SQL queries get (as the command runs it
    by default) ``equivalence=False`` to skip it, ``databases`` (how many generated databases, 40), ``seed``
    (1), ``search`` (how many more databases the boundary search may build once they agree, 200;
    0 for none) and ``schema`` (``CREATE TABLE`` text, as ``qeval score --schema``: the names generated
    queries are checked against, and the equivalence check's tables, inferred from the queries
    when absent); ``judge`` (a :class:`Judge`) to ask an LLM. Raises :class:`InputError` naming
    the field at fault.
    """
    options = _options({name: fields.pop(name) for name in _OPTIONS if name in fields})
    pair = {"generated_sql": generated, **fields}
    if expected is not None:
        pair["expected_sql"] = expected
    [(ok, text)] = _native.score_lines([_line(pair)], None, **options)
    if not ok:
        error = json.loads(text)["error"]
        where = f"field `{error['field']}`: " if "field" in error else ""
        raise InputError(where + error["message"])
    return json.loads(text)


def score_pairs(pairs: Iterable[Union[dict[str, Any], str]], **options: Any) -> list[dict[str, Any]]:
    """Scores many pairs (dicts of pairs-file fields, or the file's JSON lines): one dict each, in
    order, exactly as ``qeval score`` writes its output lines.

    A pair that cannot be read does not stop the others: its entry is the record the command
    writes for a bad line, ``{"line": n, "error": {"message", "field"?, "column"?}}``.
    """
    lines = [_line(pair) for pair in pairs]
    numbers = list(range(1, len(lines) + 1))
    return [json.loads(text) for _, text in _native.score_lines(lines, numbers, **_options(options))]


def run(
    run_dir: Union[str, os.PathLike],
    *,
    profile: Optional[str] = None,
    mode: Optional[str] = None,
    dialect: Optional[str] = None,
    language: Optional[str] = None,
    questions: Union[str, os.PathLike, None] = None,
    labels: Union[str, os.PathLike, None] = None,
    output: Union[str, os.PathLike, None] = None,
    db: Union[str, os.PathLike, None] = None,
    suite: Optional[int] = None,
    seed: int = 1,
    search: Optional[int] = None,
    judge: Optional[Judge] = None,
    limit: Optional[int] = None,
    by: Iterable[str] = (),
    csv: Union[str, os.PathLike, None] = None,
    junit: Union[str, os.PathLike, None] = None,
    markdown: Union[str, os.PathLike, None] = None,
    time_limit: float = 10.0,
    max_rows: int = 100_000,
) -> dict[str, Any]:
    """Scores a run folder as ``qeval run`` does: its ``test-results.jsonl`` into
    ``evaluation-results.jsonl`` (or ``output``), each test's missing results run on the SQLite
    database ``db`` first when given; the questions file is ``questions`` or one found beside
    the run (files are found by the rules ``qeval run`` uses). A folder with only
    ``evaluation-results.jsonl`` has each record's stored scores checked against its own data
    instead.

    ``suite`` (with ``db``): also check each test's two queries on that many databases generated
    from ``db``'s schema, from ``seed`` (the ``test_suite`` field of each record), and on up to
    ``search`` more the boundary search builds (200 by default), as ``qeval run --db DB --suite N
    --seed S --search M``.

    ``judge`` (a :class:`Judge`): ask an LLM for the metrics it judges, as ``qeval run --judge``.
    The other options are ``qeval run``'s of the same names: ``labels`` (a human labels file; by
    default the run folder's, when it has one) to measure the judges against, ``limit`` (score only
    the first N tests), ``by`` (fields to give pass rates by, besides the usual ones), and ``csv``,
    ``junit``, ``markdown`` (paths to write those exports to), and for ``db``, ``time_limit``
    (seconds a query may run) and ``max_rows`` (rows kept of a result).

    Returns ``{"summary", "rejected", "unclassified", "exports", "output"?, "unanswered"?,
    "contradicted"?, "judge"?, "labels"?}``: the summary the report shows, the lines that could
    not be read (file, line, reason; the others are still scored), the tests left out of the
    classification metrics (test, field, reason), the exports written, where the records went,
    the questions without a result, the records whose stored scores their data contradicts, what
    the judge did (``{"judge", "calls", "cache_hits", "errors"}``) and the labels file used
    (``{"file", "labels", "applied"}``).
    """
    path = lambda value: None if value is None else os.fspath(value)  # noqa: E731
    if isinstance(by, str):
        raise TypeError("by is a list of field names, not one string")
    text = _native.run_folder(
        os.fspath(run_dir),
        profile=profile,
        mode=mode,
        dialect=dialect,
        language=language,
        questions=path(questions),
        labels=path(labels),
        output=path(output),
        db=path(db),
        suite=suite,
        seed=seed,
        search=search,
        judge=_judge(judge),
        limit=limit,
        by=list(by),
        csv=path(csv),
        junit=path(junit),
        markdown=path(markdown),
        time_limit=time_limit,
        max_rows=max_rows,
    )
    return json.loads(text)


def compare(
    expected: Any,
    generated: Any,
    mode: str = "bag",
    *,
    order_matters: bool = False,
    tolerance: float = 1e-9,
    ignore_case: bool = False,
) -> dict[str, Any]:
    """Compares two query results: the comparison ``qeval compare`` prints, as a dict
    (``equal``, ``score``, ``explanation``, row counts, ...).

    A result is a list of tuples (as ``cursor.fetchall()`` gives it), any iterable of rows, a
    pandas or polars DataFrame, or a pyarrow Table (those three are read from their Arrow
    buffers, not cell by cell through Python, when their columns are numbers, text, booleans or
    nulls; other columns are read through Python). ``mode`` is one of ``bag`` (Spider's
    ``result_eq``), ``set`` (BIRD's EX), ``subset``, ``soft-f1`` (BIRD's Soft-F1), ``f1`` and
    ``seed``. Values keep the type Python gives them: ``1``, ``1.0`` and ``True`` compare as
    Python compares them in the modes that follow Python's equality.
    """
    text = with_rows(
        lambda a, b: _native.compare(a, b, mode, order_matters, tolerance, ignore_case), expected, generated
    )
    return json.loads(text)
