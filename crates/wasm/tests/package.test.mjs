// The npm package as a user installs it: its package.json, its entry point, its TypeScript
// declarations (checked by tsc, which must refuse a wrong call), and the Node example in docs/.
// `cargo xtask test` builds the package and sets QEVAL_WASM_PKG (its qeval_wasm.js) and QEVAL_CLI.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const pkg = dirname(resolve(process.env.QEVAL_WASM_PKG ?? join(root, "target/js/test/qeval_wasm.js")));
const manifest = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8"));

/** A project folder with the package installed as `node_modules/qeval`, as `npm install` leaves it. */
function project() {
  const dir = mkdtempSync(join(tmpdir(), "qeval-npm-"));
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(pkg, join(dir, "node_modules", "qeval"), "dir");
  return dir;
}

/** tsc's complaints about `file` (strict, JavaScript checked as TypeScript), or "" when none. */
function typeErrors(dir, file) {
  const tsc = join(root, "tests/e2e/node_modules/.bin/tsc");
  const run = spawnSync(
    tsc,
    ["--noEmit", "--strict", "--allowJs", "--checkJs", "--module", "nodenext", "--moduleResolution", "nodenext",
      "--target", "es2022", "--types", "node", "--typeRoots", join(root, "tests/e2e/node_modules/@types"), file],
    { cwd: dir, encoding: "utf8" },
  );
  assert.notEqual(run.status, null, `tsc did not run: ${run.error}`);
  return run.stdout + run.stderr;
}

test("package.json names the entry point and its types, at the command line's version", () => {
  assert.equal(manifest.name, "qeval");
  const cli = execFileSync(process.env.QEVAL_CLI ?? "qeval", ["--version"], { encoding: "utf8" });
  assert.equal(manifest.version, cli.split(" ")[1], `qeval --version says ${cli}`);
  for (const file of [manifest.main, manifest.types, ...manifest.files]) {
    assert.ok(existsSync(join(pkg, file)), `${file} is in the package`);
  }
});

test("the entry point exports the API, and no benchmark helper", () => {
  const qeval = createRequire(join(project(), "index.js"))("qeval");
  for (const name of ["scorePair", "tables", "tableAccuracy", "compareResults", "checkEquivalence", "summarizeRun"]) {
    assert.equal(typeof qeval[name], "function", name);
  }
  assert.deepEqual(Object.keys(qeval).filter((name) => /^bench/i.test(name)), []);
  // camelCase fields, and a wrong type named as it was spelt.
  const card = qeval.scorePair({ generatedSql: "SELECT name FROM users", expectedTables: ["users"] });
  assert.equal(card.metrics.table_accuracy.score, 1);
  assert.throws(() => qeval.scorePair({ generatedSql: 5, expectedSql: "SELECT 1" }), /field `generatedSql`/);
});

test("the declarations type every entry point: the docs example checks clean, a wrong call does not", () => {
  const dir = project();
  copyFileSync(join(root, "docs/examples/score-pairs.mjs"), join(dir, "score-pairs.mjs"));
  assert.equal(typeErrors(dir, "score-pairs.mjs"), "");

  // Each line after the import makes one mistake, and tsc must point at each of those lines.
  const mistakes = [
    "scorePair({ generatedSql: 1 });",
    'scorePair({ generatedSql: "SELECT 1" }, { mode: "nearly" });',
    'scorePair({ generatedSql: "SELECT 1" }).metrics.no_such_metric;',
    'compareResults([], [], { orderMatters: "yes" });',
    "compareResults([], []).no_such_field;",
    "tables(42);",
  ];
  writeFileSync(
    join(dir, "wrong.mjs"),
    ["// @ts-check", 'import { scorePair, compareResults, tables } from "qeval";', ...mistakes].join("\n"),
  );
  const said = typeErrors(dir, "wrong.mjs");
  mistakes.forEach((mistake, i) => {
    assert.ok(said.includes(`wrong.mjs(${i + 3},`), `tsc refuses ${mistake}\n${said}`);
  });
});

test("what every entry point returns is what its declaration says", () => {
  // Real outputs, written into a TypeScript file as object literals of the declared return types:
  // tsc refuses a field the declaration does not list, a missing one, and a null it does not allow.
  const dir = project();
  const qeval = createRequire(join(dir, "index.js"))("qeval");
  const run = readFileSync(join(root, "static/example-run/run-2026-11-20T14-30-00/evaluation-results.jsonl"), "utf8");
  const before = readFileSync(join(root, "static/example-run/run-2026-11-19T16-00-00/evaluation-results.jsonl"), "utf8");
  const pairs = readFileSync(join(root, "static/examples/pairs.jsonl"), "utf8").split("\n").filter((line) => line.trim());
  const outputs = [
    ...pairs.map((line) => ["scorePair", qeval.scorePair(JSON.parse(line))]),
    ["scorePair", qeval.scorePair({ generatedSql: "T | take 5", expectedSql: "T | take 5" }, { language: "kql", profile: "kql-batch" })],
    ["checkEquivalence", qeval.checkEquivalence("SELECT name FROM singer WHERE age > 30", "SELECT name FROM singer WHERE age >= 30")],
    ["checkEquivalence", qeval.checkEquivalence("SELECT a FROM t", "SELECT a FROM t WHERE a = a")],
    ["checkEquivalence", qeval.checkEquivalence("SELECT a FROM t", "SELECT a FROM")],
    ["tableAccuracy", qeval.tableAccuracy("SELECT * FROM users", ["users", "orders"])],
    ["compareResults", qeval.compareResults([{ id: 1 }, { id: 2 }], [[2], [1]], { mode: "bag" })],
    ["compareResults", qeval.compareResults([[1, "a"]], [[1, "b"]], { mode: "soft-f1" })],
    ["summarizeRun", qeval.summarizeRun(run + "{not json\n", { by: ["tokens"] })],
    ["compareRuns", qeval.compareRuns(before, run)],
    ["hardness", qeval.hardness("SELECT name FROM singer ORDER BY age LIMIT 1")],
  ];
  const lines = outputs.map(([name, output], i) =>
    `const output${i}: ReturnType<typeof qeval.${name}> = ${JSON.stringify(output)};`);
  writeFileSync(join(dir, "outputs.ts"), ['import * as qeval from "qeval";', ...lines, ""].join("\n"));
  assert.equal(typeErrors(dir, "outputs.ts"), "");
});

test("each declared type has one name of its own", () => {
  const declarations = readFileSync(join(pkg, manifest.types), "utf8").matchAll(/^export (?:interface|type) (\w+)/gm);
  const names = [...declarations].map((match) => match[1]);
  // TypeScript would merge two interfaces of one name into a type neither is.
  assert.deepEqual(names.filter((name, i) => names.indexOf(name) !== i), []);
  for (const name of ["Scorecard", "Pair", "Options", "MetricName", "Comparison", "EquivalenceReport", "Summary", "RunComparison"]) {
    assert.ok(names.includes(name), name);
  }
});

test("the Node example in docs/ scores a pairs file, a line per pair", () => {
  const dir = project();
  copyFileSync(join(root, "docs/examples/score-pairs.mjs"), join(dir, "score-pairs.mjs"));
  const pairs = join(root, "static/examples/pairs.jsonl");
  const printed = execFileSync("node", ["score-pairs.mjs", pairs], { cwd: dir, encoding: "utf8" }).trim().split("\n");
  const lines = readFileSync(pairs, "utf8").split("\n").filter((line) => line.trim());
  assert.equal(printed.length, lines.length + 1, printed.join("\n"));

  // Each verdict is the one `qeval score` gives that line.
  const cards = execFileSync(process.env.QEVAL_CLI ?? "qeval", ["score", "--pairs", pairs], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
  assert.equal(cards.length, lines.length);
  cards.forEach((card, i) => {
    const passed = card.profile?.passed;
    const word = passed === true ? "PASS" : passed === false ? "FAIL" : "no verdict";
    assert.match(printed[i], new RegExp(`^line ${card.line}: ${word} `));
  });
  assert.equal(printed.at(-1), `${cards.filter((card) => card.profile?.passed === true).length} of ${lines.length} passed`);
});
