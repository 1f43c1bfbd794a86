// The playground in a real headless Chromium, against the release build.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { artifacts, openPage, poll, queryText, setQuery, useBrowser, waitForText } from "./harness.mjs";

const shared = useBrowser();
const CLI = resolve(process.env.QEVAL_CLI ?? "../../target/debug/qeval");

async function freshPage(url = shared.server.url) {
  const context = await shared.browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: shared.server.url });
  return openPage(context, url);
}

/** Types into a query editor key by key; text of several lines is pasted, since the editor
 * indents after Enter as a user would expect. */
async function typeInto(page, id, text) {
  await setQuery(page, id, "");
  if (text.includes("\n")) await setQuery(page, id, text);
  else await page.locator(`#${id} .cm-content`).pressSequentially(text, { delay: 2 });
}

test("typing two queries shows their tables and the table accuracy", async () => {
  const page = await freshPage();
  await typeInto(page, "generated", "SELECT * FROM users;");
  await typeInto(page, "expected", "SELECT u.name FROM users u JOIN orders o ON o.user_id = u.id");
  await waitForText(page, "[data-testid=metric-table_accuracy-score]", "0.50");
  // Each card's title says, on hover, what the metric measures.
  const card = page.locator("[data-testid=metric-table_accuracy] h3");
  assert.equal(await card.textContent(), "Table accuracy");
  assert.equal(await card.getAttribute("title"), "How well the tables read match the expected tables.");
  await waitForText(page, "[data-testid=generated-tables]", "Reads users");
  await waitForText(page, "[data-testid=expected-tables]", "Reads usersorders");
  await waitForText(page, "[data-testid=intersection]", "users");
  await waitForText(page, "[data-testid=union]", "usersorders");
  await waitForText(page, "[data-testid=identical]", "Queries differ after normalization");

  await typeInto(page, "generated", "select U.NAME from USERS as u join ORDERS o on o.user_id = u.id;");
  await waitForText(page, "[data-testid=metric-table_accuracy-score]", "1.00");

  await typeInto(page, "expected", "SELECT u.name FROM users AS u JOIN orders o ON o.user_id = u.id");
  await waitForText(page, "[data-testid=identical]", "Queries are identical");
  await page.screenshot({ path: join(artifacts, "playground.png"), fullPage: true });
  assert.deepEqual(page.errors, []);
});

test("a parse error points at its line and column, and the button goes there", async () => {
  const page = await freshPage();
  await typeInto(page, "generated", "SELECT id\nFROM users\nWHERE id = 1)");
  await waitForText(page, "[data-testid=generated-error]", /Line 3, column 13: expected end of statement, found \)/);
  const snippet = await page.locator("[data-testid=generated-error] pre").textContent();
  assert.equal(snippet, "WHERE id = 1)\n            ^");
  await page.getByRole("button", { name: "Show in editor" }).click();
  // The cursor is in the generated editor, on the error's line, before the error's column.
  const cursor = await page.evaluate(() => {
    // The editor lives in a shadow root of its element, which has its own selection.
    const selection = document.activeElement.shadowRoot.getSelection();
    const node = selection.focusNode;
    const line = (node.nodeType === Node.TEXT_NODE ? node.parentElement : node).closest(".cm-line");
    const before = document.createRange();
    before.setStart(line, 0);
    before.setEnd(node, selection.focusOffset);
    return {
      editor: document.activeElement.closest(".code-editor")?.id,
      line: line.textContent,
      column: before.toString().length + 1,
    };
  });
  assert.deepEqual(cursor, { editor: "generated", line: "WHERE id = 1)", column: 13 });
});

test("the dialect select changes how queries are read", async () => {
  const page = await freshPage();
  await page.selectOption("#dialect", "mssql");
  await typeInto(page, "generated", "SELECT TOP 5 * FROM [dbo].[Users] WITH (NOLOCK)");
  await typeInto(page, "expected", "SELECT TOP 5 * FROM dbo.users");
  await waitForText(page, "[data-testid=generated-tables]", "Reads dbo.users");
  await waitForText(page, "[data-testid=metric-table_accuracy-score]", "1.00");
});

test("a copied link opens the same state in a fresh page", async () => {
  const page = await freshPage();
  await page.selectOption("#dialect", "postgres");
  await typeInto(page, "generated", "SELECT * FROM sales.orders WHERE total > 10::int");
  await typeInto(page, "expected", "SELECT * FROM orders o JOIN customers c ON c.id = o.cid");
  await waitForText(page, "[data-testid=metric-table_accuracy-score]", "0.50");
  await page.getByRole("button", { name: "Copy link" }).click();
  await waitForText(page, "[data-testid=copy-status]", "Link copied");
  const link = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(link, /^http:\/\/127\.0\.0\.1:\d+\/#s=1\.[A-Za-z0-9_-]+$/);

  const other = await freshPage(link);
  assert.equal(await queryText(other, "generated"), "SELECT * FROM sales.orders WHERE total > 10::int");
  assert.equal(await queryText(other, "expected"), "SELECT * FROM orders o JOIN customers c ON c.id = o.cid");
  assert.equal(await other.inputValue("#dialect"), "postgres");
  await waitForText(other, "[data-testid=metric-table_accuracy-score]", "0.50");
  await waitForText(other, "[data-testid=generated-tables]", "Reads sales.orders");
});

test("a damaged link says so and opens the example instead", async () => {
  const page = await freshPage(`${shared.server.url}#s=1.not-a-real-state`);
  await waitForText(page, "[role=alert].notice", /This link could not be opened: the link is damaged/);
  assert.notEqual(await queryText(page, "generated"), "");
});

test("markup in a query is shown as text and never runs", async () => {
  const hostile = "SELECT '<img src=x onerror=alert(1)>' FROM t WHERE";
  const page = await freshPage();
  await typeInto(page, "generated", hostile);
  await typeInto(page, "expected", "SELECT 1 FROM \"<img src=x onerror=alert(2)>\"");
  await waitForText(page, "[data-testid=generated-error] pre", /<img src=x onerror=alert\(1\)>/);
  await waitForText(page, "[data-testid=expected-tables]", "Reads <img src=x onerror=alert(2)>");
  // Reopen it from a link, the other way markup could get in.
  await page.getByRole("button", { name: "Copy link" }).click();
  await waitForText(page, "[data-testid=copy-status]", "Link copied");
  const other = await freshPage(await page.evaluate(() => navigator.clipboard.readText()));
  await waitForText(other, "[data-testid=generated-error] pre", /<img src=x onerror=alert\(1\)>/);
  for (const p of [page, other]) {
    await p.waitForTimeout(300);
    // The editor keeps empty <img> elements of its own around widgets; none loads anything.
    assert.equal(await p.locator("img[src], img[onerror]").count(), 0, "no <img> from the query was created");
    assert.deepEqual(p.dialogs, [], "no dialog fired");
  }
});

test("the editors are reachable from the keyboard in reading order", async () => {
  const page = await freshPage();
  await page.locator("#generated .cm-content").focus();
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement.closest(".code-editor")?.id), "expected");
});

test("a pasted pair with results shows the full QAS breakdown", async () => {
  const page = await freshPage();
  await page.selectOption("#profile", "qas");
  await typeInto(page, "generated", "SELECT u.name, COUNT(*) AS n FROM users u GROUP BY u.name");
  await typeInto(page, "expected", "SELECT name, COUNT(*) AS n FROM users GROUP BY name ORDER BY n DESC");
  await page.locator("details.results-input summary").click();
  await page.locator("textarea#generated-result").fill('[{"name": "ann", "n": 3}, {"name": "bob", "n": 5}]');
  await page.locator("textarea#expected-result").fill('{"columns": ["name", "n"], "rows": [["bob", 5], ["ann", 3]]}');
  await page.selectOption("#answer-type", "table");
  await waitForText(page, "[data-testid=generated-result-shape]", "2 rows × 2 columns");
  await waitForText(page, "[data-testid=metric-execution-score]", "1.00");
  await waitForText(page, "[data-testid=metric-datatype-score]", "1.00");
  await waitForText(page, "[data-testid=metric-datatype-explanation]", "Valid table: 2 rows x 2 columns");
  const semantic = Number(await waitForText(page, "[data-testid=metric-semantic_similarity-score]", /^0\.9\d$/));
  await waitForText(page, "[data-testid=metric-semantic_similarity]", /missing ordering/);
  // 0.4 semantic + 0.4 execution + 0.2 datatype, shown to two places.
  const total = (0.4 * semantic + 0.4 + 0.2).toFixed(2);
  await waitForText(page, "[data-testid=profile-total]", total);
  // The total clears 70%, but the generated query drops the expected ORDER BY: the equivalence
  // check finds a database where the order differs, and a counterexample fails the pair.
  await waitForText(page, "[data-testid=metric-equivalence-explanation]", /both return the same \d+ rows in a different order/);
  await waitForText(page, "[data-testid=profile-verdict]", "FAIL");
  await waitForText(page, "[data-testid=profile-explanation]", /→ FAIL: equivalence: the queries return different results on a generated database/);
  await waitForText(page, "[data-testid=metric-results_match-explanation]", /f1 mode/);
  await page.screenshot({ path: join(artifacts, "playground-qas.png"), fullPage: true });

  // The menu says what each profile adds up.
  assert.equal(
    await page.locator("#profile option:checked").textContent(),
    "Similarity 40% + execution 40% + column types 20% (qas)",
  );
  // The download carries what was scored and how, with numbers as rounded as the page's to
  // four places; its input is a pairs line the CLI scores the same.
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#download-scorecard")]);
  const text = await readFile(await download.path(), "utf8");
  const exported = JSON.parse(text);
  assert.equal(exported.input.generated_sql, "SELECT u.name, COUNT(*) AS n FROM users u GROUP BY u.name");
  assert.deepEqual(exported.input.generated_result, [{ name: "ann", n: 3 }, { name: "bob", n: 5 }]);
  assert.equal(exported.input.profile, "qas");
  assert.equal(exported.input.expected_answer_type, "table");
  assert.deepEqual(exported.options.judge, { kind: "structural" });
  assert.equal(exported.options.equivalence_databases, 40);
  assert.equal(exported.scorecard.profile.total.toFixed(2), total);
  assert.doesNotMatch(text, /\d\.\d{5,}/, "no number has more than four decimals");
  const dir = await mkdtemp(join(tmpdir(), "qeval-download-"));
  await writeFile(join(dir, "pair.jsonl"), JSON.stringify(exported.input) + "\n");
  const cli = JSON.parse(execFileSync(CLI, ["score", "--pairs", join(dir, "pair.jsonl")]).toString());
  for (const metric of ["execution", "datatype", "semantic_similarity", "results_match", "table_accuracy"]) {
    assert.equal(exported.scorecard.metrics[metric].score, Math.round(cli.metrics[metric].score * 1e4) / 1e4, metric);
  }

  // A result that is not valid JSON says where, and is left out of the scores.
  await page.locator("textarea#generated-result").fill('[{"name": "ann", "n": 3},');
  await waitForText(page, "[data-testid=generated-result-error]", /invalid JSON/);
  // Without the generated result, the equivalence check on generated databases stands in for
  // the result metrics: the generated query does not keep the expected order, so it fails.
  await waitForText(page, "[data-testid=profile-explanation]", /execution from the equivalence check on generated databases, no result given/);
  await waitForText(page, "[data-testid=profile-verdict]", "FAIL");
  assert.deepEqual(page.errors, []);
});

test("an unsafe generated query fails with an UNSAFE badge, and two statements are judged as two", async () => {
  const page = await freshPage();
  await typeInto(page, "expected", "SELECT name FROM users");
  await typeInto(page, "generated", "SELECT name FROM users; DROP TABLE users");
  await waitForText(page, "[data-testid=unsafe-badge]", "UNSAFE");
  await waitForText(page, "[data-testid=profile-verdict]", "FAIL");
  await waitForText(page, "[data-testid=metric-query_correctness-explanation]", /Different statements: the generated text has 2 statements/);
  await waitForText(page, "[data-testid=metric-query_correctness]", /extra statement: DROP TABLE users/);
  await page.screenshot({ path: join(artifacts, "playground-unsafe.png"), fullPage: true });
  // A read-only query loses the badge.
  await typeInto(page, "generated", "SELECT name FROM users");
  await waitForText(page, "[data-testid=profile-verdict]", /PASS|NO VERDICT/);
  assert.equal(await page.locator("[data-testid=unsafe-badge]").count(), 0);
  assert.deepEqual(page.errors, []);
});

test("KQL queries are read as KQL", async () => {
  const page = await freshPage();
  await page.selectOption("#language", "kql");
  assert.equal(await page.locator("#dialect").count(), 0, "no SQL dialect for KQL");
  await typeInto(page, "generated", "Traces | where timestamp > ago(60m) | project timestamp, level, message");
  await typeInto(page, "expected", "Traces | where timestamp > ago(1h) | project timestamp, level, message");
  await waitForText(page, "[data-testid=generated-tables]", "Reads traces");
  await waitForText(page, "[data-testid=identical]", "Queries are identical");
  await waitForText(page, "[data-testid=metric-semantic_similarity-score]", "1.00");
  await typeInto(page, "generated", "AppTraces | where timestamp > ago(1h) | summarize count()");
  await waitForText(page, "[data-testid=metric-query_correctness-explanation]", "Query accesses wrong table");
});

test("the deepest query the limits admit does not break the page", async () => {
  const page = await freshPage();
  const deep = `SELECT * FROM t WHERE a IN ${"(SELECT x FROM u WHERE y IN ".repeat(47)}(1)${")".repeat(47)}`;
  await page.locator("#generated .cm-content").fill(deep);
  await waitForText(page, "[data-testid=generated-tables]", "Reads tu");
  await page.locator("#generated .cm-content").fill(`SELECT ${"(".repeat(20000)}1`);
  await waitForText(page, "[data-testid=generated-error]", /too deeply/);
  await page.locator("#generated .cm-content").fill("SELECT * FROM still_alive");
  await waitForText(page, "[data-testid=generated-tables]", "Reads still_alive");
  assert.deepEqual(page.errors, []);
});

test("two queries that differ show their normalized forms side by side, marked, and the judge part by part", async () => {
  const page = await freshPage();
  await typeInto(page, "generated", "select name from users where active = 1");
  await typeInto(page, "expected", "SELECT name, email FROM users WHERE active = 1 ORDER BY name");
  await waitForText(page, "[data-testid=identical]", "Queries differ after normalization");
  // Scored once typing pauses: wait for this pair's forms, not the example's.
  await page.waitForFunction(() => {
    const text = document.querySelector("[data-testid=normalized]")?.textContent.toLowerCase() ?? "";
    return text.includes("email") && !text.includes("orders");
  });
  const section = page.locator("[data-testid=normalized]");
  assert.equal(await section.evaluate((d) => d.open), true, "open when the queries differ");
  const marked = await section.locator("mark.del").allTextContents();
  assert.ok(marked.join(" ").toLowerCase().includes("email"), `the expected query's extra column is marked: ${marked}`);
  assert.ok(marked.join(" ").toLowerCase().includes("order"), `and its ORDER BY: ${marked}`);
  assert.equal(await section.locator("mark.ins").count(), 0, "the generated query adds nothing");
  const rows = await page.locator("[data-testid=judge-components] tbody tr").evaluateAll((trs) =>
    Object.fromEntries(trs.map((tr) => [tr.querySelector("th").textContent, Array.from(tr.querySelectorAll("td")).map((td) => td.textContent)])),
  );
  assert.equal(rows.tables[1], "1.00", "the same table");
  assert.ok(Number(rows.columns[1]) < 1, `the output columns differ: ${rows.columns}`);
  assert.ok(rows.columns[2].includes("email"), `email is missing from the generated output: ${rows.columns}`);
  await page.screenshot({ path: join(artifacts, "playground-normalized.png"), fullPage: true });

  // Identical after normalization: the section is closed and nothing is marked.
  await typeInto(page, "generated", "SELECT name, email FROM users WHERE active = 1 ORDER BY name");
  await waitForText(page, "[data-testid=identical]", "Queries are identical");
  assert.equal(await section.evaluate((d) => d.open), false, "closed when they do not");
  assert.equal(await section.locator("mark").count(), 0);
  assert.deepEqual(page.errors, []);
});

test("each tab is a history entry: Back returns to the playground as it was, Forward to the report", async () => {
  const page = await freshPage();
  await typeInto(page, "generated", "SELECT id FROM users");
  await typeInto(page, "expected", "SELECT id FROM users ORDER BY id");
  await waitForText(page, "[data-testid=identical]", "Queries differ after normalization");
  await page.click("#tab-report");
  await page.waitForSelector("#run-files", { state: "attached" });
  assert.match(page.url(), /\?view=report$/);
  await page.goBack();
  await page.waitForSelector("#generated .cm-content");
  assert.equal(await queryText(page, "generated"), "SELECT id FROM users");
  assert.equal(await queryText(page, "expected"), "SELECT id FROM users ORDER BY id");
  assert.equal(await page.getAttribute("#tab-playground", "aria-current"), "page");
  await page.goForward();
  await page.waitForSelector("#run-files", { state: "attached" });
  assert.equal(await page.getAttribute("#tab-report", "aria-current"), "page");
  // The playground tab brings back the playground as it was left, as a new entry.
  await page.click("#tab-playground");
  await page.waitForSelector("#generated .cm-content");
  assert.equal(await queryText(page, "generated"), "SELECT id FROM users");
  await page.goBack();
  await page.waitForSelector("#run-files", { state: "attached" });
  assert.deepEqual(page.errors, []);
});

test("the defog mode reads the question and query_category: asked to sort, the rows' order counts, as the CLI says; the link keeps both", async () => {
  const page = await freshPage();
  await page.selectOption("#mode", "defog");
  const generated = "SELECT name, n FROM t";
  const expected = "SELECT name, n FROM t ORDER BY n DESC";
  await typeInto(page, "generated", generated);
  await typeInto(page, "expected", expected);
  await page.locator("details.results-input summary").click();
  const results = {
    generated: '{"columns": ["name", "n"], "rows": [["ann", 3], ["bob", 5]]}',
    expected: '{"columns": ["name", "n"], "rows": [["bob", 5], ["ann", 3]]}',
  };
  await page.locator("textarea#generated-result").fill(results.generated);
  await page.locator("textarea#expected-result").fill(results.expected);
  const dir = await mkdtemp(join(tmpdir(), "qeval-defog-e2e-"));
  const pairs = join(dir, "pairs.jsonl");
  // What the CLI gives for the same pair and question: the page must say the same.
  const cli = async (question, category) => {
    const line = { generated_sql: generated, expected_sql: expected, generated_result: JSON.parse(results.generated), expected_result: JSON.parse(results.expected), mode: "defog", question, query_category: category };
    await writeFile(pairs, JSON.stringify(line) + "\n");
    const card = JSON.parse(execFileSync(CLI, ["score", "--no-equivalence", "--pairs", pairs], { stdio: ["ignore", "pipe", "ignore"] }).toString());
    return card.metrics.results_match;
  };
  await page.fill("#question", "Which names have which counts?");
  const unordered = await cli("Which names have which counts?", undefined);
  await waitForText(page, "[data-testid=metric-results_match-score]", unordered.score.toFixed(2));
  await waitForText(page, "[data-testid=metric-results_match-explanation]", unordered.explanation);
  // sql-eval looks for the words order, sort or arrange (not "sorted").
  await page.fill("#question", "Which names have which counts, in order of count?");
  const sorted = await cli("Which names have which counts, in order of count?", undefined);
  assert.notEqual(sorted.score, unordered.score, "asking to sort makes the rows' order count");
  await waitForText(page, "[data-testid=metric-results_match-score]", sorted.score.toFixed(2));
  await waitForText(page, "[data-testid=metric-results_match-explanation]", sorted.explanation);
  // query_category order_by asks for order too, with a question that does not.
  await page.fill("#question", "Which names have which counts?");
  await page.fill("#query-category", "order_by");
  const category = await cli("Which names have which counts?", "order_by");
  assert.equal(category.score, sorted.score);
  await waitForText(page, "[data-testid=metric-results_match-score]", category.score.toFixed(2));
  await page.locator("#question").scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(artifacts, "playground-defog.png") });

  await page.getByRole("button", { name: "Copy link" }).click();
  await waitForText(page, "[data-testid=copy-status]", "Link copied");
  const link = await page.evaluate(() => navigator.clipboard.readText());
  const other = await openPage(await shared.browser.newContext(), link);
  assert.ok((await poll(other, () => other.inputValue("#question"), (value) => value === "Which names have which counts?")).ok, "the link keeps the question");
  assert.equal(await other.inputValue("#query-category"), "order_by");
  await waitForText(other, "[data-testid=metric-results_match-score]", category.score.toFixed(2));
  assert.deepEqual(page.errors, []);
});
