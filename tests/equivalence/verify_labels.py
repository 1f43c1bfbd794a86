#!/usr/bin/env python3
"""Check every label in pairs.jsonl by running both queries on SQLite.

For each pair the script builds many small random databases (0-10 rows a table; values drawn from
the literals of both queries and their neighbours, small integers, a few strings with case and
prefix/suffix variants, NULLs and duplicates; some databases have empty tables, constant columns
or repeated rows) and compares the two results the way the checker does: rows as a multiset,
columns matched up to a permutation, row order only when the expected query has a top-level
ORDER BY. Rows tied on the ORDER BY key may come in any order, and when a LIMIT cuts through a
tie the rows kept are not determined.

  equivalent     no database may separate the two queries (3000 databases), and neither query
                 may have a LIMIT that cuts a tie between different rows;
  different      some database must separate them in every mode (up to 3000 databases a mode);
                 a separation counts only if it does not depend on tie order or on which tied
                 rows a LIMIT keeps;
  equivalent_if  some database must separate them, and none of 2000 databases that satisfy the
                 stated assumption ("t.c is never NULL", "t.c is unique", or both) may.

Modes: every pair runs in plain SQLite; pairs using LIKE also with case-sensitive LIKE (as in
PostgreSQL and DuckDB); mysql and mssql pairs also with case-insensitive text columns (COLLATE
NOCASE, their default collations), text compared case-folded in that mode.

Pairs with a `schema` run on exactly that schema (rows drawn to respect PRIMARY KEY, UNIQUE,
NOT NULL and FOREIGN KEY, with PRAGMA foreign_keys=ON). Pairs without one run on the
constraint-free verification schema that verify_schemas.json names for them; there, numeric
columns sometimes hold non-integers, since no type is declared to the checker.

Dialect syntax is translated first: `name` and [name] become "name", SELECT TOP n becomes LIMIT n.

Usage: python3 tests/equivalence/verify_labels.py [--jobs N] [--only ID,...] [--quick]
Only the Python standard library is used. Exit status 1 when any label or lint check fails.
"""

import argparse
import collections
import itertools
import json
import os
import random
import re
import sqlite3
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PAIRS = os.path.join(HERE, "pairs.jsonl")
VSCHEMAS = os.path.join(HERE, "verify_schemas.json")

N_EQUIV = 3000
N_DIFF = 3000
N_EQIF = 2000
N_BOUNDARY = 20000  # the boundary class: databases a mode for the targeted search

LABELS = ("equivalent", "different", "equivalent_if")
DIALECTS = ("sqlite", "generic", "postgres", "mysql", "mssql", "duckdb")


# ---------------------------------------------------------------------------------------------
# Tokenizer and dialect translation


class SqlError(Exception):
    pass


_TOKEN = re.compile(
    r"""
    (?P<ws>\s+)
  | (?P<comment>--[^\n]*|/\*.*?\*/)
  | (?P<str>'(?:[^']|'')*')
  | (?P<qid>"(?:[^"]|"")*"|`(?:[^`]|``)*`|\[[^\]]*\])
  | (?P<num>(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?)
  | (?P<word>[A-Za-z_][A-Za-z0-9_$]*)
  | (?P<op><=|>=|<>|!=|==|\|\||[-+*/%(),.;=<>|&~])
    """,
    re.S | re.X,
)


def tokenize(sql):
    out = []
    pos = 0
    while pos < len(sql):
        m = _TOKEN.match(sql, pos)
        if not m:
            raise SqlError("cannot tokenize at %r" % sql[pos : pos + 20])
        out.append([m.lastgroup, m.group()])
        pos = m.end()
    return out


def untokenize(tokens):
    return "".join(t[1] for t in tokens)


def is_kw(tok, *words):
    return tok[0] == "word" and tok[1].upper() in words


def sig_indices(tokens):
    return [i for i, t in enumerate(tokens) if t[0] not in ("ws", "comment")]


def depths(tokens):
    """Parenthesis depth of every token (a '(' has the outer depth, its ')' too)."""
    d = 0
    out = []
    for t in tokens:
        if t[1] == ")":
            d -= 1
        out.append(d)
        if t[1] == "(":
            d += 1
    return out


def translate(sql, dialect):
    """Dialect syntax to SQLite: quoted identifiers to double quotes, SELECT TOP n to LIMIT n."""
    tokens = tokenize(sql)
    for t in tokens:
        if t[0] == "qid" and t[1][0] in "`[":
            inner = t[1][1:-1]
            if t[1][0] == "`":
                inner = inner.replace("``", "`")
            t[1] = '"' + inner.replace('"', '""') + '"'
    while True:
        sig = sig_indices(tokens)
        top = None
        for k, i in enumerate(sig):
            if is_kw(tokens[i], "TOP") and k > 0:
                prev = tokens[sig[k - 1]]
                if is_kw(prev, "SELECT") or (
                    is_kw(prev, "DISTINCT", "ALL") and k > 1 and is_kw(tokens[sig[k - 2]], "SELECT")
                ):
                    top = k
                    break
        if top is None:
            break
        if dialect != "mssql":
            raise SqlError("TOP outside an mssql pair")
        k = top
        j = k + 1
        paren = tokens[sig[j]][1] == "("
        if paren:
            j += 1
        if tokens[sig[j]][0] != "num":
            raise SqlError("TOP without a number")
        n = tokens[sig[j]][1]
        last = j + 1 if paren else j
        d = depths(tokens)
        level = d[sig[k]]
        # the end of this SELECT: the closing parenthesis of its level, or the end
        end = len(tokens)
        for i in range(sig[last] + 1, len(tokens)):
            if tokens[i][0] in ("ws", "comment"):
                continue
            if d[i] < level:
                end = i
                break
            if d[i] == level and (
                is_kw(tokens[i], "UNION", "EXCEPT", "INTERSECT") or is_kw(tokens[i], "LIMIT")
            ):
                raise SqlError("TOP together with a set operation or LIMIT")
        # trailing ';' stays after LIMIT
        ins = end
        while ins > 0 and (tokens[ins - 1][0] in ("ws", "comment") or tokens[ins - 1][1] == ";"):
            ins -= 1
        tokens = (
            tokens[: sig[k]]
            + tokens[sig[last] + 1 : ins]
            + [["ws", " "], ["word", "LIMIT"], ["ws", " "], ["num", n]]
            + tokens[ins:]
        )
    return untokenize(tokens).strip().rstrip(";").strip()


def literals(sql):
    """Numbers and strings written in a (translated) query."""
    nums, strs = [], []
    tokens = [t for t in tokenize(sql) if t[0] not in ("ws", "comment")]
    for i, t in enumerate(tokens):
        if t[0] == "num":
            neg = i > 0 and tokens[i - 1][1] == "-" and (i < 2 or tokens[i - 2][0] in ("op", "word"))
            v = float(t[1]) if ("." in t[1] or "e" in t[1].lower()) else int(t[1])
            nums.append(-v if neg else v)
        elif t[0] == "str":
            strs.append(t[1][1:-1].replace("''", "'"))
    return nums, strs


# ---------------------------------------------------------------------------------------------
# Constructs of classes.jsonl: translated to SQLite only for pairs with a `class` (pairs.jsonl
# and heldout.jsonl run exactly as before). FULL JOIN, TRUE/FALSE, IS [NOT] DISTINCT FROM,
# names with $ and SQLite's `a IS b` run on SQLite 3.39+ as written.


def match_paren(tokens, i):
    """Index of the ')' closing the '(' at i."""
    depth = 0
    for j in range(i, len(tokens)):
        if tokens[j][1] == "(":
            depth += 1
        elif tokens[j][1] == ")":
            depth -= 1
            if depth == 0:
                return j
    raise SqlError("unbalanced parentheses")


def translate_values(tokens):
    """(VALUES r, ...) [AS] t (c1, ...), and the bare FROM VALUES r, ... [AS] t (c1, ...), become
    (SELECT column1 AS c1, ... FROM (VALUES r, ...)) AS t; MySQL's ROW(...) rows lose ROW."""
    skip = set()
    while True:
        sig = sig_indices(tokens)
        hit = None
        for k, i in enumerate(sig):
            if i in skip or not is_kw(tokens[i], "VALUES") or k == 0:
                continue
            prev = tokens[sig[k - 1]]
            if prev[1] == "(":
                start = sig[k - 1]
                body_end = match_paren(tokens, start)  # the ')' closing (VALUES ...)
                body = tokens[i:body_end]
                after = body_end + 1
            elif is_kw(prev, "FROM", "JOIN") or prev[1] == ",":
                start = i
                kk = k + 1
                end = None
                while kk < len(sig):
                    if is_kw(tokens[sig[kk]], "ROW"):
                        kk += 1
                    if kk >= len(sig) or tokens[sig[kk]][1] != "(":
                        break
                    end = match_paren(tokens, sig[kk])
                    kk = next((x for x, j in enumerate(sig) if j > end), len(sig))
                    if kk < len(sig) and tokens[sig[kk]][1] == "," and kk + 1 < len(sig) and (
                        tokens[sig[kk + 1]][1] == "(" or is_kw(tokens[sig[kk + 1]], "ROW")
                    ):
                        kk += 1
                        continue
                    break
                if end is None:
                    skip.add(i)
                    continue
                body = tokens[i : end + 1]
                after = end + 1
            else:
                skip.add(i)
                continue
            rest = [j for j in sig if j >= after]
            r = 0
            if r < len(rest) and is_kw(tokens[rest[r]], "AS"):
                r += 1
            if not (r + 1 < len(rest) and tokens[rest[r]][0] in ("word", "qid")
                    and tokens[rest[r + 1]][1] == "("):
                skip.add(i)
                continue
            alias = tokens[rest[r]][1]
            close = match_paren(tokens, rest[r + 1])
            cols = [t[1] for t in tokens[rest[r + 1] + 1 : close] if t[0] in ("word", "qid")]
            hit = (start, close, body, alias, cols)
            break
        if hit is None:
            return tokens
        start, close, body, alias, cols = hit
        btoks = [t for k, t in enumerate(body)
                 if not (is_kw(t, "ROW") and k + 1 < len(body) and body[k + 1][1] == "(")]
        repl = "(SELECT %s FROM (%s)) AS %s" % (
            ", ".join("column%d AS %s" % (n + 1, c) for n, c in enumerate(cols)),
            untokenize(btoks).strip(), alias)
        tokens = tokens[:start] + tokenize(repl) + tokens[close + 1 :]


STRING_TYPES = ("VARCHAR", "NVARCHAR", "CHARACTER VARYING", "CHAR VARYING")
DECIMAL_TYPES = ("DECIMAL", "NUMERIC", "DEC")


def translate_casts(tokens, dialect):
    """CAST(x AS VARCHAR(n)) truncates to n characters (PostgreSQL, SQL Server; MySQL's
    CAST(x AS CHAR(n)) too): SUBSTR(CAST(x AS TEXT), 1, n). CAST(x AS DECIMAL(p, s)) rounds to s
    places: ROUND(x, s). SQLite itself ignores the sizes, so sqlite pairs keep the cast."""
    if dialect == "sqlite":
        return tokens
    limit = len(tokens)
    while True:
        sig = sig_indices(tokens)
        cand = None
        for k in range(len(sig) - 2, -1, -1):
            if sig[k] < limit and is_kw(tokens[sig[k]], "CAST") and tokens[sig[k + 1]][1] == "(":
                cand = k
                break
        if cand is None:
            return tokens
        limit = sig[cand]
        open_i = sig[cand + 1]
        close_i = match_paren(tokens, open_i)
        d = depths(tokens)
        inner = [j for j in sig if open_i < j < close_i and d[j] == d[open_i] + 1]
        as_pos = [j for j in inner if is_kw(tokens[j], "AS")]
        if not as_pos:
            raise SqlError("CAST without AS")
        as_i = as_pos[-1]
        ttoks = [tokens[j] for j in sig if as_i < j < close_i]
        names = []
        while ttoks and ttoks[0][0] == "word":
            names.append(ttoks.pop(0)[1].upper())
        args = [int(t[1]) for t in ttoks if t[0] == "num"]
        if not args:
            continue
        tname = " ".join(names)
        expr = untokenize(tokens[open_i + 1 : as_i]).strip()
        if tname in ("CHAR", "CHARACTER"):
            if dialect != "mysql":
                raise SqlError("CAST AS CHAR(n) pads with spaces outside MySQL; not translated")
            tname = "VARCHAR"
        if tname in STRING_TYPES:
            repl = "SUBSTR(CAST(%s AS TEXT), 1, %d)" % (expr, args[0])
        elif tname in DECIMAL_TYPES:
            repl = "ROUND(%s, %d)" % (expr, args[1] if len(args) > 1 else 0)
        else:
            continue
        tokens = tokens[: sig[cand]] + tokenize(repl) + tokens[close_i + 1 :]


def count_select_items(tokens):
    sig = [i for i in sig_indices(tokens)]
    d = depths(tokens)
    if not sig:
        raise SqlError("empty set operand")
    base = d[sig[0]]
    sel = next((i for i in sig if d[i] == base and is_kw(tokens[i], "SELECT")), None)
    if sel is None:
        raise SqlError("set operand is not a SELECT")
    end = next((i for i in sig if i > sel and d[i] == base and is_kw(tokens[i], "FROM", "WHERE",
                                                                        "GROUP", "ORDER", "LIMIT")), len(tokens))
    n = 1 + sum(1 for i in sig if sel < i < end and d[i] == base and tokens[i][1] == ",")
    if any(tokens[i][1] == "*" and sel < i < end and d[i] == base for i in sig):
        raise SqlError("set operand selects *")
    return n


def translate_set_all(tokens):
    """A INTERSECT ALL B and A EXCEPT ALL B (two operands) become
    WITH l(c...) AS (A), r(c...) AS (B) SELECT c... FROM (SELECT c..., ROW_NUMBER() OVER
    (PARTITION BY c...) FROM l INTERSECT|EXCEPT SELECT c..., ROW_NUMBER() ... FROM r):
    the k-th copy of a row survives as often as the multiset operation keeps it."""
    counter = 0
    while True:
        sig = sig_indices(tokens)
        d = depths(tokens)
        pos = None
        for k in range(len(sig) - 1):
            if is_kw(tokens[sig[k]], "INTERSECT", "EXCEPT") and is_kw(tokens[sig[k + 1]], "ALL"):
                pos = k
                break
        if pos is None:
            return tokens
        op = sig[pos]
        all_i = sig[pos + 1]
        level = d[op]
        lo, hi = 0, len(tokens)
        for j in range(op - 1, -1, -1):
            if tokens[j][1] == "(" and d[j] == level - 1:
                lo = j + 1
                break
        for j in range(op + 1, len(tokens)):
            if tokens[j][1] == ")" and d[j] == level - 1:
                hi = j
                break
        span = [j for j in sig if lo <= j < hi]
        body = span[0]
        head = ""
        if is_kw(tokens[body], "WITH"):
            first = next((j for j in span if j > body and d[j] == level and is_kw(tokens[j], "SELECT")), None)
            if first is None:
                raise SqlError("WITH without a SELECT")
            head = untokenize(tokens[body:first]).strip()
            body = first
        ops = [j for j in span if j >= body and d[j] == level
               and is_kw(tokens[j], "UNION", "INTERSECT", "EXCEPT")]
        if len(ops) != 1:
            raise SqlError("INTERSECT ALL / EXCEPT ALL with more than two operands")
        if any(j > all_i and d[j] == level and is_kw(tokens[j], "ORDER", "LIMIT") for j in span):
            raise SqlError("ORDER BY or LIMIT after INTERSECT ALL / EXCEPT ALL")
        a = tokens[body:op]
        b = tokens[all_i + 1 : hi]
        n = count_select_items(a)
        counter += 1
        cols = ", ".join("_c%d" % (x + 1) for x in range(n))
        left, right = "_setall_l%d" % counter, "_setall_r%d" % counter
        ctes = "%s(%s) AS (%s), %s(%s) AS (%s)" % (
            left, cols, untokenize(a).strip(), right, cols, untokenize(b).strip())
        head = head + ", " + ctes if head else "WITH " + ctes
        num = "ROW_NUMBER() OVER (PARTITION BY %s)" % cols
        repl = "%s SELECT %s FROM (SELECT %s, %s AS _k FROM %s %s SELECT %s, %s AS _k FROM %s)" % (
            head, cols, cols, num, left, tokens[op][1].upper(), cols, num, right)
        tokens = tokens[:lo] + tokenize(repl) + tokens[hi:]


def translate_fetch(tokens):
    """[OFFSET m ROW[S]] [FETCH FIRST|NEXT [n] ROW[S] ONLY] become LIMIT n OFFSET m."""
    while True:
        sig = sig_indices(tokens)
        hit = None
        for k, i in enumerate(sig):
            if not is_kw(tokens[i], "OFFSET", "FETCH"):
                continue
            kk = k
            off = None
            cnt = None
            if is_kw(tokens[i], "OFFSET"):
                if not (kk + 2 < len(sig) and tokens[sig[kk + 1]][0] == "num"
                        and is_kw(tokens[sig[kk + 2]], "ROW", "ROWS")):
                    continue  # LIMIT n OFFSET m
                off = tokens[sig[kk + 1]][1]
                kk += 3
            if kk < len(sig) and is_kw(tokens[sig[kk]], "FETCH"):
                if not (kk + 1 < len(sig) and is_kw(tokens[sig[kk + 1]], "FIRST", "NEXT")):
                    raise SqlError("FETCH without FIRST or NEXT")
                kk += 2
                cnt = "1"
                if kk < len(sig) and tokens[sig[kk]][0] == "num":
                    cnt = tokens[sig[kk]][1]
                    kk += 1
                if not (kk + 1 < len(sig) and is_kw(tokens[sig[kk]], "ROW", "ROWS")
                        and is_kw(tokens[sig[kk + 1]], "ONLY")):
                    raise SqlError("FETCH ... WITH TIES or an unknown FETCH clause")
                kk += 2
            repl = "LIMIT %s" % (cnt if cnt is not None else "9223372036854775807")
            if off is not None:
                repl += " OFFSET %s" % off
            hit = (i, sig[kk - 1], repl)
            break
        if hit is None:
            return tokens
        a, b, repl = hit
        tokens = tokens[:a] + tokenize(repl) + tokens[b + 1 :]


def translate_null_order(tokens):
    """PostgreSQL sorts NULLs as larger than every value: an ORDER BY item without NULLS FIRST/LAST
    gets NULLS LAST when ascending and NULLS FIRST when descending (SQLite does the opposite)."""
    sig = sig_indices(tokens)
    d = depths(tokens)
    inserts = []
    for k in range(len(sig) - 1):
        if not (is_kw(tokens[sig[k]], "ORDER") and is_kw(tokens[sig[k + 1]], "BY")):
            continue
        level = d[sig[k]]
        items, cur = [], []
        for j in sig[k + 2 :]:
            if d[j] < level:
                break
            if d[j] == level and (tokens[j][1] == ";" or is_kw(
                    tokens[j], "LIMIT", "OFFSET", "FETCH", "ROWS", "RANGE", "GROUPS", "UNION",
                    "INTERSECT", "EXCEPT")):
                break
            if d[j] == level and tokens[j][1] == ",":
                items.append(cur)
                cur = []
                continue
            cur.append(j)
        items.append(cur)
        for it in items:
            if not it or any(is_kw(tokens[j], "NULLS") for j in it if d[j] == level):
                continue
            inserts.append((it[-1], " NULLS FIRST" if is_kw(tokens[it[-1]], "DESC") else " NULLS LAST"))
    for pos, text in sorted(inserts, reverse=True):
        tokens.insert(pos + 1, ["ws", text])
    return tokenize(untokenize(tokens))


def translate_constructs(sql, dialect):
    """The constructs of classes.jsonl to SQLite (after translate())."""
    tokens = tokenize(sql)
    tokens = translate_values(tokens)
    tokens = translate_casts(tokens, dialect)
    tokens = translate_set_all(tokens)
    tokens = translate_fetch(tokens)
    if dialect == "postgres":
        tokens = translate_null_order(tokens)
    return untokenize(tokens).strip()


# ---------------------------------------------------------------------------------------------
# Query shape: top-level ORDER BY / LIMIT, select list, keyed variant to read the sort key


def norm_tokens(toks):
    out = []
    for t in toks:
        if t[0] in ("ws", "comment"):
            continue
        if t[0] == "word":
            out.append(t[1].lower())
        elif t[0] == "qid":
            out.append(t[1][1:-1].replace('""', '"').lower())
        else:
            out.append(t[1])
    return " ".join(out)


def split_commas(tokens, lo, hi, d):
    parts, start = [], lo
    for i in range(lo, hi):
        if tokens[i][1] == "," and d[i] == 0:
            parts.append((start, i))
            start = i + 1
    parts.append((start, hi))
    return parts


NOT_ALIAS = {"END", "NULL", "TRUE", "FALSE", "DISTINCT", "ALL"}


class Shape:
    """What we need to know about one query to compare results the checker's way."""

    def __init__(self, sql):
        self.sql = sql
        tokens = tokenize(sql)
        d = depths(tokens)
        sig = [i for i in sig_indices(tokens) if tokens[i][1] != ";"]
        top = [i for i in sig if d[i] == 0]
        self.compound = any(is_kw(tokens[i], "UNION", "EXCEPT", "INTERSECT") for i in top)
        self.ordered = False
        self.limit = None  # (count, offset)
        self.items = []  # ORDER BY expressions as token ranges
        self.keyed_sql = None  # query returning output columns + key columns, no LIMIT
        self.key_idx = None  # indices (into keyed rows) forming the sort key
        self.ncols_extra = 0
        order_pos = None
        for a, b in zip(top, top[1:]):
            if is_kw(tokens[a], "ORDER") and is_kw(tokens[b], "BY"):
                order_pos = (a, b)
        limit_pos = None
        for i in top:
            if is_kw(tokens[i], "LIMIT"):
                limit_pos = i
        if limit_pos is not None:
            rest = [tokens[i] for i in sig if i > limit_pos]
            vals = [t for t in rest if t[0] == "num"]
            words = [t[1].upper() for t in rest if t[0] == "word"]
            if not vals or len(vals) > 2 or any(t[0] not in ("num", "word", "op") for t in rest):
                raise SqlError("unsupported LIMIT clause")
            if len(vals) == 1:
                self.limit = (int(vals[0][1]), 0)
            elif "OFFSET" in words:
                self.limit = (int(vals[0][1]), int(vals[1][1]))
            else:  # LIMIT offset, count
                self.limit = (int(vals[1][1]), int(vals[0][1]))
        if order_pos is None:
            return
        self.ordered = True
        end = limit_pos if limit_pos is not None else len(tokens)
        # ORDER BY items
        items = []
        for lo, hi in split_commas(tokens, order_pos[1] + 1, end, d):
            toks = [t for t in tokens[lo:hi] if t[0] not in ("ws", "comment") and t[1] != ";"]
            while toks and (
                is_kw(toks[-1], "ASC", "DESC", "FIRST", "LAST", "NULLS")
                or (len(toks) >= 2 and is_kw(toks[-2], "COLLATE"))
            ):
                toks = toks[:-2] if (len(toks) >= 2 and is_kw(toks[-2], "COLLATE")) else toks[:-1]
            items.append(toks)
        # select list of the (first) main SELECT core
        sel = None
        for i in top:
            if is_kw(tokens[i], "SELECT"):
                sel = i
                break
        if sel is None:
            return
        frm = None
        for i in top:
            if i > sel and is_kw(tokens[i], "FROM", "WHERE", "GROUP", "HAVING", "ORDER", "WINDOW",
                                 "UNION", "EXCEPT", "INTERSECT", "LIMIT"):
                frm = i
                break
        first = sel + 1
        while tokens[first][0] in ("ws", "comment"):
            first += 1
        distinct = is_kw(tokens[first], "DISTINCT")
        if is_kw(tokens[first], "DISTINCT", "ALL"):
            first += 1
        sel_items = []  # (normalized expression, alias or None, last identifier or None)
        for lo, hi in split_commas(tokens, first, frm, d):
            toks = [t for t in tokens[lo:hi] if t[0] not in ("ws", "comment")]
            alias = None
            if len(toks) >= 3 and is_kw(toks[-2], "AS"):
                alias = norm_tokens(toks[-1:])
                toks = toks[:-2]
            elif (
                len(toks) >= 2
                and toks[-1][0] in ("word", "qid")
                and toks[-1][1].upper() not in NOT_ALIAS
                and toks[-2][1] != "."
                and (toks[-2][0] in ("word", "qid", "num", "str") or toks[-2][1] == ")")
                and not is_kw(toks[-2], "CASE", "WHEN", "THEN", "ELSE", "AND", "OR", "NOT", "IS")
            ):
                alias = norm_tokens(toks[-1:])
                toks = toks[:-1]
            last = None
            if len(toks) == 1 and toks[0][0] in ("word", "qid"):
                last = norm_tokens(toks)
            elif len(toks) == 3 and toks[1][1] == "." and toks[2][0] in ("word", "qid"):
                last = norm_tokens(toks[2:])
            sel_items.append((norm_tokens(toks), alias, last))
        ncols = len(sel_items)
        key_idx = []
        extra = []
        for toks in items:
            text = norm_tokens(toks)
            if len(toks) == 1 and toks[0][0] == "num":
                key_idx.append(int(toks[0][1]) - 1)
                continue
            hits = [j for j, (e, a, l) in enumerate(sel_items) if text == e or text == a]
            if len(hits) != 1 and len(toks) == 1:
                hits = [j for j, (e, a, l) in enumerate(sel_items) if text == l]
            if len(hits) == 1:
                key_idx.append(hits[0])
            else:
                if self.compound or distinct:
                    return  # sort key unknown
                key_idx.append(ncols + len(extra))
                extra.append(untokenize([t for t in toks]))
        before = tokens[:frm] if frm is not None else tokens[:end]
        after = tokens[frm:end] if frm is not None else []
        if extra:
            keyed = untokenize(before).rstrip() + ", " + ", ".join(extra) + " " + untokenize(after)
        else:
            keyed = untokenize(before) + untokenize(after)
        self.keyed_sql = keyed.strip().rstrip(";")
        self.key_idx = key_idx
        self.ncols_extra = len(extra)


class Result:
    """One execution: the rows, and what is determined about them."""

    def __init__(self, rows, groups=None, ordered=False, determined=True, order_known=True):
        self.rows = rows
        self.groups = groups  # ordered: [(Counter of rows in the tie group, rows taken)]
        self.ordered = ordered
        self.determined = determined  # False when a LIMIT cuts a tie of different rows
        self.order_known = order_known


def fold_rows(rows):
    return [tuple(v.lower() if isinstance(v, str) else v for v in r) for r in rows]


def run(conn, shape, fold=False):
    """Runs a query. fold: compare text case-insensitively (a case-insensitive collation picks
    any spelling of a group's or DISTINCT's value, so only the folded value is determined)."""
    cur = conn.execute(shape.sql)
    rows = [tuple(r) for r in cur.fetchall()]
    if fold:
        rows = fold_rows(rows)
    if not shape.ordered:
        det = shape.limit is None  # LIMIT without ORDER BY: not determined
        return Result(rows, determined=det)
    if shape.keyed_sql is None:
        return Result(rows, ordered=True, determined=shape.limit is None, order_known=False)
    try:
        full = [tuple(r) for r in conn.execute(shape.keyed_sql).fetchall()]
    except sqlite3.Error:
        return Result(rows, ordered=True, determined=shape.limit is None, order_known=False)
    if fold:
        full = fold_rows(full)
    n = len(full[0]) - shape.ncols_extra if full else (len(rows[0]) if rows else 0)
    keyed = [(tuple(r[i] for i in shape.key_idx), r[:n]) for r in full]
    lo, hi = 0, len(keyed)
    if shape.limit is not None:
        cnt, off = shape.limit
        lo = min(off, len(keyed))
        hi = min(off + cnt, len(keyed)) if cnt >= 0 else len(keyed)
    groups = []
    determined = True
    i = 0
    while i < len(keyed):
        j = i
        while j < len(keyed) and keyed[j][0] == keyed[i][0]:
            j += 1
        take = max(0, min(j, hi) - max(i, lo))
        if take:
            c = collections.Counter(r for _, r in keyed[i:j])
            if take < j - i and len(c) > 1:
                determined = False
            groups.append((c, take))
        i = j
    res = Result(rows, groups=groups, ordered=True, determined=determined)
    if not acceptable_perm(res, rows, [tuple(range(len(rows[0])))] if rows else [()]):
        # our reading of the sort key disagrees with SQLite's own output: compare without it
        return Result(rows, ordered=True, determined=shape.limit is None, order_known=False)
    return res


def acceptable_perm(exp, rows, perms):
    for p in perms:
        prow = [tuple(r[i] for i in p) for r in rows]
        k = 0
        ok = True
        for c, take in exp.groups:
            seg = collections.Counter(prow[k : k + take])
            k += take
            if take == sum(c.values()):
                if seg != c:
                    ok = False
                    break
            elif seg - c:
                ok = False
                break
        if ok and k == len(prow):
            return True
    return False


def candidate_perms(erows, grows):
    """Permutations p of the generated columns such that column p[i] can match expected column i."""
    if not erows or not grows:
        n = len(erows[0]) if erows else (len(grows[0]) if grows else 0)
        return [tuple(range(n))]
    ne, ng = len(erows[0]), len(grows[0])
    if ne != ng:
        return []
    ecols = [collections.Counter(r[i] for r in erows) for i in range(ne)]
    gcols = [collections.Counter(r[i] for r in grows) for i in range(ng)]
    options = [[j for j in range(ng) if gcols[j] == ecols[i]] for i in range(ne)]
    perms = []
    for p in itertools.product(*options):
        if len(set(p)) == ne:
            perms.append(p)
            if len(perms) > 200:
                break
    return perms


def compare(exp, gen):
    """'same', 'differ' (a difference the checker must see) or 'unsure'."""
    erows, grows = exp.rows, gen.rows
    if len(erows) != len(grows):
        return "differ"
    if erows and grows and len(erows[0]) != len(grows[0]):
        return "differ"
    perms = candidate_perms(erows, grows)
    if not perms:
        bag_same = False
    else:
        ce = collections.Counter(erows)
        bag_same = any(collections.Counter(tuple(r[i] for i in p) for r in grows) == ce for p in perms)
    if not exp.ordered:
        if not exp.determined or not gen.determined:
            return "unsure" if not bag_same else "same_undetermined"
        return "same" if bag_same else "differ"
    # ordered
    if not exp.order_known:
        if not exp.determined or not gen.determined:
            return "unsure"
        if not bag_same:
            return "differ"
        strict = any([tuple(r[i] for i in p) for r in grows] == erows for p in perms)
        return "same" if strict else "unsure"
    ok = acceptable_perm(exp, grows, perms) if perms else False
    if exp.determined and gen.determined:
        return "same" if ok else "differ"
    if ok:
        return "same_undetermined"
    return "unsure"


# ---------------------------------------------------------------------------------------------
# Schemas and random databases


class Col:
    def __init__(self, name, decl, notnull, pk):
        self.name = name
        self.decl = decl or ""
        u = self.decl.upper()
        if "INT" in u:
            self.kind = "int"
        elif any(x in u for x in ("REAL", "FLOA", "DOUB", "NUM", "DEC")):
            self.kind = "real"
        else:
            self.kind = "text"
        self.notnull = bool(notnull) or bool(pk)
        self.pk = bool(pk)


class Table:
    def __init__(self, name):
        self.name = name
        self.cols = []
        self.uniques = []  # tuples of column indices
        self.fks = []  # (child col indices, parent table, parent col names)


def nocase_ddl(ddl):
    tokens = tokenize(ddl)
    out = []
    i = 0
    while i < len(tokens):
        t = tokens[i]
        out.append(t)
        if is_kw(t, "TEXT", "VARCHAR", "CHAR", "NVARCHAR", "CHARACTER", "CLOB", "STRING"):
            j = i + 1
            while j < len(tokens) and tokens[j][0] == "ws":
                j += 1
            if j < len(tokens) and tokens[j][1] == "(":
                k = j
                while tokens[k][1] != ")":
                    k += 1
                out.extend(tokens[i + 1 : k + 1])
                i = k
            out.append(["ws", " COLLATE NOCASE"])
        i += 1
    return untokenize(out)


def load_schema(ddl):
    conn = sqlite3.connect(":memory:")
    conn.executescript(ddl)
    names = [r[0] for r in conn.execute(
        "SELECT name FROM sqlite_master WHERE type='table' ORDER BY rowid")]
    tables = []
    for name in names:
        t = Table(name)
        for cid, cname, ctype, notnull, _dflt, pk in conn.execute('PRAGMA table_info("%s")' % name):
            t.cols.append(Col(cname, ctype, notnull, pk))
        pkcols = tuple(i for i, c in enumerate(t.cols) if c.pk)
        if pkcols:
            t.uniques.append(pkcols)
        for _seq, iname, unique, _origin, _partial in conn.execute('PRAGMA index_list("%s")' % name):
            if unique:
                cols = tuple(
                    [c.name for c in t.cols].index(r[2])
                    for r in conn.execute('PRAGMA index_info("%s")' % iname)
                )
                if cols not in t.uniques:
                    t.uniques.append(cols)
        fks = collections.OrderedDict()
        for row in conn.execute('PRAGMA foreign_key_list("%s")' % name):
            fid, _seq, parent, frm, to = row[:5]
            fks.setdefault(fid, [parent, [], []])
            fks[fid][1].append([c.name for c in t.cols].index(frm))
            fks[fid][2].append(to)
        for parent, frm, to in fks.values():
            t.fks.append((tuple(frm), parent, to))
        tables.append(t)
    conn.close()
    # parents first
    order, seen = [], set()

    def visit(t, stack=()):
        if t.name in seen:
            return
        for _f, parent, _to in t.fks:
            p = next((x for x in tables if x.name.lower() == parent.lower()), None)
            if p is not None and p is not t and p.name not in stack:
                visit(p, stack + (t.name,))
        seen.add(t.name)
        order.append(t)

    for t in tables:
        visit(t)
    for t in order:
        for k, (frm, parent, to) in enumerate(t.fks):
            p = next(x for x in tables if x.name.lower() == parent.lower())
            if to == [None] * len(to):  # REFERENCES parent without columns: its primary key
                to = [p.cols[i].name for i in p.uniques[0]]
            t.fks[k] = (frm, p, [[c.name.lower() for c in p.cols].index(x.lower()) for x in to])
    return order


def variants(s):
    out = {s, s.lower(), s.upper(), s.swapcase(), s.capitalize(), s + "s", "z" + s}
    if len(s) > 1:
        out.add(s[:-1])
    if "%" in s or "_" in s:
        for fill in ("", "q", "Zz"):
            base = s.replace("%", fill).replace("_", "k")
            out.update({base, base.lower(), base.upper()})
        core = s.strip("%")
        out.update({core, "x" + core, core + "x", "x" + core + "x"})
    return out


def make_pools(nums, strs, halves=False, boundary=False):
    """halves (classes.jsonl): non-integers next to the integer literals too (3.5 for `x > 3`).
    boundary (the boundary class): values that sums, multiples and differences of a few rows
    need to land exactly on a literal (L // k and its neighbours, L - M, L + M)."""
    ints = set(range(0, 6))
    reals = set()
    for v in nums:
        if isinstance(v, int):
            ints.update({v - 1, v, v + 1})
            if halves:
                reals.update({v - 0.5, v + 0.5})
        else:
            reals.update({v, v - 0.5, v + 0.5, float(int(v)), float(int(v) + 1)})
    if boundary:
        small = sorted({v for v in nums if isinstance(v, int) and abs(v) <= 100000})
        for v in small:
            ints.update({v - 3, v - 2, v + 2, v + 3})
            for k in range(2, 7):
                q = v // k
                ints.update({q - 1, q, q + 1})
        for a, b in itertools.combinations(small, 2):
            ints.update({a - b, b - a, a + b})
    reals.update(ints)
    reals.update({0.5, 1.5, 2.5})
    texts = {"x", "y", "ab"}
    for s in strs:
        texts.update(variants(s))
    small = [v for v in nums if isinstance(v, int) and abs(v) <= 1000]
    extra = set()
    for a, b in itertools.combinations_with_replacement(sorted(set(small)), 2):
        if 1 < abs(a * b) <= 10 ** 6:
            extra.update({a * b, a * b + 1, a * b + max(1, abs(a) // 2)})
    ints.update(sorted(extra)[:24])
    return {"int": sorted(ints), "real": sorted(reals), "text": sorted(texts)}


def sum_parts(rng, target, k):
    """k integers that add up to target (the last one takes the rest)."""
    if k <= 1:
        return [target]
    cuts = sorted(rng.randint(0, max(0, target)) for _ in range(k - 1)) if target >= 0 else [0] * (k - 1)
    parts = [b - a for a, b in zip([0] + cuts, cuts + [target])]
    return parts


ROWCOUNTS = [0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 8, 9, 10]


class Generator:
    def __init__(self, tables, pools, rng, assume=None, constrained=True, boundary=None):
        self.tables = tables
        self.pools = pools
        self.rng = rng
        self.assume = assume or {}  # (table, col) lower -> set of 'notnull', 'unique', 'integer'
        self.constrained = constrained
        self.boundary = boundary  # the boundary class: integer literals to build sums towards

    def database(self):
        rng = self.rng
        style = rng.random()
        sub = {}
        skew = style > 0.88  # each column either constant or spread: large groups, many values
        for kind, pool in self.pools.items():
            k = rng.choice([1, 2, 2, 3, 3, 4, 5, len(pool)])
            sub[kind] = rng.sample(pool, min(k, len(pool)))
        pnull = rng.choice([0, 0, 0.1, 0.2, 0.35])
        dup = rng.random() < 0.3
        data = {}
        for t in self.tables:
            n = rng.choice(ROWCOUNTS)
            if skew:
                n = rng.randint(5, 10)
            if style < 0.04:
                n = 0
            elif style < 0.08:
                n = 1
            colpools, colnull, kinds = [], [], []
            for c in t.cols:
                kind = c.kind
                a = self.assume.get((t.name.lower(), c.name.lower()), ())
                # without a declared schema a numeric column may hold non-integers too
                if kind == "int" and not self.constrained and rng.random() < 0.15:
                    kind = "real"
                if "integer" in a:
                    kind = "int"
                kinds.append(kind)
                pool = self.pools[kind]
                if skew:
                    cp = [rng.choice(pool)] if rng.random() < 0.5 else pool
                elif rng.random() < 0.6:
                    cp = sub[kind]
                else:
                    cp = rng.sample(pool, min(len(pool), rng.choice([1, 2, 3, 4, 6, len(pool)])))
                colpools.append(cp)
                nn = (c.notnull and self.constrained) or "notnull" in a
                colnull.append(0 if nn else (pnull if rng.random() < 0.7 else 0))
            uniques = list(t.uniques) if self.constrained else []
            for i, c in enumerate(t.cols):
                if "unique" in self.assume.get((t.name.lower(), c.name.lower()), ()):
                    uniques.append((i,))
            seen = [set() for _ in uniques]
            rows = []
            for _ in range(n * 3):
                if len(rows) >= n:
                    break
                row = []
                for i, c in enumerate(t.cols):
                    if colnull[i] and rng.random() < colnull[i]:
                        row.append(None)
                    else:
                        cp = colpools[i]
                        if any(i in u for u in uniques) and rng.random() < 0.5:
                            cp = self.pools[kinds[i]]
                        row.append(rng.choice(cp))
                ok = True
                if self.constrained:
                    for frm, parent, to in t.fks:
                        prows = data.get(parent.name, []) if parent is not t else rows
                        vals = [row[i] for i in frm]
                        if any(v is None for v in vals):
                            if all(not t.cols[i].notnull for i in frm):
                                continue
                        if prows and rng.random() < 0.9:
                            pr = rng.choice(prows)
                            for i, j in zip(frm, to):
                                row[i] = pr[j]
                        elif all(not t.cols[i].notnull for i in frm):
                            for i in frm:
                                row[i] = None
                        else:
                            ok = False
                        vals = [row[i] for i in frm]
                        if ok and None not in vals and not any(
                            all(pr[j] == v for j, v in zip(to, vals)) for pr in prows
                        ):
                            ok = False
                if not ok:
                    continue
                for k, u in enumerate(uniques):
                    key = tuple(row[i] for i in u)
                    if None in key:
                        continue
                    if key in seen[k]:
                        ok = False
                        break
                if not ok:
                    continue
                for k, u in enumerate(uniques):
                    key = tuple(row[i] for i in u)
                    if None not in key:
                        seen[k].add(key)
                rows.append(tuple(row))
            if dup and rows and not uniques:
                for _ in range(rng.randint(1, 3)):
                    rows.append(rng.choice(rows))
                rng.shuffle(rows)
            if self.boundary is not None:
                rows = self.toward_boundary(t, rows, kinds, uniques)
            data[t.name] = rows
        self.keep_references(data)
        return data

    def keep_references(self, data):
        """Assumed foreign keys ("t.c always names a u.d"): a value of t.c that u.d lacks becomes
        one of u.d's values, or NULL when u.d has none; a row that cannot keep the assumption
        (t.c never NULL, or unique) is dropped."""
        for t in self.tables:
            for i, c in enumerate(t.cols):
                kinds = self.assume.get((t.name.lower(), c.name.lower()), ())
                for kind in kinds:
                    if not isinstance(kind, tuple):
                        continue
                    _, un, dn = kind
                    parent = next(p for p in self.tables if p.name.lower() == un)
                    j = next(k for k, pc in enumerate(parent.cols) if pc.name.lower() == dn)
                    values = sorted({r[j] for r in data.get(parent.name, []) if r[j] is not None}, key=repr)
                    rows, seen = [], set()
                    for row in data.get(t.name, []):
                        if row[i] is not None and row[i] not in values:
                            row = list(row)
                            row[i] = self.rng.choice(values) if values else None
                            row = tuple(row)
                        if row[i] is None and "notnull" in kinds:
                            continue
                        if "unique" in kinds and row[i] is not None:
                            if row[i] in seen:
                                continue
                            seen.add(row[i])
                        rows.append(row)
                    data[t.name] = rows

    def toward_boundary(self, t, rows, kinds, uniques):
        """The boundary class: sometimes more rows in one group (up to 12), and an integer column
        whose values in the group add up to a literal of the queries (or one off)."""
        rng = self.rng
        if uniques or rng.random() < 0.4:
            return rows
        if rows and rng.random() < 0.5:
            proto = rng.choice(rows)
            rows = rows + [proto] * rng.randint(1, 6)
        nums = [i for i, k in enumerate(kinds) if k == "int"]
        if rows and nums and self.boundary and rng.random() < 0.7:
            col = rng.choice(nums)
            target = rng.choice(self.boundary) + rng.choice([0, 0, 0, -1, 1])
            k = rng.randint(1, min(len(rows), 6))
            parts = sum_parts(rng, target, k)
            key = [i for i in range(len(kinds)) if i != col]
            pick = rng.sample(range(len(rows)), k)
            base = rows[pick[0]]
            rows = list(rows)
            for idx, v in zip(pick, parts):
                r = list(rows[idx])
                for i in key:
                    if rng.random() < 0.8:
                        r[i] = base[i]
                r[col] = v
                rows[idx] = tuple(r)
        return rows


def fill(conn, tables, data):
    for t in tables:
        rows = data[t.name]
        if not rows:
            continue
        sql = 'INSERT INTO "%s" VALUES (%s)' % (t.name, ",".join("?" * len(t.cols)))
        conn.execute("SAVEPOINT fill")
        try:
            conn.executemany(sql, rows)
            conn.execute("RELEASE fill")
        except sqlite3.IntegrityError:
            # e.g. a UNIQUE text column under a case-insensitive collation: drop the offending rows
            conn.execute("ROLLBACK TO fill")
            conn.execute("RELEASE fill")
            kept = []
            for r in rows:
                try:
                    conn.execute(sql, r)
                    kept.append(r)
                except sqlite3.IntegrityError:
                    pass
            data[t.name] = kept


def dump(tables, data):
    parts = []
    for t in tables:
        rows = data[t.name]
        parts.append("%s(%s): %s" % (t.name, ",".join(c.name for c in t.cols), rows))
    return "; ".join(parts)


# ---------------------------------------------------------------------------------------------
# Checking one pair


ASSUME_KINDS = {"never null": "notnull", "unique": "unique", "an integer": "integer"}


def parse_assumption_full(text):
    """An assumption is parts joined with " and ": "t.c is never NULL", "t.c is unique",
    "t.c is an integer" (a part without "t.c is" continues the previous column, as in
    "t.c is unique and never NULL"), "t.c always names a u.d" (a foreign key: every value of t.c
    that is not NULL is a value of u.d), and "t has no other columns". Returns
    ({(t, c): {'notnull', 'unique', 'integer', ('references', u, d)}}, {t with no other columns},
    all parts understood)."""
    cols, tables = {}, set()
    subject = None
    ok = bool(text and text.strip())
    for part in re.split(r"\s+and\s+", (text or "").strip()):
        m = re.fullmatch(r"(?:(\w+)\.(\w+) )?always names an? (\w+)\.(\w+)", part.strip())
        if m:
            if m.group(1):
                subject = (m.group(1).lower(), m.group(2).lower())
            if subject is None:
                ok = False
                continue
            cols.setdefault(subject, set()).add(("references", m.group(3).lower(), m.group(4).lower()))
            continue
        m = re.fullmatch(r"(\w+)\.(\w+) is (.+)", part.strip())
        if m:
            subject = (m.group(1).lower(), m.group(2).lower())
            what = m.group(3)
        else:
            m = re.fullmatch(r"(\w+) has no other columns", part.strip())
            if m:
                tables.add(m.group(1).lower())
                subject = None
                continue
            what = re.sub(r"^is\s+", "", part.strip())
        kind = ASSUME_KINDS.get(what.strip().lower())
        if kind is None or subject is None:
            ok = False
            continue
        cols.setdefault(subject, set()).add(kind)
    return cols, tables, ok


def parse_assumption(text):
    return parse_assumption_full(text)[0]


def modes_for(pair, exp_sql, gen_sql):
    modes = ["binary"]
    if re.search(r"\bLIKE\b", exp_sql + " " + gen_sql, re.I):
        modes.append("case_sensitive_like")
    if pair["dialect"] in ("mysql", "mssql"):
        modes.append("nocase")
    return modes


def open_db(ddl, mode, fk):
    conn = sqlite3.connect(":memory:", isolation_level=None)
    conn.executescript(nocase_ddl(ddl) if mode == "nocase" else ddl)
    if mode == "case_sensitive_like":
        conn.execute("PRAGMA case_sensitive_like=ON")
    if fk:
        conn.execute("PRAGMA foreign_keys=ON")
    return conn


def named_identifiers(*sqls):
    """Every name written in the queries (lower case, unquoted)."""
    out = set()
    for q in sqls:
        for t in tokenize(q):
            if t[0] == "word":
                out.add(t[1].lower())
            elif t[0] == "qid":
                out.add(t[1][1:-1].replace('""', '"').lower())
    return out


def tables_ddl(tables):
    """Constraint-free CREATE TABLE statements for tables."""
    def q(name):
        return '"%s"' % name.replace('"', '""')
    return "\n".join("CREATE TABLE %s (%s);" % (
        q(t.name), ", ".join(("%s %s" % (q(c.name), c.decl)).strip() for c in t.cols))
        for t in tables)


def split_statements(sql):
    parts, cur = [], []
    for t in tokenize(sql):
        if t[1] == ";":
            parts.append(untokenize(cur).strip())
            cur = []
        else:
            cur.append(t)
    parts.append(untokenize(cur).strip())
    return [p for p in parts if p]


def strongest_assumption(tables):
    """Every column unique and never NULL, every numeric column an integer: a `different` pair of
    the constraint class must still be separated (no constraint of those kinds fixes it)."""
    out = {}
    for t in tables:
        for c in t.cols:
            s = {"notnull", "unique"}
            if c.kind != "text":
                s.add("integer")
            out[(t.name.lower(), c.name.lower())] = s
    return out


def check_pair(pair, vschemas, scale=1.0):
    """Returns (ok, message, stats)."""
    pid = pair["id"]
    label = pair["label"]
    cls = pair.get("class")
    try:
        exp_sql = translate(pair["expected_sql"], pair["dialect"])
        gen_sql = translate(pair["generated_sql"], pair["dialect"])
        if cls is not None:
            exp_sql = translate_constructs(exp_sql, pair["dialect"])
            gen_sql = translate_constructs(gen_sql, pair["dialect"])
        exp_shape = Shape(exp_sql)
        gen_shape = Shape(gen_sql)
    except SqlError as e:
        return False, "translation: %s" % e, {}
    if "schema" in pair:
        ddl = pair["schema"]
        constrained = True
    else:
        name = vschemas["pairs"].get(pid)
        if name is None:
            return False, "no verification schema", {}
        ddl = vschemas["schemas"][name]
        constrained = False
    tables = load_schema(ddl)
    nums, strs = literals(exp_sql)
    n2, s2 = literals(gen_sql)
    pools = make_pools(nums + n2, strs + s2, halves=cls is not None, boundary=cls == "boundary")
    boundary = None
    if cls == "boundary":
        boundary = sorted({v for v in nums + n2 if isinstance(v, int)}) or [0]
    assume, no_other, understood = parse_assumption_full(pair.get("assumption"))
    if pair.get("assumption") and not understood:
        return False, "assumption %r not understood" % pair["assumption"], {}
    known = {(t.name.lower(), c.name.lower()): c for t in tables for c in t.cols}
    for key, kinds in assume.items():
        if key not in known:
            return False, "assumption names %s.%s, which is not in the schema" % key, {}
        for kind in kinds:
            if isinstance(kind, tuple) and kind[1:] not in known:
                return False, "assumption names %s.%s, which is not in the schema" % kind[1:], {}
        if "integer" in kinds and known[key].kind == "text":
            return False, "assumption: %s.%s is a text column" % key, {}
    # "t has no other columns": the databases satisfying it have only the columns of t that the
    # queries name; without it t keeps the other columns of its verification schema.
    agree_ddl, agree_tables = ddl, tables
    if no_other:
        named = named_identifiers(exp_sql, gen_sql)
        reduced = []
        for tn in no_other:
            if not any(t.name.lower() == tn for t in tables):
                return False, "assumption names table %s, which is not in the schema" % tn, {}
        for t in tables:
            if t.name.lower() in no_other:
                keep = [c for c in t.cols if c.name.lower() in named]
                if not keep or len(keep) == len(t.cols):
                    return False, "verification table %s needs named and unnamed columns" % t.name, {}
                nt = Table(t.name)
                nt.cols = keep
                reduced.append(nt)
            else:
                reduced.append(t)
        agree_ddl = tables_ddl(reduced)
        agree_tables = load_schema(agree_ddl)
    modes = modes_for(pair, exp_sql, gen_sql)
    stats = {}
    seed = pid + ":" + pair["label"]

    def execute(conn, data, mode, tabs):
        conn.execute("BEGIN")
        try:
            fill(conn, tabs, data)
            e = run(conn, exp_shape, mode == "nocase")
            g = run(conn, gen_shape, mode == "nocase")
        finally:
            conn.execute("ROLLBACK")
        return e, g

    def search_witness(mode, n, assume_, tag="w"):
        conn = open_db(ddl, mode, constrained)
        rng = random.Random(seed + ":" + tag + ":" + mode)
        gen = Generator(tables, pools, rng, assume_, constrained, boundary)
        try:
            for k in range(n):
                data = gen.database()
                e, g = execute(conn, data, mode, tables)
                if compare(e, g) == "differ":
                    return k + 1, data, e, g
        finally:
            conn.close()
        return None

    def check_witness(mode):
        """The pair's `witness`: CREATE TABLE statements naming the verification tables and
        columns, and INSERT statements run on the verification schema; it must separate."""
        stmts = split_statements(pair["witness"])
        creates = [s for s in stmts if re.match(r"(?i)\s*CREATE\s+TABLE\b", s)]
        inserts = [s for s in stmts if re.match(r"(?i)\s*INSERT\s+INTO\b", s)]
        if len(creates) + len(inserts) != len(stmts):
            return "witness holds statements other than CREATE TABLE and INSERT"
        shape = {t.name.lower(): [c.name.lower() for c in t.cols] for t in load_schema(";\n".join(creates) + ";")}
        if shape != {t.name.lower(): [c.name.lower() for c in t.cols] for t in tables}:
            return "witness tables differ from the verification schema"
        conn = open_db(ddl, mode, constrained)
        try:
            conn.execute("BEGIN")
            for s in inserts:
                conn.execute(s)
            e = run(conn, exp_shape, mode == "nocase")
            g = run(conn, gen_shape, mode == "nocase")
            conn.execute("ROLLBACK")
        finally:
            conn.close()
        if compare(e, g) != "differ":
            return "witness does not separate them [%s]: expected %r, generated %r" % (mode, e.rows, g.rows)
        return None

    def all_agree(n, assume_, ddl_, tables_):
        conns = {m: open_db(ddl_, m, constrained) for m in modes}
        rngs = {m: random.Random(seed + ":e:" + m) for m in modes}
        gens = {m: Generator(tables_, pools, rngs[m], assume_, constrained) for m in modes}
        try:
            for k in range(n):
                m = modes[k % len(modes)]
                data = gens[m].database()
                e, g = execute(conns[m], data, m, tables_)
                if not e.determined:
                    return "expected result not determined (LIMIT cuts a tie) [%s] db: %s => %r" % (
                        m, dump(tables_, data), e.rows)
                if not g.determined:
                    return "generated result not determined (LIMIT cuts a tie) [%s] db: %s => %r" % (
                        m, dump(tables_, data), g.rows)
                v = compare(e, g)
                if v not in ("same",):
                    return "results %s [%s] db: %s\n      expected: %r\n      generated: %r" % (
                        v, m, dump(tables_, data), e.rows, g.rows)
        finally:
            for c in conns.values():
                c.close()
        return None

    try:
        if label == "equivalent":
            bad = all_agree(int(N_EQUIV * scale), {}, ddl, tables)
            if bad:
                return False, "labelled equivalent, but " + bad, stats
            return True, "", stats
        if label in ("different", "equivalent_if"):
            if label == "equivalent_if" and not (assume or no_other):
                return False, "equivalent_if without a usable assumption", stats
            ndiff = N_BOUNDARY if cls == "boundary" else N_DIFF
            for m in modes:
                if "witness" in pair:
                    bad = check_witness(m)
                    if bad:
                        return False, bad, stats
                    stats[m] = 0  # checked on its witness
                    continue
                w = search_witness(m, int(ndiff * scale) if scale < 1 else ndiff, {})
                if w is None:
                    return False, "labelled %s, but no separating database found [%s]" % (label, m), stats
                stats[m] = w[0]
                if cls == "constraint" and label == "different":
                    w = search_witness(m, int(N_DIFF * scale) if scale < 1 else N_DIFF,
                                       strongest_assumption(tables), "strong")
                    if w is None:
                        return False, ("labelled different, but no database with every column unique, "
                                       "never NULL and (numeric ones) integer separates them [%s]" % m), stats
            if label == "equivalent_if":
                bad = all_agree(int(N_EQIF * scale), assume, agree_ddl, agree_tables)
                if bad:
                    return False, "assumption %r does not make them agree: %s" % (
                        pair["assumption"], bad), stats
            return True, "", stats
        return False, "unknown label %r" % label, stats
    except sqlite3.Error as e:
        return False, "SQLite error: %s" % e, stats


# ---------------------------------------------------------------------------------------------
# Static checks on the file


def lint(pairs, vschemas):
    errors = []
    ids = set()
    for p in pairs:
        pid = p.get("id")
        where = "%s:" % pid
        for f in ("id", "dialect", "category", "label", "expected_sql", "generated_sql", "note"):
            if not isinstance(p.get(f), str) or not p.get(f):
                errors.append("%s missing field %s" % (where, f))
        if pid in ids:
            errors.append("%s duplicate id" % where)
        ids.add(pid)
        if p.get("label") not in LABELS:
            errors.append("%s bad label" % where)
        if p.get("dialect") not in DIALECTS:
            errors.append("%s bad dialect" % where)
        if p.get("label") == "equivalent_if":
            if "schema" in p:
                errors.append("%s equivalent_if with a schema" % where)
            acols, atabs, aok = parse_assumption_full(p.get("assumption"))
            if not aok or not (acols or atabs):
                errors.append("%s equivalent_if needs an assumption like 't.c is never NULL'" % where)
        elif "assumption" in p:
            errors.append("%s assumption on a pair that is not equivalent_if" % where)
        if "schema" not in p and pid not in vschemas["pairs"]:
            errors.append("%s no schema and no verification schema" % where)
        d = p.get("dialect")
        for f in ("expected_sql", "generated_sql"):
            q = p.get(f, "")
            if len(q) >= 400:
                errors.append("%s %s is %d characters" % (where, f, len(q)))
            try:
                toks = tokenize(q)
            except SqlError as e:
                errors.append("%s %s: %s" % (where, f, e))
                continue
            qids = [t[1][0] for t in toks if t[0] == "qid"]
            if "`" in qids and d != "mysql":
                errors.append("%s backticks outside mysql" % where)
            if "[" in qids and d != "mssql":
                errors.append("%s brackets outside mssql" % where)
            words = [t[1].upper() for t in toks if t[0] == "word"]
            if "TOP" in words and d != "mssql":
                errors.append("%s TOP outside mssql" % where)
            if d == "mssql" and "LIMIT" in words:
                errors.append("%s LIMIT in an mssql pair" % where)
            if "ILIKE" in words:
                errors.append("%s ILIKE" % where)
            ops = [t[1] for t in toks if t[0] == "op"]
            if "||" in ops and d in ("mysql", "mssql"):
                errors.append("%s || in %s" % (where, d))
            if "IIF" in words and d not in ("sqlite", "mssql"):
                errors.append("%s IIF in %s" % (where, d))
            sig = [t for t in toks if t[0] not in ("ws", "comment")]
            for a, b in zip(sig, sig[1:]):
                if b[1] == "*" and (is_kw(a, "SELECT", "DISTINCT") or a[1] in (".", ",")):
                    if p.get("class") != "star":
                        errors.append("%s %s selects *" % (where, f))
    if any("class" in p for p in pairs):
        errors.extend(lint_classes(pairs, vschemas))
    return errors


CLASSES = ("constraint", "star", "construct", "boundary", "provable")
CONSTRUCTS = ("values_alias", "cast_sized", "intersect_all", "except_all", "full_join", "true_false",
              "distinct_from", "fetch_first", "top_n", "dollar_names", "quoted_names", "is_operator")
# words a select-project-join query of the provable class may not use (nor any parenthesis)
SPJ_FORBIDDEN = {"GROUP", "HAVING", "ORDER", "LIMIT", "OFFSET", "FETCH", "TOP", "UNION", "INTERSECT",
                 "EXCEPT", "LEFT", "RIGHT", "FULL", "OUTER", "NATURAL", "USING", "OR", "NOT", "IS",
                 "NULL", "IN", "EXISTS", "LIKE", "GLOB", "BETWEEN", "CASE", "WITH", "OVER", "ALL",
                 "ANY", "SOME", "VALUES", "COLLATE"}


def selects_star(sql):
    sig = [t for t in tokenize(sql) if t[0] not in ("ws", "comment")]
    return any(b[1] == "*" and (is_kw(a, "SELECT", "DISTINCT") or a[1] in (".", ","))
               for a, b in zip(sig, sig[1:]))


def lint_classes(pairs, vschemas):
    """Checks on classes.jsonl: its extra fields and the rules of each class."""
    errors = []
    for p in pairs:
        where = "%s:" % p.get("id")
        cls = p.get("class")
        label = p.get("label")
        d = p.get("dialect")
        if cls not in CLASSES:
            errors.append("%s class must be one of %s" % (where, ", ".join(CLASSES)))
            continue
        if not re.fullmatch(r"cls-\d{4}", p.get("id", "")):
            errors.append("%s id must look like cls-0001" % where)
        queries = [p.get("expected_sql", ""), p.get("generated_sql", "")]
        try:
            toks = [[t for t in tokenize(q) if t[0] not in ("ws", "comment")] for q in queries]
        except SqlError:
            continue
        words = [[t[1].upper() for t in ts if t[0] == "word"] for ts in toks]
        text = [" ".join(w) for w in words]
        # spj: exactly the provable class, and the queries select-project-join only
        if cls == "provable":
            if p.get("spj") is not True:
                errors.append("%s provable pairs carry spj: true" % where)
            for f, ts, ws in zip(("expected_sql", "generated_sql"), toks, words):
                bad = sorted(set(ws) & SPJ_FORBIDDEN)
                if bad or any(t[1] in ("(", ")") for t in ts) or ws.count("SELECT") != 1:
                    errors.append("%s %s is not select-project-join (%s)" % (
                        where, f, ", ".join(bad) or "parentheses or subquery"))
        elif "spj" in p:
            errors.append("%s spj outside the provable class" % where)
        if "witness" in p and (cls != "boundary" or label != "different"):
            errors.append("%s witness outside a different pair of the boundary class" % where)
        if cls == "boundary" and label != "different":
            errors.append("%s boundary pairs are different" % where)
        if cls == "constraint" and label not in ("equivalent_if", "different"):
            errors.append("%s constraint pairs are equivalent_if or different" % where)
        if cls == "construct" and p.get("category") not in CONSTRUCTS:
            errors.append("%s construct category must be one of %s" % (where, ", ".join(CONSTRUCTS)))
        acols, atabs, _ok = parse_assumption_full(p.get("assumption"))
        if atabs and cls != "star":
            errors.append("%s 'has no other columns' outside the star class" % where)
        if cls == "star":
            if not any(selects_star(q) for q in queries):
                errors.append("%s star pair without SELECT * or t.*" % where)
            if "schema" not in p and p.get("id") in vschemas["pairs"]:
                named = named_identifiers(*queries)
                vt = load_schema(vschemas["schemas"][vschemas["pairs"][p["id"]]])
                for t in vt:
                    if t.name.lower() in named and all(c.name.lower() in named for c in t.cols):
                        errors.append("%s verification table %s has no column the queries leave "
                                      "unnamed" % (where, t.name))
        # dialects: each construct only where the dialect has it
        for ts, ws, tx in zip(toks, words, text):
            def has(pattern):
                return re.search(pattern, tx) is not None
            pairs_ = list(zip(ts, ts[1:]))
            if has(r"\b(INTERSECT|EXCEPT) ALL\b") and d in ("sqlite", "mssql"):
                errors.append("%s INTERSECT/EXCEPT ALL in %s" % (where, d))
            if "FETCH" in ws and d in ("sqlite", "mysql"):
                errors.append("%s FETCH in %s" % (where, d))
            if "FULL" in ws and d == "mysql":
                errors.append("%s FULL JOIN in mysql" % where)
            if has(r"\bDISTINCT FROM\b") and d == "mysql":
                errors.append("%s IS DISTINCT FROM in mysql" % where)
            if any(is_kw(a, "ROW") and b[1] == "(" for a, b in pairs_) and d != "mysql":
                errors.append("%s VALUES ROW(...) outside mysql" % where)
            if any(is_kw(a, "FROM", "JOIN") and is_kw(b, "VALUES") for a, b in pairs_) and d != "generic":
                errors.append("%s VALUES without parentheses outside generic" % where)
    return errors


# ---------------------------------------------------------------------------------------------


def work(args):
    pair, vschemas, scale = args
    t0 = time.time()
    ok, msg, stats = check_pair(pair, vschemas, scale)
    return pair["id"], pair["label"], ok, msg, stats, time.time() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--jobs", "-j", type=int, default=min(4, os.cpu_count() or 1))
    ap.add_argument("--only", default="")
    ap.add_argument("--quick", action="store_true", help="a tenth of the databases")
    ap.add_argument("--slowest", type=int, default=0, help="list the N slowest pairs")
    ap.add_argument("--pairs", default=PAIRS, help="pairs file (default: pairs.jsonl here)")
    ap.add_argument("--vschemas", default=None, help="verification schemas (default: verify_schemas.json here, heldout_verify_schemas.json for heldout.jsonl, classes_verify_schemas.json for classes.jsonl)")
    ap.add_argument("--hardest", type=int, default=0,
                    help="list the N separated pairs that needed the most databases")
    a = ap.parse_args()
    t0 = time.time()
    with open(a.pairs) as f:
        pairs = [json.loads(line) for line in f if line.strip()]
    vschemas = a.vschemas or {
        "heldout.jsonl": os.path.join(HERE, "heldout_verify_schemas.json"),
        "classes.jsonl": os.path.join(HERE, "classes_verify_schemas.json"),
    }.get(os.path.basename(a.pairs), VSCHEMAS)
    with open(vschemas) as f:
        vschemas = json.load(f)
    errors = lint(pairs, vschemas)
    for e in errors:
        print("LINT", e)
    todo = pairs
    if a.only:
        want = set(a.only.split(","))
        todo = [p for p in pairs if p["id"] in want]
    scale = 0.1 if a.quick else 1.0
    jobs = [(p, vschemas, scale) for p in todo]
    if a.jobs > 1:
        import multiprocessing

        with multiprocessing.Pool(a.jobs) as pool:
            results = pool.map(work, jobs, chunksize=1)
    else:
        results = [work(j) for j in jobs]
    counts = collections.Counter()
    bad = collections.Counter()
    failures = []
    for pid, label, ok, msg, stats, dt in results:
        counts[label] += 1
        if not ok:
            bad[label] += 1
            failures.append("FAIL %s [%s] %s" % (pid, label, msg))
    for f in failures:
        print(f)
    if a.slowest:
        for r in sorted(results, key=lambda r: -r[5])[: a.slowest]:
            print("slow %s %.2fs %s" % (r[0], r[5], r[4]))
    if a.hardest:
        hard = sorted(((max(r[4].values()), r[0], r[4]) for r in results if r[4]), reverse=True)
        for n, pid, st in hard[: a.hardest]:
            print("hardest %s: separated after %s databases" % (pid, st))
    for label in LABELS:
        print("%-14s %4d pairs, %4d confirmed, %d wrong" % (
            label, counts[label], counts[label] - bad[label], bad[label]))
    print("lint problems: %d; total %d pairs in %.1fs" % (len(errors), len(todo), time.time() - t0))
    sys.exit(1 if (failures or errors) else 0)


if __name__ == "__main__":
    main()
