from typing import Any, Iterable, Sequence

__version__: str

class ArrowTypeError(TypeError):
    """Arrow data with a column type read through Python instead (dates, decimals, nested)."""

class InputError(ValueError):
    """An input qeval cannot read: the message names the field or position at fault."""

def tables(sql: str, dialect: str = "generic", language: str = "sql") -> list[str]: ...
def score_lines(
    lines: list[str],
    numbers: list[int] | None = None,
    *,
    profile: str | None = None,
    mode: str | None = None,
    dialect: str | None = None,
    language: str | None = None,
    tolerance: float | None = None,
    numeric_tolerance: float | None = None,
    ignore_case: bool | None = None,
    equivalence: bool = True,
    databases: int | None = None,
    seed: int = 1,
    search: int | None = None,
    schema: str | None = None,
    judge: dict[str, Any] | None = None,
) -> list[tuple[bool, str]]: ...
def pairs_file_lines(data: bytes) -> list[tuple[int, str | None, str | None]]: ...
def run_folder(
    run_dir: str,
    *,
    profile: str | None = None,
    mode: str | None = None,
    dialect: str | None = None,
    language: str | None = None,
    questions: str | None = None,
    labels: str | None = None,
    output: str | None = None,
    db: str | None = None,
    suite: int | None = None,
    seed: int = 1,
    search: int | None = None,
    judge: dict[str, Any] | None = None,
    limit: int | None = None,
    by: list[str] = ...,
    csv: str | None = None,
    junit: str | None = None,
    markdown: str | None = None,
    time_limit: float = 10.0,
    max_rows: int = 100000,
) -> str: ...
def compare(
    expected: Iterable[Sequence[Any]],
    generated: Iterable[Sequence[Any]],
    mode: str = "bag",
    order_matters: bool = False,
    tolerance: float = 1e-9,
    ignore_case: bool = False,
) -> str: ...
def verdict(
    expected: Iterable[Sequence[Any]],
    generated: Iterable[Sequence[Any]],
    mode: str,
    order_matters: bool = False,
) -> tuple[bool, float]: ...
def defog_compare_df(
    gold: tuple[list[tuple[str, Any]], int],
    generated: tuple[list[tuple[str, Any]], int],
    gold_plan: dict[str, Any] | None,
    generated_plan: dict[str, Any] | None,
) -> bool | None: ...
def defog_subset_df(
    sub: tuple[list[tuple[str, Any]], int],
    sup: tuple[list[tuple[str, Any]], int],
    sub_plan: dict[str, Any] | None,
    sup_plan: dict[str, Any] | None,
) -> tuple[bool | None, int | None]: ...

class BenchPlan:
    """A benchmark planned from its files; its jobs run here (``run``) or elsewhere."""

    def jobs(self, per_job: int) -> list[str]: ...
    def per_job(self, workers: int) -> int: ...
    def databases(self) -> list[str]: ...
    def absorb(self, answers: list[str]) -> None: ...
    def run(self, workers: int) -> None: ...
    def finish(
        self,
        *,
        dialect: str = "SQLite",
        output: list[str] = ...,
        json: str | None = None,
        output_log_path: str | None = None,
    ) -> str: ...

def bench_spider(
    gold: str,
    predictions: list[str],
    db: str,
    *,
    etype: str = "exec",
    table: str | None = None,
    keep_distinct: bool = False,
    plug_value: bool = False,
    plug_value_limit: int = 10000,
    time_limit: float = 60.0,
    max_rows: int = 1000000,
    strict: bool = False,
) -> BenchPlan: ...
def bench_bird(
    gold: str,
    predictions: list[str],
    db_root: str,
    *,
    diff: str | None = None,
    metrics: list[str] = ...,
    meta_time_out: float = 30.0,
    sql_dialect: str = "SQLite",
    ves_iterations: int = 100,
    max_rows: int = 1000000,
    strict: bool = False,
) -> BenchPlan: ...
def bench_spider2(
    result_dir: str,
    gold_dir: str,
    *,
    mode: str = "exec_result",
    variant: str | None = None,
    instances: str | None = None,
    db: str | None = None,
    timeout: float | None = None,
    max_rows: int = 1000000,
    strict: bool = False,
) -> BenchPlan: ...
def bench_run_job(job: str, database: str) -> str: ...
def bench_run_job_bytes(job: str, database: bytes) -> str: ...
