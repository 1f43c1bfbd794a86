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


def make_pools(nums, strs):
    ints = set(range(0, 6))
    reals = set()
    for v in nums:
        if isinstance(v, int):
            ints.update({v - 1, v, v + 1})
        else:
            reals.update({v, v - 0.5, v + 0.5, float(int(v)), float(int(v) + 1)})
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


ROWCOUNTS = [0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 8, 9, 10]


class Generator:
    def __init__(self, tables, pools, rng, assume=None, constrained=True):
        self.tables = tables
        self.pools = pools
        self.rng = rng
        self.assume = assume or {}  # (table, col) lower -> set of 'notnull', 'unique'
        self.constrained = constrained

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
                # without a declared schema a numeric column may hold non-integers too
                if kind == "int" and not self.constrained and rng.random() < 0.15:
                    kind = "real"
                kinds.append(kind)
                pool = self.pools[kind]
                if skew:
                    cp = [rng.choice(pool)] if rng.random() < 0.5 else pool
                elif rng.random() < 0.6:
                    cp = sub[kind]
                else:
                    cp = rng.sample(pool, min(len(pool), rng.choice([1, 2, 3, 4, 6, len(pool)])))
                colpools.append(cp)
                a = self.assume.get((t.name.lower(), c.name.lower()), ())
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
            data[t.name] = rows
        return data


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


ASSUME_RE = re.compile(
    r"(\w+)\.(\w+) is (unique and never NULL|never NULL and unique|never NULL|unique)", re.I)


def parse_assumption(text):
    out = {}
    for tab, col, what in ASSUME_RE.findall(text or ""):
        s = out.setdefault((tab.lower(), col.lower()), set())
        w = what.lower()
        if "null" in w:
            s.add("notnull")
        if "unique" in w:
            s.add("unique")
    return out


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


def check_pair(pair, vschemas, scale=1.0):
    """Returns (ok, message, stats)."""
    pid = pair["id"]
    label = pair["label"]
    try:
        exp_sql = translate(pair["expected_sql"], pair["dialect"])
        gen_sql = translate(pair["generated_sql"], pair["dialect"])
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
    pools = make_pools(nums + n2, strs + s2)
    assume = parse_assumption(pair.get("assumption"))
    known = {(t.name.lower(), c.name.lower()) for t in tables for c in t.cols}
    for key in assume:
        if key not in known:
            return False, "assumption names %s.%s, which is not in the schema" % key, {}
    modes = modes_for(pair, exp_sql, gen_sql)
    stats = {}
    seed = pid + ":" + pair["label"]

    def execute(conn, data, mode):
        conn.execute("BEGIN")
        try:
            fill(conn, tables, data)
            e = run(conn, exp_shape, mode == "nocase")
            g = run(conn, gen_shape, mode == "nocase")
        finally:
            conn.execute("ROLLBACK")
        return e, g

    def search_witness(mode, n, assume_):
        conn = open_db(ddl, mode, constrained)
        rng = random.Random(seed + ":w:" + mode)
        gen = Generator(tables, pools, rng, assume_, constrained)
        try:
            for k in range(n):
                data = gen.database()
                e, g = execute(conn, data, mode)
                if compare(e, g) == "differ":
                    return k + 1, data, e, g
        finally:
            conn.close()
        return None

    def all_agree(n, assume_):
        conns = {m: open_db(ddl, m, constrained) for m in modes}
        rngs = {m: random.Random(seed + ":e:" + m) for m in modes}
        gens = {m: Generator(tables, pools, rngs[m], assume_, constrained) for m in modes}
        try:
            for k in range(n):
                m = modes[k % len(modes)]
                data = gens[m].database()
                e, g = execute(conns[m], data, m)
                if not e.determined:
                    return "expected result not determined (LIMIT cuts a tie) [%s] db: %s => %r" % (
                        m, dump(tables, data), e.rows)
                if not g.determined:
                    return "generated result not determined (LIMIT cuts a tie) [%s] db: %s => %r" % (
                        m, dump(tables, data), g.rows)
                v = compare(e, g)
                if v not in ("same",):
                    return "results %s [%s] db: %s\n      expected: %r\n      generated: %r" % (
                        v, m, dump(tables, data), e.rows, g.rows)
        finally:
            for c in conns.values():
                c.close()
        return None

    try:
        if label == "equivalent":
            bad = all_agree(int(N_EQUIV * scale), {})
            if bad:
                return False, "labelled equivalent, but " + bad, stats
            return True, "", stats
        if label in ("different", "equivalent_if"):
            if label == "equivalent_if" and not assume:
                return False, "equivalent_if without a usable assumption", stats
            for m in modes:
                w = search_witness(m, int(N_DIFF * scale) if scale < 1 else N_DIFF, {})
                if w is None:
                    return False, "labelled %s, but no separating database found [%s]" % (label, m), stats
                stats[m] = w[0]
            if label == "equivalent_if":
                bad = all_agree(int(N_EQIF * scale), assume)
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
            if not parse_assumption(p.get("assumption")):
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
                    errors.append("%s %s selects *" % (where, f))
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
    ap.add_argument("--vschemas", default=None, help="verification schemas (default: verify_schemas.json here, or heldout_verify_schemas.json for heldout.jsonl)")
    ap.add_argument("--hardest", type=int, default=0,
                    help="list the N separated pairs that needed the most databases")
    a = ap.parse_args()
    t0 = time.time()
    with open(a.pairs) as f:
        pairs = [json.loads(line) for line in f if line.strip()]
    vschemas = a.vschemas or (
        os.path.join(HERE, "heldout_verify_schemas.json")
        if os.path.basename(a.pairs) == "heldout.jsonl"
        else VSCHEMAS
    )
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
