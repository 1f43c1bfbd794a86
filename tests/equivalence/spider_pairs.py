"""Spider gold/prediction pairs: is any pair that differs called equivalent?

The 1,100 pairs of `tests/bench/spider/exact` (Spider's gold queries over six databases, each with
a prediction: rewrites, near misses, wrong columns, values and joins) are checked with `qeval
score` (comparison `bag`, each database's `CREATE TABLE` statements as the pair's schema). The
truth is the benchmark's own database: both queries run on it with Python's sqlite3, their rows
compared as multisets, columns in order. A pair whose results differ there is different, and the
check must not call it equivalent (or equivalent under an assumption, which the database's keys
hold). A pair equal only under a permutation of its columns is counted apart, since Spider's
execution match accepts it; a pair where a query fails on the database is left out.

    cargo build --profile tool -p qeval-cli
    python3 tests/equivalence/spider_pairs.py --qeval target/tool/qeval [--seed N]
"""
import argparse
import collections
import itertools
import json
import os
import sqlite3
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
EXACT = os.path.join(HERE, "..", "bench", "spider", "exact")


def script(name):
    return open(os.path.join(EXACT, "database", name, name + ".sql")).read()


def rows(connection, query):
    try:
        return [tuple(r) for r in connection.execute(query).fetchall()]
    except sqlite3.Error:
        return None


def truth(a, b):
    """`same`, `permuted` (equal once b's columns are reordered) or `differs`."""
    if collections.Counter(a) == collections.Counter(b):
        return "same"
    if a and b and len(a[0]) == len(b[0]) <= 6:
        for order in itertools.permutations(range(len(b[0]))):
            if collections.Counter(a) == collections.Counter(tuple(r[k] for k in order) for r in b):
                return "permuted"
    return "differs"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--qeval", required=True, help="the qeval binary")
    parser.add_argument("--seed", default="1")
    args = parser.parse_args()
    gold = [line.rstrip("\n").split("\t") for line in open(os.path.join(EXACT, "gold.txt")) if line.strip()]
    predictions = [line.rstrip("\n") for line in open(os.path.join(EXACT, "pred.txt"))]
    databases, truths, lines = {}, {}, []
    for i, ((expected, name), generated) in enumerate(zip(gold, predictions)):
        if name not in databases:
            databases[name] = sqlite3.connect(":memory:")
            databases[name].executescript(script(name))
        a, b = rows(databases[name], expected), rows(databases[name], generated)
        if a is None or b is None:
            continue
        truths[f"spider-{i}"] = truth(a, b)
        creates = ";\n".join(s for s in script(name).split(";") if "CREATE" in s.upper()) + ";"
        lines.append(json.dumps({"id": f"spider-{i}", "expected_sql": expected, "generated_sql": generated,
                                 "schema": creates, "mode": "bag"}))
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as pairs:
        pairs.write("\n".join(lines) + "\n")
    run = subprocess.run([args.qeval, "score", "--pairs", pairs.name, "--seed", args.seed],
                         capture_output=True, text=True)
    os.unlink(pairs.name)
    verdicts = {}
    for line in run.stdout.splitlines():
        try:
            card = json.loads(line)
        except json.JSONDecodeError:
            continue
        equivalence = (card.get("metrics") or {}).get("equivalence") or {}
        verdicts[card["id"]] = (equivalence.get("details") or {}).get("verdict") or "none"
    table = collections.Counter((truths[k], verdicts.get(k, "not scored")) for k in truths)
    for (t, v), n in sorted(table.items()):
        print(f"    {t:<9} {v:<28} {n}")
    wrong = [k for k in truths if truths[k] == "differs"
             and verdicts.get(k) in ("equivalent", "equivalent_under_assumption")]
    differ = sum(1 for t in truths.values() if t == "differs")
    print(f"{len(truths)} pairs run on their database; {differ} differ there, "
          f"{len(wrong)} of them called equivalent (seed {args.seed})")
    for k in wrong:
        i = int(k.split("-")[1])
        print(f"  {k}: {gold[i][0]}\n  {' ' * len(k)}  {predictions[i]}")


if __name__ == "__main__":
    main()
