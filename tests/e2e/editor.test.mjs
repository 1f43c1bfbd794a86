// The query editors: highlighting for SQL and KQL, line numbers, bracket matching, findings
// marked at their place in the text, and completion from the schema.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { artifacts, buildDatabase, openPage, poll, setQuery, useBrowser, waitForText } from "./harness.mjs";

const shared = useBrowser();

async function freshPage(viewport = { width: 1280, height: 800 }) {
  const context = await shared.browser.newContext({ viewport });
  return openPage(context, shared.server.url);
}

/** The editable text of one side's editor. */
const content = (page, side) => page.locator(`#${side} .cm-content`);

/** Replaces one side's text, as a paste would. */
const paste = setQuery;

/** The texts of the elements matching `selector` inside one side's editor. */
async function texts(page, side, selector) {
  return page.locator(`#${side} ${selector}`).allTextContents();
}

/** Waits until one side's editor marks exactly `want` (texts of the marked stretches). The
 * editors live in shadow roots, which locators see into and `document.querySelector` does not. */
async function waitForMarks(page, side, severity, want) {
  const marks = page.locator(`#${side} .cm-lintRange-${severity}`);
  const { value: seen } = await poll(page, () => marks.allTextContents(), (seen) => JSON.stringify(seen) === JSON.stringify(want));
  assert.deepEqual(seen, want, `${severity} marks in the ${side} query`);
}

test("SQL is highlighted in the chosen dialect, with line numbers and matching brackets", async () => {
  const page = await freshPage();
  await paste(page, "generated", "SELECT name, COUNT(*) AS n\nFROM users -- every user\nWHERE id > 10 AND note = 'x'\nGROUP BY name");
  assert.deepEqual(await texts(page, "generated", ".tok-keyword"), ["SELECT", "COUNT", "AS", "FROM", "WHERE", "AND", "GROUP", "BY"]);
  assert.deepEqual(await texts(page, "generated", ".tok-number"), ["10"]);
  assert.deepEqual(await texts(page, "generated", ".tok-string"), ["'x'"]);
  assert.deepEqual(await texts(page, "generated", ".tok-comment"), ["-- every user"]);
  // The gutter also holds a hidden element that sizes it; the visible numbers are the lines.
  const numbers = await page
    .locator("#generated .cm-lineNumbers .cm-gutterElement")
    .evaluateAll((elements) => elements.filter((e) => getComputedStyle(e).visibility !== "hidden").map((e) => e.textContent));
  assert.deepEqual(numbers, ["1", "2", "3", "4"]);

  // The cursor right after an opening bracket marks it and its partner.
  await content(page, "generated").click();
  await page.keyboard.press("Control+Home");
  for (let i = 0; i < "SELECT name, COUNT(".length; i++) await page.keyboard.press("ArrowRight");
  assert.deepEqual(await texts(page, "generated", ".cm-matchingBracket"), ["(", ")"]);

  // Dialects read quoting their own way: MySQL's backticks name a column, not a string.
  await page.selectOption("#dialect", "mysql");
  await paste(page, "expected", "SELECT `order` FROM t WHERE s = \"text\"");
  assert.deepEqual(await texts(page, "expected", ".tok-string"), ['"text"']);
  assert.ok(!(await texts(page, "expected", ".tok-string")).includes("`order`"));
  assert.deepEqual(page.errors, []);
});

test("parse errors and safety findings are marked where they are", async () => {
  const page = await freshPage();
  await page.selectOption("#dialect", "postgres");
  await paste(page, "expected", "SELECT id FROM users");
  await paste(page, "generated", "SELECT id\nFROM users\nWHERE id = 1)");
  await waitForMarks(page, "generated", "error", [")"]);
  // The mark's line is the error's line.
  const line = await page.locator("#generated .cm-line", { has: page.locator(".cm-lintRange-error") }).textContent();
  assert.equal(line, "WHERE id = 1)");
  // Hovering the mark tells what is wrong.
  await page.locator("#generated .cm-lintRange-error").hover();
  await waitForText(page, ".cm-tooltip-lint", /Does not parse: expected end of statement, found \)/);

  await paste(page, "generated", "SELECT id, pg_sleep(5)\nFROM users");
  await waitForMarks(page, "generated", "error", ["pg_sleep"]);
  await paste(page, "generated", "SELECT id FROM users;\nDROP TABLE users");
  await waitForMarks(page, "generated", "error", ["DROP"]);
  await paste(page, "generated", "SELECT id FROM users WHERE name = 'a' OR 1 = 1");
  await waitForMarks(page, "generated", "warning", ["1 = 1"]);
  await waitForMarks(page, "generated", "error", []);
  // The expected query is not held to the read-only policy; only its parse errors are marked.
  await paste(page, "expected", "SELECT pg_sleep(1) FROM users WHERE )");
  await waitForMarks(page, "expected", "error", [")"]);
  await page.screenshot({ path: join(artifacts, "editor-markers.png") });
  assert.deepEqual(page.errors, []);
});

test("completion offers the tables and columns of the inferred or loaded schema", async () => {
  const page = await freshPage();
  await paste(page, "expected", "SELECT singer_name, age FROM singer WHERE age > 30");
  await paste(page, "generated", "SELECT singer_name FROM singer");
  // The equivalence check infers the schema from both queries; the editors complete from it.
  await waitForText(page, "[data-testid=equivalence-verdict]", /./, 30_000);
  await content(page, "generated").click();
  await page.keyboard.press("Control+End");
  await page.keyboard.type(" WHERE ag");
  await page.keyboard.press("Control+Space");
  await page.locator(".cm-tooltip-autocomplete").waitFor();
  const offered = await page.locator(".cm-tooltip-autocomplete li").allTextContents();
  assert.ok(offered.some((o) => o.startsWith("age")), `offered: ${offered}`);
  // The editor ignores Enter for a moment after the list opens, so a fast typist's Enter
  // is not taken as a choice.
  await page.waitForTimeout(150);
  await page.keyboard.press("Enter");
  await waitForText(page, "#generated .cm-content", "SELECT singer_name FROM singer WHERE age");

  // A loaded database's tables come next.
  await buildDatabase(page, "CREATE TABLE concert (concert_id INTEGER, venue TEXT); INSERT INTO concert VALUES (1, 'x');");
  await paste(page, "generated", "SELECT venue FROM con");
  await content(page, "generated").click();
  await page.keyboard.press("Control+End");
  await page.keyboard.press("Control+Space");
  await page.locator(".cm-tooltip-autocomplete").waitFor();
  const tables = await page.locator(".cm-tooltip-autocomplete li").allTextContents();
  assert.ok(tables.some((o) => o.startsWith("concert")), `offered: ${tables}`);
  await page.screenshot({ path: join(artifacts, "editor-completion.png") });
  assert.deepEqual(page.errors, []);
});

test("KQL is highlighted and a management command is marked", async () => {
  const page = await freshPage();
  await page.selectOption("#language", "kql");
  await paste(page, "expected", "StormEvents\n| where State == \"TEXAS\" and StartTime > ago(7d)\n| summarize count() by EventType\n| take 10");
  assert.deepEqual(await texts(page, "expected", ".tok-keyword"), ["where", "and", "summarize", "by", "take"]);
  assert.deepEqual(await texts(page, "expected", ".tok-string"), ['"TEXAS"']);
  assert.deepEqual(await texts(page, "expected", ".tok-number"), ["7d", "10"]);
  await paste(page, "generated", "\n.drop table StormEvents");
  await waitForMarks(page, "generated", "error", [".drop"]);
  for (const scheme of ["light", "dark"]) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: join(artifacts, `editor-kql-${scheme}.png`) });
  }
  assert.deepEqual(page.errors, []);
});

test("the editors fit a phone's width in light and dark", async () => {
  const page = await freshPage({ width: 390, height: 844 });
  await paste(page, "generated", "SELECT u.name, COUNT(o.id) AS orders FROM users u LEFT JOIN orders o ON o.user_id = u.id GROUP BY u.name");
  const width = await page.locator("#generated .cm-editor").evaluate((e) => e.getBoundingClientRect().width);
  assert.ok(width <= 390, `the editor is ${width}px wide`);
  const scrolls = await page.evaluate(() => document.documentElement.scrollWidth > innerWidth);
  assert.equal(scrolls, false, "the page does not scroll sideways");
  for (const scheme of ["light", "dark"]) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: join(artifacts, `editor-390-${scheme}.png`) });
  }
});
