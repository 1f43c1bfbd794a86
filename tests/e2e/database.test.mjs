// Running both queries on a SQLite database inside the page (SQLite compiled to wasm).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { artifacts, openPage, setQuery, useBrowser, waitForText } from "./harness.mjs";

const DB = resolve("../../tests/fixtures/shop.sqlite");
const CLI = resolve(process.env.QEVAL_CLI ?? "../../target/debug/qeval");

const shared = useBrowser();

async function withDatabase() {
  const page = await openPage(await shared.browser.newContext({ viewport: { width: 1280, height: 1000 } }), shared.server.url);
  await page.locator("#database summary").click();
  await page.setInputFiles("#db-file", DB);
  await waitForText(page, "[data-testid=database-summary]", "Database: shop.sqlite (both queries run on it)");
  return page;
}

async function pair(page, generated, expected) {
  await setQuery(page, "generated", generated);
  await setQuery(page, "expected", expected);
}

const SAME = [
  "SELECT u.name FROM users u WHERE u.active = 1 AND EXISTS (SELECT 1 FROM orders o WHERE o.user_id = u.id)",
  "SELECT DISTINCT name FROM orders JOIN users ON users.id = orders.user_id WHERE active = 1",
];

test("a dropped database shows its schema, runs both queries, and equivalent queries score 1.0 in bag mode", async () => {
  const page = await withDatabase();
  await waitForText(page, "[data-testid=db-schema]", /orders.*6.*users.*5/s);
  await page.selectOption("#mode", "bag");
  await pair(page, ...SAME);
  await waitForText(page, "[data-testid=generated-execution-status]", /^Executes without errors: 4 rows in \d+ ms$/);
  await waitForText(page, "[data-testid=expected-execution-status]", /^Executes without errors: 4 rows/);
  await waitForText(page, "[data-testid=metric-results_match-score]", "1.00");
  await waitForText(page, "[data-testid=metric-execution-score]", "1.00");
  // Both ran on the database: efficiency by SQLite VM steps, the same count as the CLI's.
  await waitForText(page, "[data-testid=metric-efficiency-explanation]", /^\d+ SQLite VM steps against the expected query's \d+ \(ratio \d+\.\d\d\): reward [\d.]+$/);
  await page.screenshot({ path: join(artifacts, "database.png"), fullPage: true });

  // The CLI gives the same verdict for the same pair on the same file.
  const dir = await mkdtemp(join(tmpdir(), "qeval-db-e2e-"));
  const pairs = join(dir, "pairs.jsonl");
  await writeFile(pairs, JSON.stringify({ generated_sql: SAME[0], expected_sql: SAME[1] }) + "\n");
  const card = JSON.parse(execFileSync(CLI, ["score", "--mode", "bag", "--pairs", pairs, "--db", DB], { stdio: ["ignore", "pipe", "ignore"] }).toString());
  assert.equal(card.metrics.results_match.score, 1);
  assert.equal(card.metrics.execution.score, 1);
  const explanation = await page.locator("[data-testid=metric-efficiency-explanation]").textContent();
  assert.equal(explanation, card.metrics.efficiency.explanation, "the same steps in the browser and the CLI");
  assert.deepEqual(page.errors, []);
});

test("writes, ATTACH, a write in a CTE and an endless recursion are refused or interrupted; the file is unchanged", async () => {
  const hash = async () => createHash("sha256").update(await readFile(DB)).digest("hex");
  const before = await hash();
  const page = await withDatabase();
  await page.fill("#db-time-limit", "1");
  await setQuery(page, "expected", "SELECT name FROM users");
  const cases = [
    ["DROP TABLE users", /^Did not execute: refused before running/],
    ["ATTACH DATABASE 'other.db' AS other", /^Did not execute: refused before running/],
    ["WITH gone AS (SELECT id FROM users) DELETE FROM users WHERE id IN (SELECT id FROM gone)", /^Did not execute: refused before running/],
    ["SELECT sqlite_compileoption_get(0)", /^Did not execute: denied by the read-only policy: the function sqlite_compileoption_get\(\) is not on the read-only allow-list/],
    ["WITH RECURSIVE forever(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM forever) SELECT COUNT(*) FROM forever", /^Did not execute: interrupted after \d+ ms \(the time limit\)/],
  ];
  for (const [sql, error] of cases) {
    await setQuery(page, "generated", sql);
    await waitForText(page, "[data-testid=generated-execution-error]", error, 20_000);
    await waitForText(page, "[data-testid=metric-execution-score]", "0.00");
  }
  await setQuery(page, "generated", "SELECT COUNT(*) FROM users");
  await waitForText(page, "[data-testid=generated-execution-status]", /^Executes without errors: 1 row in/);
  assert.equal(await page.locator("[data-testid=generated-execution] td").first().textContent(), "5", "every row is still there");
  assert.equal(await hash(), before, "the database file's bytes are unchanged");
});

test("the page runs the same SQLite version as the command line", async () => {
  const page = await openPage(await shared.browser.newContext(), shared.server.url);
  await page.locator("#database summary").click();
  const version = (await page.locator("[data-testid=sqlite-version]").textContent()).trim();
  const native = execFileSync(CLI, ["--version"]).toString();
  assert.match(native, new RegExp(`\\(SQLite ${version.replaceAll(".", "\\.")}\\)`), `${native} vs ${version}`);
});

test("a database built from pasted SQL is queried the same way", async () => {
  const page = await openPage(await shared.browser.newContext(), shared.server.url);
  await page.locator("#database summary").click();
  await page.fill("#db-script", "CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2), (3);");
  await page.click("#db-build");
  await waitForText(page, "[data-testid=database-summary]", "Database: built from SQL (both queries run on it)");
  await pair(page, "SELECT SUM(x) FROM t", "SELECT 6");
  await waitForText(page, "[data-testid=generated-execution-status]", /^Executes without errors: 1 row in/);
  await waitForText(page, "[data-testid=metric-execution-score]", "1.00");
  assert.equal(await page.locator("[data-testid=typed-results-win]").count(), 0);
  // A result typed (or carried by a link) wins over the database's: the page says so.
  await page.locator("details.results-input summary").click();
  await page.locator("textarea#generated-result").fill("[[7]]");
  await waitForText(page, "[data-testid=typed-results-win]", /^The scores use the generated result given in Results below .*not the loaded database's/);
  await waitForText(page, "[data-testid=metric-execution-score]", /^0\.\d\d$/);
  await page.locator("textarea#generated-result").fill("");
  await waitForText(page, "[data-testid=metric-execution-score]", "1.00");
  await page.fill("#db-script", "CREATE TABLE broken (");
  await page.click("#db-build");
  await waitForText(page, "[data-testid=db-status]", /^the script failed: /);
});

test("a link keeps a database built from pasted SQL, and one too large for a link says it needs the SQL", async () => {
  const context = await shared.browser.newContext({ viewport: { width: 1280, height: 1000 } });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: shared.server.url });
  const page = await openPage(context, shared.server.url);
  await page.locator("#database summary").click();
  const script = "CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2), (3);";
  await page.fill("#db-script", script);
  await page.click("#db-build");
  await waitForText(page, "[data-testid=database-summary]", "Database: built from SQL (both queries run on it)");
  await pair(page, "SELECT SUM(x) FROM t", "SELECT 6");
  await waitForText(page, "[data-testid=metric-execution-score]", "1.00");
  await page.getByRole("button", { name: "Copy link" }).click();
  await waitForText(page, "[data-testid=copy-status]", "Link copied");
  const link = await page.evaluate(() => navigator.clipboard.readText());

  // Another browser opens the link: the database is built again from its SQL, and both
  // queries run on it without the user doing anything.
  const other = await openPage(await shared.browser.newContext({ viewport: { width: 1280, height: 1000 } }), link);
  await waitForText(other, "[data-testid=database-summary]", "Database: built from SQL (both queries run on it)");
  await waitForText(other, "[data-testid=generated-execution-status]", /^Executes without errors: 1 row in/);
  await waitForText(other, "[data-testid=metric-execution-score]", "1.00");
  assert.equal(await other.locator("[data-testid=database-needed]").count(), 0);
  assert.equal(await other.inputValue("#db-script"), script);

  // SQL that does not fit in a link is left out, and both ends say so.
  let seed = 7;
  const noise = Array.from({ length: 120_000 }, () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    seed >>>= 0;
    return String.fromCharCode(97 + (seed % 26));
  }).join("");
  await page.fill("#db-script", `CREATE TABLE t (x INTEGER, s TEXT); INSERT INTO t VALUES (6, '${noise}');`);
  await page.click("#db-build");
  await waitForText(page, "[data-testid=db-schema]", /x INTEGER, s TEXT/, 20_000);
  await waitForText(page, "[data-testid=metric-execution-score]", "1.00");
  await page.getByRole("button", { name: "Copy link" }).click();
  await waitForText(page, "[data-testid=copy-status]", /^Link copied, without the database's SQL \(\d+ KB compressed; a link holds 64 KB\)/);
  const short = await page.evaluate(() => navigator.clipboard.readText());
  assert.ok(short.length < 64 * 1024, `${short.length} characters`);
  const third = await openPage(await shared.browser.newContext(), short);
  await waitForText(third, "[data-testid=database-needed]", /built from SQL too long to fit in a link: paste that SQL in Database below/);
  assert.deepEqual([...page.errors, ...other.errors, ...third.errors], []);
});

test("test-suite checking catches a pair that agrees only on the given database; the link keeps the seed, not the file", async () => {
  const page = await withDatabase();
  await page.selectOption("#mode", "bag");
  await page.fill("#db-suite", "20");
  await page.fill("#db-seed", "3");
  await pair(page, "SELECT name FROM users WHERE id IN (1, 3)", "SELECT name FROM users WHERE country = 'DE'");
  await waitForText(page, "[data-testid=metric-results_match-score]", "1.00");
  await waitForText(page, "[data-testid=metric-test_suite-score]", "0.00");
  await waitForText(page, "[data-testid=metric-test_suite-explanation]", /^Different results on generated database \d+ of 20 \(seed 3\)/);
  await waitForText(page, "[data-testid=suite-counterexample]", /Generated query gives.*Expected query gives/s);
  await waitForText(page, "[data-testid=profile-verdict]", /FAIL/);
  // The same seed builds the same databases in the CLI: the same verdict, to the database.
  const explained = await page.locator("[data-testid=metric-test_suite-explanation]").textContent();
  const dir = await mkdtemp(join(tmpdir(), "qeval-suite-e2e-"));
  const pairs = join(dir, "pairs.jsonl");
  await writeFile(pairs, JSON.stringify({ generated_sql: "SELECT name FROM users WHERE id IN (1, 3)", expected_sql: "SELECT name FROM users WHERE country = 'DE'" }) + "\n");
  const card = JSON.parse(
    execFileSync(CLI, ["score", "--mode", "bag", "--suite", "20", "--seed", "3", "--pairs", pairs, "--db", DB], { stdio: ["ignore", "pipe", "ignore"] }).toString(),
  );
  assert.equal(card.metrics.test_suite.explanation, explained);

  await pair(page, "SELECT u.name FROM users AS u WHERE 'DE' = u.country", "SELECT name FROM users WHERE country = 'DE'");
  await waitForText(page, "[data-testid=metric-test_suite-explanation]", "Proved equivalent: both are the same select-project-join query (1 table, 1 condition) up to aliases, the order of tables and conditions, and the sides of each comparison, so they return the same rows on every database; the 20 generated databases agree too (seed 3)");
  await waitForText(page, "[data-testid=metric-test_suite-score]", "1.00");

  const context = page.context();
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: shared.server.url });
  await page.getByRole("button", { name: "Copy link" }).click();
  await waitForText(page, "[data-testid=copy-status]", "Link copied");
  const link = await page.evaluate(() => navigator.clipboard.readText());
  const other = await openPage(await shared.browser.newContext(), link);
  await waitForText(other, "[data-testid=database-needed]", /made with the database shop\.sqlite/);
  await other.locator("#database summary").click();
  assert.equal(await other.inputValue("#db-suite"), "20");
  assert.equal(await other.inputValue("#db-seed"), "3");
  await other.setInputFiles("#db-file", DB);
  await waitForText(other, "[data-testid=metric-test_suite-explanation]", "Proved equivalent: both are the same select-project-join query (1 table, 1 condition) up to aliases, the order of tables and conditions, and the sides of each comparison, so they return the same rows on every database; the 20 generated databases agree too (seed 3)");
});

test("dropped CSV files become tables with inferred types", async () => {
  const page = await openPage(await shared.browser.newContext(), shared.server.url);
  await page.locator("#database summary").click();
  await page.setInputFiles("#db-file", [
    { name: "users.csv", mimeType: "text/csv", buffer: Buffer.from('id,name,score\n1,ann,9.5\n2,"Lovelace, Ada",\n') },
    { name: "orders.csv", mimeType: "text/csv", buffer: Buffer.from("id,user_id\r\n10,1\r\n11,2\r\n") },
  ]);
  await waitForText(page, "[data-testid=database-summary]", "Database: 2 CSV files (both queries run on it)");
  await waitForText(page, "[data-testid=db-schema]", /orders.*id INTEGER, user_id INTEGER.*users.*id INTEGER, name TEXT, score REAL/s);
  await pair(page, "SELECT name FROM users JOIN orders ON orders.user_id = users.id", "SELECT name FROM users");
  await waitForText(page, "[data-testid=generated-execution-status]", /^Executes without errors: 2 rows/);
  await waitForText(page, "[data-testid=metric-execution-score]", "1.00");
});

/** Scores a run of three tests in the page on the loaded database (`suite` test-suite databases
 * when given) and with `qeval run --db`; returns both files' text. */
async function scoreRunBothWays(suite) {
  const tests = [
    { test_id: 1, agent_used: "a", difficulty: "easy", question: "Active users?", generated_sql: "SELECT name FROM users WHERE active = 1", expected_sql: "SELECT name FROM users WHERE active <> 0" },
    { test_id: 2, agent_used: "a", difficulty: "easy", question: "Orders per user", generated_sql: "SELECT user_id, COUNT(*) FROM orders GROUP BY user_id", expected_sql: "SELECT user_id, COUNT(id) AS n FROM orders GROUP BY user_id" },
    { test_id: 3, agent_used: "b", difficulty: "hard", question: "Total", generated_sql: "SELECT SUM(totl) FROM orders", expected_sql: "SELECT SUM(total) FROM orders" },
  ];
  const text = tests.map((t) => JSON.stringify(t)).join("\n") + "\n";
  const page = await withDatabase();
  await page.click("#tab-report");
  await page.setInputFiles("#run-files", { name: "test-results.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(text) });
  await waitForText(page, "[data-testid=run-database]", "Tests without results run on shop.sqlite.");
  if (suite) await page.fill("#run-suite", String(suite));
  await page.click("#score-run");
  await waitForText(page, "[data-testid=tests]", "3");
  await waitForText(page, "[data-testid=errors]", "1");
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#download-results")]);
  const inPage = await readFile(await download.path(), "utf8");

  const dir = await mkdtemp(join(tmpdir(), "qeval-run-db-"));
  await writeFile(join(dir, "test-results.jsonl"), text);
  execFileSync(CLI, ["run", dir, "--db", DB, ...(suite ? ["--suite", String(suite)] : [])], { stdio: "ignore" });
  return { inPage, cli: await readFile(join(dir, "evaluation-results.jsonl"), "utf8") };
}

test("a run with queries and no results is executed on the loaded database and scored like qeval run --db", async () => {
  const { inPage, cli } = await scoreRunBothWays();
  assert.match(inPage.split("\n")[2], /"error":"no such column: totl/);
  assert.doesNotMatch(inPage, /"test_suite"/);
  assert.equal(inPage, cli, "the same bytes as the CLI");
});

test("a run scored with test-suite databases gets each test's test_suite, as qeval run --db --suite", async () => {
  const { inPage, cli } = await scoreRunBothWays(5);
  const records = inPage.trim().split("\n").map((line) => JSON.parse(line));
  // The first two tests have both queries; the third's generated query fails, so it is not checked.
  assert.deepEqual(records.map((r) => typeof r.test_suite?.score), ["number", "number", "undefined"]);
  // `active = 1` and `active <> 0` agree on shop.sqlite, not on a generated database.
  assert.equal(records[0].test_suite.score, 0);
  assert.match(records[0].test_suite.explanation, /^Different results on generated database \d+ of 5 \(seed 1\)/);
  assert.equal(inPage, cli, "the same bytes as the CLI");
});
