// qeval-wasm under Node: the JS API, its errors, and that hostile input cannot crash the module.
// `cargo xtask test` builds the package (wasm-test profile) and sets QEVAL_WASM_PKG.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const require = createRequire(import.meta.url);
const qeval = require(process.env.QEVAL_WASM_PKG ?? "../../../target/js/test/qeval_wasm.js");

test("tables lists base tables, CTEs excluded", () => {
  assert.deepEqual(
    qeval.tables("WITH a AS (SELECT * FROM users) SELECT * FROM a JOIN Sales.\"Orders\" o ON o.uid = a.id", {
      dialect: "postgres",
    }),
    ["users", "sales.orders"],
  );
});

test("tableAccuracy gives the Jaccard score and its sets", () => {
  const result = qeval.tableAccuracy("SELECT * FROM users", ["users", "orders"]);
  assert.equal(result.score, 0.5);
  assert.deepEqual(result.intersection, ["users"]);
  assert.deepEqual(result.union, ["users", "orders"]);
});

test("scorePair returns the same scorecard as the CLI", () => {
  const card = qeval.scorePair({
    id: "q1",
    generated_sql: "select * from USERS where id = 1",
    expected_sql: "SELECT * FROM users WHERE id = 1;",
  });
  assert.equal(card.id, "q1");
  assert.equal(card.identical, true);
  assert.equal(card.metrics.exact_match.explanation, "Queries are identical");
  assert.equal(card.metrics.table_accuracy.score, 1);
  assert.equal(card.expected.parse_error, null);
});

test("a query that does not parse is a diagnostic, not an exception", () => {
  const card = qeval.scorePair({ generated_sql: "SELECT * FROM users WHERE", expected_tables: ["users"] });
  assert.equal(card.metrics.table_accuracy.score, 0);
  assert.match(card.metrics.table_accuracy.error.message, /could not be parsed/);
  assert.equal(card.diagnostics[0].source, "generated_sql");
});

test("malformed input throws an Error that names the field", () => {
  assert.throws(() => qeval.scorePair({ generated_sql: 5, expected_sql: "x" }), /pair: field `generated_sql`/);
  assert.throws(() => qeval.scorePair("SELECT 1"), /pair: expected an object/);
  assert.throws(() => qeval.tables("SELECT 1", { dialect: "cobol" }), /options.dialect: unknown dialect "cobol"/);
  assert.throws(() => qeval.tables("SELECT 1", { dialekt: "sqlite" }), /options: unknown field `dialekt`/);
  assert.throws(() => qeval.tables("SELECT * FROM users WHERE"), /line 1, column 26/);
});

test("the deepest query the limits admit parses inside the wasm stack", (t) => {
  const shapes = {
    subqueries: (n) => `SELECT ${"(SELECT ".repeat(n)}1${")".repeat(n)}`,
    derived: (n) => `SELECT * FROM ${"(SELECT * FROM ".repeat(n)}t${") d".repeat(n)}`,
    in_lists: (n) => `SELECT * FROM t WHERE a IN ${"(SELECT x FROM u WHERE y IN ".repeat(n)}(1)${")".repeat(n)}`,
    parens: (n) => `SELECT ${"(".repeat(n)}1${")".repeat(n)}`,
    nots: (n) => `SELECT ${"NOT ".repeat(n)}1`,
    cases: (n) => `SELECT ${"CASE WHEN ".repeat(n)}1${" THEN 1 END".repeat(n)}`,
    functions: (n) => `SELECT ${"f(".repeat(n)}1${")".repeat(n)}`,
  };
  for (const [name, make] of Object.entries(shapes)) {
    // Find the deepest nesting that parses (up to 400), then check one level past it is refused.
    let deepest = 0;
    for (let n = 1; n <= 400; n++) {
      try {
        qeval.tables(make(n));
        deepest = n;
      } catch (error) {
        assert.match(error.message, /too deeply|expected|end of statement/, `${name} at ${n}`);
        break;
      }
    }
    assert.ok(deepest >= 10, `${name}: only ${deepest} levels parse`);
    t.diagnostic(`${name}: ${deepest} levels parse`);
    // The module still works after the deepest parse.
    assert.deepEqual(qeval.tables("SELECT * FROM ok_after"), ["ok_after"], name);
  }
  assert.throws(() => qeval.tables(`SELECT ${"(".repeat(100000)}1`), /too deeply/);
});

test("oversized input is refused with its size", () => {
  assert.throws(() => qeval.tables(`SELECT '${"x".repeat(300 * 1024)}'`), /bytes long; the limit is 262144 bytes/);
});

test("compareResults reads any shape and reproduces each mode", () => {
  const expected = [{ id: 1, name: "a" }, { id: 2, name: "b" }];
  const generated = { columns: ["name", "id"], rows: [["b", 2], ["a", 1]] };
  assert.equal(qeval.compareResults(expected, generated, { mode: "bag" }).equal, true);
  assert.equal(qeval.compareResults(expected, generated, { mode: "set" }).equal, false);
  const f1 = qeval.compareResults(expected, generated);
  assert.equal(f1.mode, "f1");
  assert.deepEqual(f1.alignment.map((p) => p.generated), ["id", "name"]);
  const json = qeval.compareResultsJson(JSON.stringify(expected), JSON.stringify(generated), { mode: "soft-f1" });
  assert.equal(json.mode, "soft-f1");
  assert.throws(() => qeval.compareResults([[1, 2], [3]], [[1]]), /expected: at \$\[1\]/);
  assert.throws(() => qeval.compareResults([1], [1], { mode: "fuzzy" }), /options.mode: unknown comparison mode/);
});

test("compareResults in the defog mode reads the question and the queries", () => {
  const gold = { columns: ["name", "n"], rows: [["b", 2], ["a", 1]] };
  const reversed = { columns: ["n", "name"], rows: [[1, "a"], [2, "b"]] };
  // Rows are sorted on every column unless the question asks for an order.
  assert.equal(qeval.compareResults(gold, reversed, { mode: "defog" }).equal, true);
  const ordered = qeval.compareResults(gold, reversed, { mode: "defog", question: "List them in order" });
  assert.equal(ordered.equal, false);
  assert.equal(ordered.order_matters, true);
  // Each query's ORDER BY sorts its own rows again.
  const sorted = qeval.compareResults(gold, reversed, {
    mode: "defog",
    queryCategory: "order_by",
    expectedSql: "SELECT name, n FROM t ORDER BY n DESC",
    generatedSql: "SELECT n, name FROM t ORDER BY n",
  });
  assert.equal(sorted.equal, true);
  // A text column with a missing value: sql-eval raises, and scores the query 0.
  const raised = qeval.compareResults([["a"], [null]], [[null], ["b"]], { mode: "defog" });
  assert.equal(raised.equal, false);
  assert.match(raised.explanation, /sql-eval raises TypeError/);
});

test("scorePair scores KQL with a profile", () => {
  const card = qeval.scorePair(
    {
      generated_sql: "Traces | where timestamp > ago(60m) | count",
      expected_sql: "Traces | where timestamp > ago(1h) | count",
      expected_result: 5,
      generated_result: [{ Count: 5 }],
    },
    { language: "kql", profile: "kql-batch" },
  );
  assert.equal(card.language, "kql");
  assert.equal(card.identical, true);
  assert.equal(card.profile.passed, true);
});

test("checkEquivalence infers the schema and shows a counterexample that separates the queries", () => {
  const report = qeval.checkEquivalence("SELECT name FROM singer WHERE age > 30", "SELECT name FROM singer WHERE age >= 30");
  assert.equal(report.verdict, "different");
  assert.equal(report.schema_source, "inferred");
  assert.match(report.schema, /CREATE TABLE singer \(\n  name TEXT,\n  age INTEGER\n\);/);
  assert.deepEqual(report.counterexample.tables[0].rows, [["a", 30]]);
  assert.deepEqual(report.counterexample.generated.unmatched, [0]);
  assert.match(report.explanation, /^Different results on generated database \d+ of 40 \(seed 1\)/);
});

test("checkEquivalence: the same seed gives the CLI's verdict and counterexample", () => {
  const expected = "SELECT dept FROM emp GROUP BY dept HAVING COUNT(*) > 5";
  const generated = "SELECT dept FROM emp GROUP BY dept HAVING COUNT(*) >= 5";
  const a = qeval.checkEquivalence(expected, generated, { seed: 9, databases: 25 });
  const b = qeval.checkEquivalence(expected, generated, { seed: 9, databases: 25 });
  assert.deepEqual(a, b);
  assert.equal(a.seed, 9);
  assert.equal(a.databases, 25);
  const card = qeval.scorePair({ generated_sql: generated, expected_sql: expected }, { seed: 9, databases: 25 });
  assert.deepEqual(card.metrics.equivalence.details.counterexample, a.counterexample);
  assert.equal(card.profile.passed, false, "a counterexample fails the pair");
  // The CLI, with the same seed and number of databases, gives the same metric.
  const cli = resolve(process.env.QEVAL_CLI ?? "../../../target/debug/qeval");
  const pairs = join(mkdtempSync(join(tmpdir(), "qeval-node-eq-")), "pairs.jsonl");
  writeFileSync(pairs, JSON.stringify({ generated_sql: generated, expected_sql: expected }) + "\n");
  const native = JSON.parse(
    execFileSync(cli, ["score", "--pairs", pairs, "--seed", "9", "--suite", "25"], { stdio: ["ignore", "pipe", "ignore"] }).toString(),
  );
  assert.deepEqual(native.metrics.equivalence, card.metrics.equivalence);
});

test("checkEquivalence proves the same join written another way, and a redundant self-join under DISTINCT, and says evidence for the rest, as the CLI does", () => {
  const expected = "SELECT u.name FROM users u JOIN orders o ON o.user_id = u.id WHERE o.total > 10";
  const generated = "SELECT a.name FROM orders AS b, users AS a WHERE 10 < b.total AND a.id = b.user_id";
  const report = qeval.checkEquivalence(expected, generated);
  assert.equal(report.verdict, "equivalent");
  assert.match(report.proof, /same select-project-join query \(2 tables, 2 conditions\)/);
  assert.match(report.explanation, /^Proved equivalent: /);
  const cli = resolve(process.env.QEVAL_CLI ?? "../../../target/debug/qeval");
  const pairs = join(mkdtempSync(join(tmpdir(), "qeval-node-proof-")), "pairs.jsonl");
  writeFileSync(pairs, JSON.stringify({ generated_sql: generated, expected_sql: expected }) + "\n");
  const native = JSON.parse(execFileSync(cli, ["score", "--pairs", pairs], { stdio: ["ignore", "pipe", "ignore"] }).toString());
  assert.equal(native.metrics.equivalence.explanation, report.explanation);
  assert.equal(native.metrics.equivalence.details.proof, report.proof);
  // Both DISTINCT, a redundant self-join: proved by containment both ways, as the CLI says.
  const contained = qeval.checkEquivalence(
    "SELECT DISTINCT title FROM movies WHERE genre = 'Drama'",
    "SELECT DISTINCT t1.title FROM movies t1 JOIN movies t2 ON t1.genre = t2.genre WHERE t1.genre = 'Drama'",
  );
  assert.match(contained.proof, /^both are DISTINCT select-project-join queries and each is contained in the other/);
  writeFileSync(pairs, JSON.stringify({ generated_sql: "SELECT DISTINCT t1.title FROM movies t1 JOIN movies t2 ON t1.genre = t2.genre WHERE t1.genre = 'Drama'", expected_sql: "SELECT DISTINCT title FROM movies WHERE genre = 'Drama'" }) + "\n");
  const nativeContained = JSON.parse(execFileSync(cli, ["score", "--pairs", pairs], { stdio: ["ignore", "pipe", "ignore"] }).toString());
  assert.equal(nativeContained.metrics.equivalence.details.proof, contained.proof);
  // Not the same query: evidence, said as such, and no proof.
  const other = qeval.checkEquivalence("SELECT name FROM users WHERE id IN (SELECT user_id FROM orders)", "SELECT name FROM users");
  assert.equal(other.proof, undefined);
});

test("checkEquivalence: the boundary search finds a sum exactly on its threshold, as the CLI's does, and search: 0 turns it off", () => {
  const expected = "SELECT dept FROM staff GROUP BY dept HAVING SUM(hours) >= 120 AND MAX(hours) < 50";
  const generated = "SELECT dept FROM staff GROUP BY dept HAVING SUM(hours) > 120 AND MAX(hours) < 50";
  const report = qeval.checkEquivalence(expected, generated);
  assert.equal(report.verdict, "different");
  assert.equal(report.search.tries, 200);
  assert.ok(report.search.found_at >= report.search.tried, JSON.stringify(report.search));
  assert.match(report.explanation, /^Different results on a database the boundary search built from generated database \d+ \(candidate \d+ of 200; /);
  const off = qeval.checkEquivalence(expected, generated, { search: 0 });
  assert.equal(off.verdict, "equivalent");
  assert.equal(off.search, undefined);
  assert.throws(() => qeval.checkEquivalence(expected, generated, { search: 20_000 }), /options.search/);
  const cli = resolve(process.env.QEVAL_CLI ?? "../../../target/debug/qeval");
  const pairs = join(mkdtempSync(join(tmpdir(), "qeval-node-search-")), "pairs.jsonl");
  writeFileSync(pairs, JSON.stringify({ generated_sql: generated, expected_sql: expected }) + "\n");
  const score = (...flags) =>
    JSON.parse(execFileSync(cli, ["score", "--pairs", pairs, ...flags], { stdio: ["ignore", "pipe", "ignore"] }).toString())
      .metrics.equivalence;
  const native = score();
  assert.equal(native.explanation, report.explanation);
  assert.deepEqual(native.details.search, report.search);
  assert.deepEqual(native.details.counterexample, report.counterexample);
  assert.equal(score("--search", "0").explanation, off.explanation);
});

test("checkEquivalence with a written schema, and no verdict when the expected query cannot run", () => {
  const equivalent = qeval.checkEquivalence("SELECT COUNT(*) FROM singer", "SELECT COUNT(singer_id) FROM singer", {
    schema: "CREATE TABLE singer (singer_id INTEGER PRIMARY KEY, name TEXT)",
  });
  assert.equal(equivalent.verdict, "equivalent");
  assert.equal(equivalent.schema_source, "written");
  const none = qeval.checkEquivalence("SELECT nope(name) FROM t", "SELECT name FROM t");
  assert.equal(none.verdict, "no_verdict");
  assert.throws(() => qeval.checkEquivalence("SELECT 1", "SELECT 1", { databases: 5000 }), /options.databases/);
});

test("a 60,000-term operator chain is a diagnostic for its pair, not a crash of the module", () => {
  const chain = Array(60_000).fill("1").join("+");
  const card = qeval.scorePair({ generated_sql: `SELECT ${chain}`, expected_sql: "SELECT 1" });
  assert.match(card.generated.parse_error.message, /operators; the limit is 1000/);
  const atLimit = qeval.scorePair({ generated_sql: `SELECT ${Array(1001).fill("a").join(" + ")} FROM t`, expected_sql: "SELECT a FROM t" });
  assert.equal(atLimit.generated.parse_error, null);
  const kql = qeval.scorePair(
    { generated_sql: `T | where ${Array(20_000).fill("x == 1").join(" or ")}`, expected_sql: "T | take 1" },
    { language: "kql" },
  );
  assert.equal(kql.metrics.table_accuracy.score, 1);
  // The module still works afterwards.
  assert.equal(qeval.scorePair({ generated_sql: "SELECT 1", expected_sql: "SELECT 1" }).identical, true);
});

test("the same SQLite version as the command line", () => {
  const cli = resolve(process.env.QEVAL_CLI ?? "../../../target/debug/qeval");
  const native = execFileSync(cli, ["--version"]).toString();
  const version = qeval.sqliteVersion();
  assert.match(version, /^3\.\d+\.\d+$/);
  assert.match(native, new RegExp(`\\(SQLite ${version.replaceAll(".", "\\.")}\\)`), `${native} vs ${version}`);
});

const RUN = resolve("../../../static/example-run/run-2026-11-20T14-30-00/evaluation-results.jsonl");
const BEFORE = resolve("../../../static/example-run/run-2026-11-19T16-00-00/evaluation-results.jsonl");

test("hardness gives Spider's level, null for what is not a query", () => {
  assert.equal(qeval.hardness("SELECT count(*) FROM singer"), "easy");
  assert.equal(qeval.hardness("SELECT name FROM stadium WHERE id NOT IN (SELECT id FROM concert)"), "hard");
  assert.equal(qeval.hardness("DELETE FROM t"), null);
});

test("summarizeRun gives the CLI's pass rates by field and the judges against the human labels", async () => {
  const { readFileSync } = await import("node:fs");
  const text = readFileSync(RUN, "utf8");
  const summary = qeval.summarizeRun(text + "{not json\n", { by: ["tokens"] });
  assert.equal(summary.tests, 34);
  assert.equal(summary.passed, 25);
  assert.deepEqual(summary.rejected.map((r) => r.line), [35]);
  const difficulty = summary.groupings.find((g) => g.field === "difficulty");
  assert.deepEqual(difficulty.groups.map(([name, g]) => [name, g.tests, g.passed]), [["easy", 12, 11], ["medium", 13, 9], ["hard", 9, 5]]);
  assert.ok(summary.groupings.some((g) => g.field === "tokens"));
  const passed = summary.agreement.find((j) => j.judge === "passed");
  assert.equal(passed.labelled, 14);
  assert.equal(passed.kappa.toFixed(2), "0.19");
  assert.deepEqual(passed.disagreements, ["2", "3", "8", "9", "23", "26"]);
});

test("exportRun writes what qeval run --csv/--junit/--markdown writes", async () => {
  const { readFileSync, copyFileSync } = await import("node:fs");
  const dir = mkdtempSync(join(tmpdir(), "qeval-wasm-export-"));
  copyFileSync(RUN, join(dir, "evaluation-results.jsonl"));
  const cli = resolve(process.env.QEVAL_CLI ?? "../../../target/debug/qeval");
  execFileSync(cli, ["run", dir, "--csv", join(dir, "run.csv"), "--junit", join(dir, "run.xml")], { stdio: "ignore" });
  const text = readFileSync(RUN, "utf8");
  assert.equal(qeval.exportRun(text, "csv"), readFileSync(join(dir, "run.csv"), "utf8"));
  const name = dir.split("/").pop();
  assert.equal(qeval.exportRun(text, "junit", { name }), readFileSync(join(dir, "run.xml"), "utf8"));
  assert.match(qeval.exportRun(text, "markdown"), /\*\*Pass rate 73\.5%\*\*/);
  assert.throws(() => qeval.exportRun(text, "xlsx"), /format: expected "csv", "junit" or "markdown", found "xlsx"/);
});

test("compareRuns gives qeval compare-runs' statistics", async () => {
  const { readFileSync } = await import("node:fs");
  const comparison = qeval.compareRuns(readFileSync(BEFORE, "utf8"), readFileSync(RUN, "utf8"));
  assert.deepEqual(comparison.newly_passing, ["11", "13", "30"]);
  assert.deepEqual(comparison.newly_failing, ["9"]);
  assert.match(comparison.sentence, /^Pass rate 67\.6% → 73\.5%: \+5\.9 points .*McNemar exact p = 0\.625\): within what chance gives\.$/);
});

test("checkEquivalence states the engine's whole-number AVG beside the difference as the CLI does, and agrees in SQL Server's dialect", () => {
  const expected = "SELECT name, AVG(deptno) FROM dept GROUP BY name";
  const generated = "SELECT name, CAST(SUM(deptno) / COUNT(*) AS INTEGER) FROM dept GROUP BY name";
  const report = qeval.checkEquivalence(expected, generated);
  assert.equal(report.verdict, "different");
  assert.equal(report.assumption.dialect, "mssql");
  const cli = resolve(process.env.QEVAL_CLI ?? "../../../target/debug/qeval");
  const pairs = join(mkdtempSync(join(tmpdir(), "qeval-node-avg-")), "pairs.jsonl");
  writeFileSync(pairs, JSON.stringify({ generated_sql: generated, expected_sql: expected }) + "\n");
  const native = JSON.parse(execFileSync(cli, ["score", "--pairs", pairs], { stdio: ["ignore", "pipe", "ignore"] }).toString());
  assert.deepEqual(native.metrics.equivalence.details.assumption, report.assumption);
  assert.equal(native.metrics.equivalence.explanation, report.explanation);
  const accepted = qeval.checkEquivalence(expected, generated, { dialect: "mssql", schema: report.assumption.schema });
  assert.equal(accepted.verdict, "equivalent", accepted.explanation);
});
