// The equivalence check in the playground: two pasted queries and nothing else give a verdict,
// the inferred schema, and a counterexample; editing the schema changes the verdict; the page,
// the CLI and the same seed agree to the counterexample.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { artifacts, openPage, poll, setQuery, useBrowser, waitForText } from "./harness.mjs";

const CLI = resolve(process.env.QEVAL_CLI ?? "../../target/debug/qeval");

const shared = useBrowser();

async function freshPage() {
  const context = await shared.browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: shared.server.url });
  return openPage(context, shared.server.url);
}

// Waits until a form field's value matches (text areas keep their text in `value`).
async function waitForValue(page, selector, want, timeout = 10_000) {
  const { ok, value } = await poll(page, () => page.inputValue(selector), (value) => want.test(value), timeout);
  if (ok) return value;
  throw new Error(`${selector}: wanted ${want}, the field held ${JSON.stringify(value)}`);
}

async function pair(page, generated, expected) {
  await setQuery(page, "generated", generated);
  await setQuery(page, "expected", expected);
}

// The CLI's scorecard for the same pair, from a pairs file as a user would write it.
async function cliScorecard(generated, expected) {
  const pairs = join(await mkdtemp(join(tmpdir(), "qeval-eq-e2e-")), "pairs.jsonl");
  await writeFile(pairs, JSON.stringify({ generated_sql: generated, expected_sql: expected }) + "\n");
  return JSON.parse(execFileSync(CLI, ["score", "--pairs", pairs], { stdio: ["ignore", "pipe", "ignore"] }).toString());
}

// The page proves the pair equivalent, with `explanation`, and its metric says what the CLI's does.
async function provedAsTheCliSays(page, generated, expected, explanation) {
  await pair(page, generated, expected);
  await waitForText(page, "[data-testid=equivalence-badge]", "Proved equivalent");
  await waitForText(page, "[data-testid=equivalence-explanation]", explanation);
  const explained = await page.locator("[data-testid=metric-equivalence-explanation]").textContent();
  const card = await cliScorecard(generated, expected);
  assert.equal(card.metrics.equivalence.explanation, explained);
}

const NEAR_MISS = ["SELECT name FROM singer WHERE age >= 30", "SELECT name FROM singer WHERE age > 30"];

test("two pasted queries with no database: inferred schema, verdict and a counterexample that matches the CLI", async () => {
  const page = await freshPage();
  await pair(page, ...NEAR_MISS);
  await waitForText(page, "[data-testid=equivalence-badge]", "Different");
  await waitForValue(page, "[data-testid=equivalence-schema]", /CREATE TABLE singer \(\n  name TEXT,\n  age INTEGER\n\);/);
  await waitForText(page, "[data-testid=counterexample-table-singer]", /singer \(1 row\)nameage.*30/s);
  await waitForText(page, "[data-testid=counterexample-generated] tr.unmatched", /.+/);
  await waitForText(page, "[data-testid=metric-equivalence-score]", "0.00");
  // The default profile gives a verdict without any result: a counterexample fails the pair.
  await waitForText(page, "[data-testid=profile-verdict]", /FAIL/);
  await page.screenshot({ path: join(artifacts, "equivalence.png"), fullPage: true });

  const explained = await page.locator("[data-testid=metric-equivalence-explanation]").textContent();
  const script = await page.locator("[data-testid=counterexample-script]").textContent();
  await page.getByRole("button", { name: "Copy as SQL" }).click();
  await waitForText(page, ".counterexample [role=status]", "Copied the script");
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), script);

  // The CLI, with the same seed, gives the same verdict and the same counterexample.
  const card = await cliScorecard(NEAR_MISS[0], NEAR_MISS[1]);
  assert.equal(card.metrics.equivalence.explanation, explained);
  assert.equal(card.metrics.equivalence.details.counterexample.script, script);
  assert.deepEqual(page.errors, []);
});

test("the same join written another way is proved equivalent, as the CLI says", async () => {
  const page = await freshPage();
  const generated = "SELECT a.name FROM orders AS b, users AS a WHERE 10 < b.total AND a.id = b.user_id";
  const expected = "SELECT u.name FROM users u JOIN orders o ON o.user_id = u.id WHERE o.total > 10";
  await provedAsTheCliSays(page, generated, expected, /^Proved equivalent: both are the same select-project-join query \(2 tables, 2 conditions\)/);
  // One condition more is another query: evidence again, or a difference.
  await setQuery(page, "generated", generated + " AND a.active = 1");
  await waitForText(page, "[data-testid=equivalence-badge]", /^(Different|Equivalent under an assumption|Equivalent)$/);
  assert.deepEqual(page.errors, []);
});

test("a redundant self-join under DISTINCT is proved by containment both ways, as the CLI says; one the NULLs could break is not", async () => {
  const page = await freshPage();
  const generated = "SELECT DISTINCT t1.title FROM movies t1 JOIN movies t2 ON t1.genre = t2.genre WHERE t1.genre = 'Drama'";
  const expected = "SELECT DISTINCT title FROM movies WHERE genre = 'Drama'";
  await provedAsTheCliSays(page, generated, expected, /^Proved equivalent: both are DISTINCT select-project-join queries and each is contained in the other/);
  await page.screenshot({ path: join(artifacts, "equivalence-containment.png"), fullPage: true });
  // Joined on year instead, the self-join drops the movies without a year: no proof, and a
  // difference, since a year is no key; the assumption that removes it is stated beside.
  await setQuery(page, "generated", generated.replace("t1.genre = t2.genre", "t1.year = t2.year"));
  await waitForText(page, "[data-testid=equivalence-badge]", "Different");
  await waitForText(page, "[data-testid=equivalence-assumption]", /^They agree if `movies\.year` is never NULL: a column that is neither a key nor joined to another table is not assumed never NULL/);
  assert.deepEqual(page.errors, []);
});

test("a sum exactly on its threshold: the boundary search builds the database the generated ones miss, as the CLI's does", async () => {
  const page = await freshPage();
  const generated = "SELECT dept FROM staff GROUP BY dept HAVING SUM(hours) > 120 AND MAX(hours) < 50";
  const expected = "SELECT dept FROM staff GROUP BY dept HAVING SUM(hours) >= 120 AND MAX(hours) < 50";
  await pair(page, generated, expected);
  await waitForText(page, "[data-testid=equivalence-badge]", "Different");
  await waitForText(page, "[data-testid=equivalence-explanation]", /^Different results on a database the boundary search built from generated database \d+ \(candidate \d+ of 200; /);
  const explained = await page.locator("[data-testid=metric-equivalence-explanation]").textContent();
  const script = await page.locator("[data-testid=counterexample-script]").textContent();
  const card = await cliScorecard(generated, expected);
  assert.equal(card.metrics.equivalence.explanation, explained);
  assert.equal(card.metrics.equivalence.details.counterexample.script, script);
  assert.deepEqual(page.errors, []);
});

test("equivalent rewrites pass with the caveat; editing the schema updates the verdict", async () => {
  const page = await freshPage();
  await pair(page, "SELECT COUNT(singer_id) FROM singer", "SELECT COUNT(*) FROM singer");
  await waitForText(page, "[data-testid=equivalence-badge]", "Equivalent under an assumption");
  await waitForText(page, "[data-testid=equivalence-assumption]", /`singer\.singer_id` is never NULL/);
  // Stating the constraint in the schema makes them plainly equivalent.
  await page.getByRole("button", { name: "Add this constraint to the schema" }).click();
  await waitForText(page, "[data-testid=equivalence-badge]", "Equivalent");
  await waitForText(page, "[data-testid=equivalence-explanation]", /^Same results on all 40 generated databases and on the \d+ more the boundary search built from them \(seed 1\); .*not a proof$/);
  await waitForText(page, "[data-testid=metric-query_correctness-score]", "1.00");

  // An edited schema without the constraint: they differ, and the counterexample has a NULL.
  await page.locator("[data-testid=equivalence-schema]").fill("CREATE TABLE singer (singer_id INTEGER, name TEXT)");
  await waitForText(page, "[data-testid=equivalence-badge]", "Different");
  await waitForText(page, "[data-testid=counterexample-table-singer] td.null", "NULL");
  await page.getByRole("button", { name: "Use the inferred schema again" }).click();
  await waitForText(page, "[data-testid=equivalence-badge]", "Equivalent under an assumption");
  assert.deepEqual(page.errors, []);
});

test("an average written as an integer division differs, agreeing where AVG is whole: accepting that checks in SQL Server's dialect, and they agree", async () => {
  const page = await freshPage();
  const generated = "SELECT name, CAST(SUM(deptno) / COUNT(*) AS INTEGER) FROM dept GROUP BY name";
  const expected = "SELECT name, AVG(deptno) FROM dept GROUP BY name";
  await pair(page, generated, expected);
  await waitForText(page, "[data-testid=equivalence-badge]", "Different");
  await waitForText(page, "[data-testid=equivalence-assumption]", /^They agree if `dept\.deptno` is a whole number and never NULL, and the engine's `AVG` of whole numbers is a whole number \(as in SQL Server; .*: most engines' `AVG` of whole numbers is a fraction/);
  const explained = await page.locator("[data-testid=metric-equivalence-explanation]").textContent();
  const card = await cliScorecard(generated, expected);
  assert.equal(card.metrics.equivalence.explanation, explained);
  assert.equal(card.metrics.equivalence.details.assumption.dialect, "mssql");
  await page.getByRole("button", { name: "Add it to the schema and check as SQL Server (T-SQL)" }).click();
  await waitForValue(page, "#dialect", /^mssql$/);
  await waitForText(page, "[data-testid=equivalence-badge]", "Equivalent");
  await waitForText(page, "[data-testid=equivalence-explanation]", /^Same results on all 40 generated databases/);
  assert.deepEqual(page.errors, []);
});

test("a query that cannot run on the inferred schema gives no verdict, not a guess", async () => {
  const page = await freshPage();
  await pair(page, "SELECT name FROM singer", "SELECT no_such_function(name) FROM singer");
  await waitForText(page, "[data-testid=equivalence-badge]", "No verdict");
  await waitForText(page, "[data-testid=equivalence-explanation]", /^No verdict: the expected query fails on the schema/);
  await waitForText(page, "[data-testid=metric-equivalence-score]", "—");
});

test("a link that asks for a million generated databases gets the page's limit, and says so", async () => {
  const { deflateRawSync } = await import("node:zlib");
  const state = { g: "SELECT name FROM singer WHERE age >= 30", e: "SELECT name FROM singer WHERE age > 30", d: "generic", k: 1_000_000 };
  const fragment = `s=1.${deflateRawSync(Buffer.from(JSON.stringify(state))).toString("base64url")}`;
  const context = await shared.browser.newContext();
  const page = await openPage(context, `${shared.server.url}#${fragment}`);
  await waitForText(page, "p.notice[role=alert]", /asked for 1000000 generated databases; the page checks at most 1000/);
  assert.equal(await page.inputValue("#eq-databases"), "1000");
  await waitForText(page, "[data-testid=equivalence-badge]", "Different");
});

test("pasted table and column names flag an unknown column at its place, and the check still runs", async () => {
  const page = await freshPage();
  await pair(page, "SELECT name FROM singer\nWHERE agee > 30", "SELECT name FROM singer WHERE age > 30");
  await page.locator("[data-testid=equivalence-schema]").fill('{"singer": ["singer_id", "name", "age"]}');
  await waitForText(page, "[data-testid=metric-schema_validity-score]", "0.00");
  await waitForText(page, "[data-testid=metric-schema_validity-explanation]", "Not in the schema: unknown column `agee` (line 2, column 7)");
  // Names alone do not replace the inferred schema of the equivalence check.
  await waitForText(page, "[data-testid=equivalence-badge]", /Different|No verdict|Equivalent/);
  await pair(page, "SELECT name FROM singer WHERE age > 30", "SELECT name FROM singer WHERE age > 30");
  await waitForText(page, "[data-testid=metric-schema_validity-score]", "1.00");
  assert.deepEqual(page.errors, []);
});
