"""Benchmark (not a test): 100,000 pairs scored on a local Ray cluster (``ray.init(num_cpus=2)``)
against ``qeval score`` on the same file, both without the equivalence check (which would
dominate both alike). Pairs are generated from a fixed seed. Prints pairs per second for each;
Ray's figure includes reading the file and gathering the results, not starting the cluster.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
import time

import ray

import qeval.ray

PAIRS = int(os.environ.get("QEVAL_BENCH_PAIRS", "100000"))


def pairs(count: int) -> list[dict]:
    rng = random.Random(11)
    tables = ["users", "orders", "items", "singer", "concert"]
    out = []
    for i in range(count):
        table, other = rng.sample(tables, 2)
        expected = f"SELECT name, count(*) FROM {table} JOIN {other} ON {other}.id = {table}.{other}_id WHERE age > {rng.randrange(90)} GROUP BY name"
        generated = expected if rng.random() < 0.4 else expected.replace(">", ">=").replace("count(*)", "count(1)")
        out.append({"id": i, "generated_sql": generated, "expected_sql": expected})
    return out


def main() -> None:
    cli = sys.argv[1]
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "pairs.jsonl")
        with open(path, "w", encoding="utf-8") as out:
            for pair in pairs(PAIRS):
                out.write(json.dumps(pair) + "\n")
        started = time.perf_counter()
        printed = subprocess.run([cli, "score", "--pairs", path, "--no-equivalence"], capture_output=True, text=True, check=False).stdout
        cli_s = time.perf_counter() - started
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        try:
            started = time.perf_counter()
            lines = qeval.ray.run(path, equivalence=False)[path]
            ray_s = time.perf_counter() - started
        finally:
            ray.shutdown()
    same = "".join(line + "\n" for line in lines) == printed
    print("| scorer | pairs | seconds | pairs/s |")
    print("|---|---|---|---|")
    print(f"| qeval score (CLI, every core) | {PAIRS:,} | {cli_s:.2f} | {PAIRS / cli_s:,.0f} |")
    print(f"| qeval.ray.run (local cluster, 2 CPUs) | {PAIRS:,} | {ray_s:.2f} | {PAIRS / ray_s:,.0f} |")
    print(f"output identical to the CLI's: {same}")
    if os.environ.get("QEVAL_BENCH_OUT"):
        with open(os.environ["QEVAL_BENCH_OUT"], "w", encoding="utf-8") as out:
            json.dump({"pairs": PAIRS, "cli_s": cli_s, "ray_s": ray_s, "identical": same}, out)


if __name__ == "__main__":
    main()
