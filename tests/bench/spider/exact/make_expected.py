#!/usr/bin/env python3
"""Regenerate expected/ for the Spider exact-set-match fixtures.

    python make_expected.py /path/to/test-suite-sql-eval

The official evaluator is NOT part of this repository. These files were made with
taoyds/test-suite-sql-eval at commit e97acc5 ("Create LICENSE"), Python 3.11.7, sqlparse 0.6.1,
nltk 3.10.4. Run this script with a Python that has the official requirements installed.

Spider's parser (process_sql.tokenize) calls nltk.word_tokenize, which needs nltk's punkt data
(not downloadable here). Both the command line and the direct calls below run with
`nltk.word_tokenize = functools.partial(nltk.word_tokenize, preserve_line=True)`, patched in
before the official modules are imported. That skips sentence splitting only; SQL has no
sentences once its string literals are replaced by placeholders, so the tokens are the same.

What it writes, in expected/ beside this script:
  match.txt      stdout of `evaluation.py --etype match` on gold.txt / pred.txt
  all.txt        stdout of `evaluation.py --etype all`
  verdicts.jsonl one object per pair, from the official functions called the way evaluate() calls
                 them: hardness of the gold (Evaluator.eval_hardness on the parsed gold, before the
                 rebuild), exact (eval_exact_match after rebuild_sql_val/rebuild_sql_col with the
                 foreign-key map), the partial scores, whether get_sql parsed the prediction (if
                 not, the empty query stands in, as in evaluate()), and both SQL dicts after the
                 rebuild (captured before eval_sel, which removes matched items from the gold's
                 select list in place).

The databases are built from database/<db_id>/<db_id>.sql into a temporary folder.
"""
import copy
import functools
import json
import os
import sqlite3
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PATCH = "nltk.word_tokenize = functools.partial(nltk.word_tokenize, preserve_line=True)"

EMPTY_SQL = {
    "except": None,
    "from": {"conds": [], "table_units": []},
    "groupBy": [],
    "having": [],
    "intersect": None,
    "limit": None,
    "orderBy": [],
    "select": [False, []],
    "union": None,
    "where": [],
}


def build_databases(dst):
    src = os.path.join(HERE, "database")
    for db_id in sorted(os.listdir(src)):
        os.makedirs(os.path.join(dst, db_id))
        conn = sqlite3.connect(os.path.join(dst, db_id, db_id + ".sqlite"))
        with open(os.path.join(src, db_id, db_id + ".sql")) as f:
            conn.executescript(f.read())
        conn.commit()
        conn.close()


def run_cli(official, db_dir, etype):
    code = ("import sys, functools, runpy, nltk; " + PATCH + "; sys.argv = sys.argv[1:]; "
            "sys.path.insert(0, %r); runpy.run_path(sys.argv[0], run_name='__main__')" % official)
    cmd = [sys.executable, "-c", code, os.path.join(official, "evaluation.py"),
           "--gold", os.path.join(HERE, "gold.txt"), "--pred", os.path.join(HERE, "pred.txt"),
           "--db", db_dir, "--table", os.path.join(HERE, "tables.json"), "--etype", etype]
    out = subprocess.run(cmd, cwd=official, stdout=subprocess.PIPE, check=True, text=True)
    return out.stdout


def verdicts(official, db_dir):
    import nltk
    nltk.word_tokenize = functools.partial(nltk.word_tokenize, preserve_line=True)
    sys.path.insert(0, official)
    import evaluation as ev
    from process_sql import Schema, get_schema, get_sql

    kmaps = ev.build_foreign_key_map_from_json(os.path.join(HERE, "tables.json"))
    with open(os.path.join(HERE, "gold.txt")) as f:
        golds = [l.strip().split("\t") for l in f if l.strip()]
    with open(os.path.join(HERE, "pred.txt")) as f:
        preds = [l.rstrip("\n") for l in f if l.strip()]
    assert len(golds) == len(preds)

    evaluator = ev.Evaluator()
    rows = []
    for n, ((g_str, db_id), pred_line) in enumerate(zip(golds, preds), 1):
        # exactly what evaluate() does with a line
        p_str = pred_line.strip().split("\t")[0].replace("value", "1")
        schema = Schema(get_schema(os.path.join(db_dir, db_id, db_id + ".sqlite")))
        g_sql = get_sql(schema, g_str)
        hardness = evaluator.eval_hardness(g_sql)
        pred_error = None
        try:
            p_sql = get_sql(schema, p_str)
        except Exception as e:  # evaluate() uses a bare except
            pred_error = "%s: %s" % (type(e).__name__, e)
            p_sql = copy.deepcopy(EMPTY_SQL)
        kmap = kmaps[db_id]
        g_valid = ev.build_valid_col_units(g_sql["from"]["table_units"], schema)
        g_sql = ev.rebuild_sql_col(g_valid, ev.rebuild_sql_val(g_sql), kmap)
        p_valid = ev.build_valid_col_units(p_sql["from"]["table_units"], schema)
        p_sql = ev.rebuild_sql_col(p_valid, ev.rebuild_sql_val(p_sql), kmap)
        gold_dump = json.loads(json.dumps(g_sql))
        pred_dump = json.loads(json.dumps(p_sql)) if pred_error is None else None
        exact = evaluator.eval_exact_match(p_sql, g_sql)
        row = {
            "line": n,
            "db_id": db_id,
            "gold": g_str,
            "pred": pred_line,
        }
        if p_str != pred_line:
            row["pred_evaluated"] = p_str
        row.update({
            "hardness": hardness,
            "exact": int(exact),
            "partial": evaluator.partial_scores,
            "pred_parses": pred_error is None,
        })
        if pred_error is not None:
            row["pred_error"] = pred_error
        row["gold_sql"] = gold_dump
        row["pred_sql"] = pred_dump
        rows.append(row)
    return rows


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make_expected.py OFFICIAL_CHECKOUT")
    official = os.path.abspath(sys.argv[1])
    out_dir = os.path.join(HERE, "expected")
    os.makedirs(out_dir, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        build_databases(tmp)
        for etype in ("match", "all"):
            with open(os.path.join(out_dir, etype + ".txt"), "w") as f:
                f.write(run_cli(official, tmp, etype))
        rows = verdicts(official, tmp)
    with open(os.path.join(out_dir, "verdicts.jsonl"), "w") as f:
        for row in rows:
            f.write(json.dumps(row, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
