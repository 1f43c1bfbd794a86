#!/usr/bin/env python3
"""Measures the equivalence check on published pairs whose verdicts a bounded model checker decided.

The pairs are VeriEQL's benchmarks (He et al., OOPSLA 2024: Calcite's rewrite rules and pairs from
the literature), with the schema and integrity constraints of each, and VeriEQL's own recorded
verdicts. They are not kept in this repository; take them from the VeriEQL repository:

    benchmarks/calcite/calcite2.jsonlines         the pairs, schemas and constraints
    benchmarks/literature/literature.jsonlines
    experiments/2023_03_27/calcite.out             VeriEQL's verdicts (`states`)
    experiments/2023_03_27/literature.out

A pair counts as refuted when VeriEQL found a counterexample (a state `NEQ`) and as proved
equivalent when it verified every bound it reached (`EQU`, then a time-out); pairs it could not
read or run (`SYN`, `NSE`, `NIE`) are left out, as they have no verdict to hold us to.

    python3 tests/equivalence/published/measure.py --qeval target/release/qeval \
        --pairs calcite2.jsonlines literature.jsonlines --verdicts calcite.out literature.out

It checks every pair twice with `qeval score`: with the two queries alone (the inferred schema),
and with the benchmark's schema and constraints as `CREATE TABLE` statements (`schema` on the
pair). It prints, for each, how many refuted pairs were called different, how many proved pairs
were called different, and how many got no verdict; `--out FILE` writes every pair's verdicts.
"""

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile


def read_jsonl(path):
    with open(path, encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def label_of(states):
    """VeriEQL's verdict: refuted, proved (up to its bound), or none."""
    if "NEQ" in states:
        return "refuted"
    if states and states[0] == "EQU":
        return "proved"
    return None


def column_name(qualified):
    """`EMP__DEPTNO` -> (`EMP`, `DEPTNO`): VeriEQL names a column after its table."""
    table, _, column = qualified.partition("__")
    return table, column


SQL_TYPES = {"INT": "INTEGER", "INTEGER": "INTEGER", "VARCHAR": "TEXT", "DATE": "DATE",
             "BOOLEAN": "BOOLEAN", "REAL": "REAL", "DOUBLE": "REAL", "FLOAT": "REAL"}


def create_tables(schema, constraints):
    """The benchmark's schema with its NOT NULL, PRIMARY KEY and FOREIGN KEY constraints."""
    not_null = set()
    primary = collections.defaultdict(list)
    foreign = collections.defaultdict(list)
    for constraint in constraints or []:
        if "not_null" in constraint:
            not_null.add(column_name(constraint["not_null"]["value"]))
        elif "primary" in constraint:
            for part in constraint["primary"]:
                table, column = column_name(part["value"])
                primary[table].append(column)
        elif "foreign" in constraint:
            (table, column), (parent, key) = (column_name(part["value"])
                                              for part in constraint["foreign"])
            foreign[table].append((column, parent, key))
    statements = []
    for table, columns in schema.items():
        lines = []
        for column, kind in columns.items():
            sql_type = SQL_TYPES.get((kind or "INT").upper(), "TEXT")
            null = " NOT NULL" if (table, column) in not_null else ""
            lines.append(f"  {column} {sql_type}{null}")
        if primary[table]:
            lines.append(f"  PRIMARY KEY ({', '.join(primary[table])})")
        for column, parent, key in foreign[table]:
            lines.append(f"  FOREIGN KEY ({column}) REFERENCES {parent} ({key})")
        statements.append(f"CREATE TABLE {table} (\n" + ",\n".join(lines) + "\n);")
    return "\n".join(statements)


def score(qeval, pairs, extra):
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as file:
        for pair in pairs:
            file.write(json.dumps(pair) + "\n")
        path = file.name
    try:
        run = subprocess.run([qeval, "score", "--pairs", path, *extra], capture_output=True,
                             text=True, check=False)
    finally:
        os.unlink(path)
    cards = {}
    for line in run.stdout.splitlines():
        if not line.strip():
            continue
        card = json.loads(line)
        cards[card.get("id")] = card
    if not cards:
        sys.exit(f"qeval score gave no scorecards:\n{run.stderr[-2000:]}")
    return cards


def verdict_of(card):
    metric = (card or {}).get("metrics", {}).get("equivalence")
    if not metric:
        return "no_verdict", "no equivalence metric"
    details = metric.get("details") or {}
    verdict = details.get("verdict") or "no_verdict"
    return verdict, details.get("reason") or metric.get("explanation", "")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--qeval", required=True, help="the qeval binary")
    parser.add_argument("--pairs", nargs="+", required=True)
    parser.add_argument("--verdicts", nargs="+", required=True)
    parser.add_argument("--out", help="write every pair's verdicts here (JSON Lines)")
    parser.add_argument("--seed", default="1")
    parser.add_argument("--only", help="only the pairs whose id contains this")
    args = parser.parse_args()

    pairs = []
    for pairs_path, verdicts_path in zip(args.pairs, args.verdicts):
        name = os.path.basename(pairs_path).split(".")[0].rstrip("0123456789")
        verdicts = {row["index"]: row["states"] for row in read_jsonl(verdicts_path)}
        for row in read_jsonl(pairs_path):
            label = label_of(verdicts.get(row["index"], []))
            if label is None:
                continue
            pair_id = f"{name}-{row['index']}"
            if args.only and args.only not in pair_id:
                continue
            expected, generated = row["pair"]
            pairs.append({"id": pair_id, "label": label, "expected_sql": expected,
                          "generated_sql": generated,
                          "schema": create_tables(row["schema"], row.get("constraint"))})

    lines = {}
    for setting in ("inferred", "schema"):
        batch = []
        for pair in pairs:
            line = {"id": pair["id"], "expected_sql": pair["expected_sql"],
                    "generated_sql": pair["generated_sql"]}
            if setting == "schema":
                line["schema"] = pair["schema"]
            batch.append(line)
        cards = score(args.qeval, batch, ["--seed", args.seed])
        table = collections.Counter()
        for pair in pairs:
            verdict, reason = verdict_of(cards.get(pair["id"]))
            table[(pair["label"], verdict)] += 1
            lines.setdefault(pair["id"], {"id": pair["id"], "label": pair["label"]})
            lines[pair["id"]][setting] = {"verdict": verdict, "reason": reason}
        refuted = sum(n for (label, _), n in table.items() if label == "refuted")
        proved = len(pairs) - refuted
        caught = table[("refuted", "different")]
        wrong = table[("proved", "different")]
        none = sum(n for (_, verdict), n in table.items() if verdict == "no_verdict")
        print(f"{setting} schema: {caught}/{refuted} refuted pairs called different; "
              f"{wrong}/{proved} proved pairs called different ({100 * wrong / max(proved, 1):.1f}%); "
              f"{none}/{len(pairs)} without a verdict ({100 * none / max(len(pairs), 1):.1f}%)")
        for (label, verdict), n in sorted(table.items()):
            print(f"    {label:8} {verdict:28} {n}")
    if args.out:
        with open(args.out, "w", encoding="utf-8") as out:
            for line in lines.values():
                out.write(json.dumps(line) + "\n")


if __name__ == "__main__":
    main()
