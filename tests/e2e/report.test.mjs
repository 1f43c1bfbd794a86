// The run report in a real headless Chromium: loading runs every way a user can, scoring in the
// page, the static export opened from file://, and record text that must stay text.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFile, writeFile, mkdtemp, cp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { artifacts, launchBrowser, useBrowser, waitForText } from "./harness.mjs";

const EXAMPLE = resolve("../../static/example-run");
const RUN = join(EXAMPLE, "run-2026-11-20T14-30-00");

const CLI = resolve(process.env.QEVAL_CLI ?? "../../target/debug/qeval");

const shared = useBrowser();

/** The report view, recording errors, dialogs and CSP violations. */
async function reportPage(query = "?view=report", viewport = { width: 1280, height: 1000 }) {
  const context = await shared.browser.newContext({ viewport, acceptDownloads: true });
  const page = await context.newPage();
  page.errors = [];
  page.dialogs = [];
  page.violations = [];
  page.on("pageerror", (e) => page.errors.push(e.message));
  page.on("dialog", (d) => {
    page.dialogs.push(d.message());
    d.dismiss().catch(() => {});
  });
  page.on("console", (m) => {
    if (m.text().includes("Content Security Policy")) page.violations.push(m.text());
  });
  await page.goto(`${shared.server.url}${query}`);
  await page.locator("#run-files").waitFor({ state: "attached" });
  return page;
}

/** Drops files on the page's drop zone the way a browser does (a DataTransfer with files). */
async function drop(page, testid, files) {
  await page.evaluate(
    ({ testid, files }) => {
      const data = new DataTransfer();
      for (const { name, text } of files) data.items.add(new File([text], name));
      const zone = document.querySelector(`[data-testid=${testid}]`);
      zone.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
    },
    { testid, files },
  );
}

async function download(page, selector) {
  const [file] = await Promise.all([page.waitForEvent("download"), page.click(selector)]);
  return readFile(await file.path(), "utf8");
}

test("Try the example shows the run's summary, charts, table and detail", async () => {
  const page = await reportPage();
  await page.click("#try-example");
  await waitForText(page, "[data-testid=pass-rate]", "73.5%");
  await waitForText(page, "[data-testid=tests]", "34");
  await waitForText(page, "[data-testid=passed]", "25");
  await waitForText(page, "[data-testid=table-count]", "34 of 34 tests");
  for (const id of ["chart-histogram", "chart-components", "chart-difficulty", "chart-agent"]) {
    const box = await page.locator(`#${id} svg`).boundingBox();
    assert.ok(box.width > 300 && box.height > 140, `${id} drawn at ${box.width}×${box.height}`);
    assert.ok((await page.locator(`#${id} rect`).count()) > 0, `${id} has bars`);
  }
  // The bars' labels under the axis, in the groupings' order.
  const texts = (await page.locator("#chart-difficulty text").allTextContents()).map((t) => t.trim());
  assert.deepEqual(texts.filter((t) => /^[a-z]+$/.test(t)), ["easy", "medium", "hard"]);
  await page.click("#show-failed");
  await waitForText(page, "[data-testid=table-count]", "9 of 34 tests");
  await page.locator("[data-testid=test-row]").first().click();
  await waitForText(page, "[data-testid=detail-question]", "When was the first order placed?");
  await waitForText(page, "[data-testid=detail-extra]", /"latency_ms": \d+/);
  await page.screenshot({ path: join(artifacts, "report.png"), fullPage: true });
  assert.deepEqual(page.errors, []);
  assert.deepEqual(page.violations, [], "the page's Content Security Policy is never violated");
});

test("a dropped folder of raw results is scored in the page to the same records as qeval run", async () => {
  const page = await reportPage();
  await drop(page, "run-drop", [
    { name: "test-results.jsonl", text: await readFile(join(RUN, "test-results.jsonl"), "utf8") },
    { name: "test_questions_answers.json", text: await readFile(join(EXAMPLE, "test_questions_answers.json"), "utf8") },
  ]);
  await page.click("#score-run");
  await waitForText(page, "[data-testid=pass-rate]", "73.5%");
  const scored = await download(page, "#download-results");
  assert.equal(scored, await readFile(join(RUN, "evaluation-results.jsonl"), "utf8"), "byte for byte");
});

test("a picked folder is read whole, its subfolders included", async () => {
  // A suite folder: the questions at the top, the run in a subfolder.
  const suite = await mkdtemp(join(tmpdir(), "qeval-suite-"));
  await cp(join(EXAMPLE, "test_questions_answers.json"), join(suite, "test_questions_answers.json"));
  await cp(RUN, join(suite, "run-2026-11-20T14-30-00"), { recursive: true });
  const page = await reportPage();
  await page.setInputFiles("#run-folder", suite);
  await waitForText(page, "[data-testid=pass-rate]", "73.5%");
  await waitForText(page, "[data-testid=load-status]", /^run-2026-11-20T14-30-00: 34 lines read: 34 records, 0 rejected/);
});

test("a corrupt line is listed with its number and every other line is kept", async () => {
  const lines = (await readFile(join(RUN, "evaluation-results.jsonl"), "utf8")).split("\n");
  lines.splice(2, 0, '{"test_id": 99, "qas_evaluation": {"final_score": ');
  const page = await reportPage();
  await page.setInputFiles("#run-files", { name: "evaluation-results.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(lines.join("\n")) });
  await waitForText(page, "[data-testid=load-status]", /35 lines read: 34 records, 1 rejected/);
  await waitForText(page, "[data-testid=rejected-lines] li", /^evaluation-results\.jsonl, line 3: EOF while parsing/);
  await waitForText(page, "[data-testid=pass-rate]", "73.5%");
});

test("the exported static report opens from file:// in a fresh browser with the same numbers", async () => {
  const page = await reportPage();
  await page.click("#try-example");
  await waitForText(page, "[data-testid=pass-rate]", "73.5%");
  const html = await download(page, "#export-report");
  // The export carries its own policy: nothing runs but its one script, nothing is fetched.
  assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; [^"]*script-src 'sha256-/);
  assert.doesNotMatch(html, /connect-src/, "no network source: default-src 'none' covers fetches");
  const dir = await mkdtemp(join(tmpdir(), "qeval-export-"));
  const file = join(dir, "report.html");
  await writeFile(file, html);

  const fresh = await launchBrowser();
  try {
    const view = await (await fresh.newContext()).newPage();
    const requests = [];
    view.on("request", (r) => requests.push(r.url()));
    const errors = [];
    view.on("pageerror", (e) => errors.push(e.message));
    await view.goto(`file://${file}`);
    await waitForText(view, "[data-testid=pass-rate]", "73.5%");
    await waitForText(view, "[data-testid=tests]", "34");
    await waitForText(view, "[data-testid=mean-final]", "0.804");
    await waitForText(view, "#count", "34 matching tests");
    await view.click("#show-failed");
    await waitForText(view, "#count", "9 matching tests");
    await view.locator("#rows tr").first().click();
    await waitForText(view, "#detail h2", /^Test \d+$/);
    await view.screenshot({ path: join(artifacts, "static-report.png"), fullPage: true });
    assert.deepEqual(requests, [`file://${file}`], "the page requests nothing else");
    assert.deepEqual(errors, []);
  } finally {
    await fresh.close();
  }
});

test("results are tables in their own column order, with the differing cell, the unmatched rows and NULL marked, and the queries' differing words, in the page and the export alike", async () => {
  const record = {
    test_id: "near", question: "Totals by name", agent_used: "a", difficulty: "easy",
    expected_sql: "SELECT name, total, note FROM t WHERE total > 0", generated_sql: "select name, total, note from t where total >= 1",
    expected_results: [{ name: "ann", total: 3, note: null }, { name: "bob", total: 5, note: "NULL" }, { name: "cy", total: 1, note: "x" }],
    actual_results: { columns: ["name", "total", "note"], rows: [["bob", 5.0, "NULL"], ["ann", 4, null], ["cy", 1, "x"], ["dee", 9, "y"]] },
    qas_evaluation: { semantic_score: 1, execution_score: 0.5, datatype_score: 1, final_score: 0.8, passed: true, breakdown: {} },
  };
  const page = await reportPage();
  // JavaScript writes 5.0 as 5: the float goes in by hand.
  const line = JSON.stringify(record).replace('["bob",5,"NULL"]', '["bob",5.0,"NULL"]');
  assert.ok(line.includes("5.0"));
  await page.setInputFiles("#run-files", { name: "evaluation-results.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(line + "\n") });
  await waitForText(page, "[data-testid=table-count]", "1 of 1 test");
  await page.locator("[data-testid=test-row]").first().click();
  await page.waitForSelector("[data-testid=generated-result-table]");
  // A table as text: each cell's text, " (null)" for NULL, " *" for a differing cell.
  const read = (table) =>
    table.evaluate((table) => ({
      head: [...table.querySelectorAll("th")].map((th) => th.textContent),
      rows: [...table.querySelectorAll("tr")].slice(1).map((tr) => ({
        unmatched: tr.classList.contains("unmatched"),
        cells: [...tr.querySelectorAll("td")].map((td) => `${td.textContent}${td.classList.contains("null") ? " (null)" : ""}${td.classList.contains("differs") ? " *" : ""}`),
      })),
    }));
  const expected = await read(page.locator("[data-testid=expected-result-table]"));
  const generated = await read(page.locator("[data-testid=generated-result-table]"));
  // Objects keep their keys' order; 5.0 is 5, as the comparison has it; NULL is not "NULL".
  assert.deepEqual(expected, {
    head: ["name", "total", "note"],
    rows: [
      { unmatched: true, cells: ["ann", "3 *", "NULL (null)"] },
      { unmatched: false, cells: ["bob", "5", "NULL"] },
      { unmatched: false, cells: ["cy", "1", "x"] },
    ],
  });
  assert.deepEqual(generated, {
    head: ["name", "total", "note"],
    rows: [
      { unmatched: false, cells: ["bob", "5.0", "NULL"] },
      { unmatched: true, cells: ["ann", "4 *", "NULL (null)"] },
      { unmatched: false, cells: ["cy", "1", "x"] },
      { unmatched: true, cells: ["dee", "9", "y"] },
    ],
  });
  await waitForText(page, "[data-testid=test-detail]", /2 rows not in the other result \(marked\)/);
  // Keywords match in any case; only the comparison differs.
  const marked = (locator) => locator.allTextContents();
  const words = {
    missing: await marked(page.locator("[data-testid=test-detail] pre.query mark.del")),
    extra: await marked(page.locator("[data-testid=test-detail] pre.query mark.ins")),
  };
  assert.deepEqual(words, { missing: ["0"], extra: ["= 1"] });
  await page.locator("[data-testid=test-detail]").screenshot({ path: join(artifacts, "result-tables.png") });

  const html = await download(page, "#export-report");
  const dir = await mkdtemp(join(tmpdir(), "qeval-tables-"));
  await writeFile(join(dir, "report.html"), html);
  const view = await (await shared.browser.newContext()).newPage();
  await view.goto(`file://${join(dir, "report.html")}`);
  await view.locator("#rows tr").first().click();
  const tables = view.locator("#detail table.result");
  await tables.first().waitFor();
  const [exportedExpected, exportedGenerated] = await Promise.all([read(tables.nth(0)), read(tables.nth(1))]);
  assert.deepEqual(exportedExpected, expected, "the export shows what the page shows");
  assert.deepEqual(exportedGenerated, generated);
  assert.deepEqual({ missing: await marked(view.locator("#detail pre del")), extra: await marked(view.locator("#detail pre ins")) }, words);
  assert.deepEqual(page.errors, []);
});

test("record text with markup is shown as text, in the page and in the export", async () => {
  const hostile = [
    { test_id: "<img src=x onerror=alert(1)>", question: "<script>alert(2)</script>", agent_used: "<img src=y onerror=alert(3)>", difficulty: "easy", generated_sql: "SELECT '<img src=z onerror=alert(4)>'", expected_sql: "SELECT 1", qas_evaluation: { semantic_score: 0.5, execution_score: 0, datatype_score: 1, final_score: 0.4, passed: false, breakdown: { semantic_explanation: "<b onmouseover=alert(5)>x</b>" } }, note: "<script>alert(6)</script>" },
  ];
  const text = hostile.map((r) => JSON.stringify(r)).join("\n");
  const page = await reportPage();
  await page.setInputFiles("#run-files", { name: "evaluation-results.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(text) });
  await waitForText(page, "[data-testid=table-count]", "1 of 1 test");
  await page.locator("[data-testid=test-row]").first().click();
  await waitForText(page, "[data-testid=detail-question]", "<script>alert(2)</script>");
  await waitForText(page, "[data-testid=test-detail] h2", "Test <img src=x onerror=alert(1)>");
  await waitForText(page, "[data-testid=detail-extra]", /<script>alert\(6\)<\/script>/);
  const html = await download(page, "#export-report");
  const dir = await mkdtemp(join(tmpdir(), "qeval-xss-"));
  await writeFile(join(dir, "report.html"), html);
  const view = await (await shared.browser.newContext()).newPage();
  view.dialogs = [];
  view.on("dialog", (d) => {
    view.dialogs.push(d.message());
    d.dismiss().catch(() => {});
  });
  await view.goto(`file://${join(dir, "report.html")}`);
  await view.locator("#rows tr").first().click();
  await waitForText(view, "#detail p", "<script>alert(2)</script>");
  for (const p of [page, view]) {
    await p.waitForTimeout(300);
    assert.equal(await p.locator("img").count(), 0, "no <img> element was created");
    assert.equal(await p.locator("b").count(), 0, "no <b> element was created");
    assert.deepEqual(p.dialogs, [], "no dialog fired");
  }
});

test("a judge's explanation in Markdown is laid out alike in the page and the export", async () => {
  const record = {
    test_id: "md-1", question: "Who?", generated_sql: "SELECT COUNT(*) FROM t", expected_sql: "SELECT COUNT(*) FROM u",
    qas_evaluation: {
      semantic_score: 0.5, execution_score: 0, datatype_score: 1, final_score: 0.4, passed: false,
      breakdown: { semantic_explanation: "The queries **differ**:\n\n1. `COUNT(*)` reads *t*\n2. the expected one reads u", execution_explanation: "COUNT(*) and COUNT(*) differ", datatype_explanation: "ok" },
    },
  };
  const page = await reportPage();
  await page.setInputFiles("#run-files", { name: "evaluation-results.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(JSON.stringify(record) + "\n") });
  await page.locator("[data-testid=test-row]").first().click();
  const shown = page.locator("[data-testid=detail-explanations]");
  await shown.locator("[data-testid=markdown]").waitFor();
  const html = await download(page, "#export-report");
  const dir = await mkdtemp(join(tmpdir(), "qeval-md-"));
  await writeFile(join(dir, "report.html"), html);
  const view = await (await shared.browser.newContext()).newPage();
  await view.goto(`file://${join(dir, "report.html")}`);
  await view.locator("#rows tr").first().click();
  const exported = view.locator("#detail .markdown");
  await exported.waitFor();
  for (const [where, box] of [["page", shown], ["export", exported]]) {
    assert.equal(await box.locator("p strong").textContent(), "differ", where);
    assert.deepEqual(await box.locator("ol > li").allTextContents(), ["COUNT(*) reads t", "the expected one reads u"], where);
    assert.deepEqual(await box.locator("li code").allTextContents(), ["COUNT(*)"], where);
    assert.deepEqual(await box.locator("li em").allTextContents(), ["t"], where);
  }
  // Plain explanations, SQL asterisks and all, stay as written.
  await waitForText(page, "[data-testid=detail-explanations] > li:nth-child(2)", "Execution 0.00: COUNT(*) and COUNT(*) differ");
});

test("two runs compared: the shown run against an earlier one, both pass rates with the interval and McNemar's p, and the tests that flipped by test id", async () => {
  const shown = (await readFile(join(RUN, "evaluation-results.jsonl"), "utf8")).trim().split("\n").map((l) => JSON.parse(l));
  const earlier = shown.map((r) => structuredClone(r));
  // Before, the first test failed and another that fails now passed.
  earlier[0].qas_evaluation.passed = false;
  earlier[0].qas_evaluation.final_score = 0.5;
  const failing = earlier.find((r) => !r.qas_evaluation.passed && r.test_id !== earlier[0].test_id);
  failing.qas_evaluation.passed = true;
  failing.qas_evaluation.final_score = 0.9;
  const page = await reportPage();
  await page.click("#try-example");
  await waitForText(page, "[data-testid=pass-rate]", "73.5%");
  await page.setInputFiles("#compare-files", { name: "evaluation-results.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(earlier.map((r) => JSON.stringify(r)).join("\n")) });
  await waitForText(page, "[data-testid=newly-failing]", `Newly failing (1): ${failing.test_id}`);
  await waitForText(page, "[data-testid=newly-passing]", `Newly passing (1): ${earlier[0].test_id}`);
  await waitForText(page, "[data-testid=pass-rate]", "73.5%");
  // One flip each way: no change in the pass rate, and no evidence of one.
  await waitForText(page, "[data-testid=pass-rate-change]", /^Pass rate 73\.5% → 73\.5%: \+0\.0 points \(95% interval -\d+\.\d to \+\d+\.\d; McNemar exact p = 1\.000\): within what chance gives\.$/);
  // An earlier run that passed six more: the drop since is more than chance.
  const better = earlier.map((r) => structuredClone(r));
  for (const record of better.filter((r) => !r.qas_evaluation.passed).slice(0, 6)) {
    record.qas_evaluation.passed = true;
    record.qas_evaluation.final_score = 0.9;
  }
  better[0].qas_evaluation.passed = true;
  await page.setInputFiles("#compare-files", { name: "evaluation-results.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(better.map((r) => JSON.stringify(r)).join("\n")) });
  await waitForText(page, "[data-testid=pass-rate-change]", /^Pass rate 91\.2% → 73\.5%: -17\.6 points \(95% interval -\d+\.\d to -\d+\.\d; McNemar exact p = 0\.031\): more than chance\.$/);
});

test("?run= on this page's own origin opens at once and names its host", async () => {
  const page = await reportPage(`?run=${encodeURIComponent("example-run/run-2026-11-20T14-30-00/evaluation-results.jsonl")}`);
  await waitForText(page, "[data-testid=pass-rate]", "73.5%");
  await waitForText(page, "[data-testid=load-status]", /^run-2026-11-20T14-30-00 \(from 127\.0\.0\.1:\d+\): /);
  assert.equal(await page.locator("[data-testid=run-confirm]").count(), 0, "no question for its own origin");
  // A link to a page (here the app's own index.html, as a folder's address would give) says so
  // once, instead of one JSON error per line of HTML.
  const html = await reportPage(`?run=${encodeURIComponent("index.html")}`);
  await waitForText(html, "[data-testid=load-problem]", /index\.html returned a web page, not JSON Lines\. Link to the run's file itself/);
  assert.equal(await html.locator("[data-testid=rejected-lines]").count(), 0);
});

/** Another origin serving runs (CORS open): `/run/evaluation-results.jsonl`, and `/huge.jsonl`,
 * which announces 300 MB and sends a little of it. */
async function otherOrigin() {
  const records = await readFile(join(RUN, "evaluation-results.jsonl"));
  const { createServer } = await import("node:http");
  const requests = [];
  const other = createServer((req, res) => {
    requests.push(req.url);
    const headers = { "access-control-allow-origin": "*", "content-type": "application/x-ndjson" };
    if (req.url === "/run/evaluation-results.jsonl") {
      res.writeHead(200, { ...headers, "content-length": records.length });
      res.end(records);
    } else if (req.url === "/huge.jsonl") {
      res.writeHead(200, { ...headers, "content-length": 300 * 1024 * 1024 });
      res.write("{}\n");
      setTimeout(() => res.destroy(), 2_000);
    } else {
      res.writeHead(404, headers).end();
    }
  });
  await new Promise((done) => other.listen(0, "127.0.0.1", done));
  // localhost names the same machine under another origin than the page's 127.0.0.1.
  const url = `http://localhost:${other.address().port}`;
  return { url, requests, close: () => new Promise((done) => other.close(done)) };
}

test("?run= on another origin asks first, names the host, and a file over the cap is refused", async () => {
  const other = await otherOrigin();
  try {
    const page = await reportPage(`?run=${encodeURIComponent(`${other.url}/run/evaluation-results.jsonl`)}`);
    const host = new URL(other.url).host;
    await waitForText(page, "[data-testid=run-confirm]", new RegExp(`load a run from ${host}, another site`));
    assert.deepEqual(other.requests, [], "nothing fetched before the user agrees");
    await page.click("#run-confirm-load");
    await waitForText(page, "[data-testid=pass-rate]", "73.5%");
    await waitForText(page, "[data-testid=load-status]", new RegExp(`^run \\(from ${host}\\): 34 lines read`));

    const huge = await reportPage(`?run=${encodeURIComponent(`${other.url}/huge.jsonl`)}`);
    await huge.click("#run-confirm-load");
    await waitForText(huge, "[data-testid=load-problem]", /is 315 MB; a link can load at most 210 MB/);

    const declined = await reportPage(`?run=${encodeURIComponent(`${other.url}/run/evaluation-results.jsonl`)}`);
    const before = other.requests.length;
    await declined.click("#run-confirm-cancel");
    assert.equal(await declined.locator("[data-testid=run-confirm]").count(), 0);
    assert.equal(other.requests.length, before, "declined: no request");
    assert.deepEqual([...page.errors, ...huge.errors, ...declined.errors], []);
  } finally {
    await other.close();
  }
});

test("pass rates by field read easy < medium < hard, hardness is computed for records without it, and the CI exports match qeval run's", async () => {
  const page = await reportPage();
  // The example's records without their hardness field, as another tool would have written them.
  const records = (await readFile(join(RUN, "evaluation-results.jsonl"), "utf8")).trim().split("\n").map((l) => JSON.parse(l));
  const stripped = records.map(({ sql_hardness, ...rest }) => rest);
  await page.setInputFiles("#run-files", { name: "evaluation-results.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(stripped.map((r) => JSON.stringify(r)).join("\n")) });
  await waitForText(page, "[data-testid=pass-rate]", "73.5%");
  const rows = async (field) => page.locator(`[data-testid=group-${field}] tbody tr`).allInnerTexts();
  assert.deepEqual(
    (await rows("difficulty")).map((r) => r.split("\t")),
    [["easy", "12", "11", "91.7%"], ["medium", "13", "9", "69.2%"], ["hard", "9", "5", "55.6%"]],
  );
  // The scoring worker gives the levels the stripped records lack; they are the ones qeval run wrote.
  await page.locator("[data-testid=group-sql_hardness]").waitFor();
  const levels = (await rows("sql_hardness")).map((r) => r.split("\t")[0]);
  assert.deepEqual(levels, ["easy", "medium", "hard", "extra"]);
  const count = (level) => String(records.filter((r) => r.sql_hardness === level).length);
  for (const row of await rows("sql_hardness")) {
    const [level, tests] = row.split("\t");
    assert.equal(tests, count(level), `${level} tests`);
  }
  await page.locator("[data-testid=group-difficulty]").scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(artifacts, "report-groups.png") });

  const dir = await mkdtemp(join(tmpdir(), "qeval-exports-"));
  await cp(join(RUN, "evaluation-results.jsonl"), join(dir, "evaluation-results.jsonl"));
  execFileSync(CLI, ["run", dir, "--csv", join(dir, "run.csv"), "--markdown", join(dir, "run.md"), "--junit", join(dir, "run.xml")], { stdio: "ignore" });
  assert.equal(await download(page, "#download-csv"), await readFile(join(dir, "run.csv"), "utf8"), "CSV as qeval run --csv writes it");
  const junit = await download(page, "#download-junit");
  assert.equal((junit.match(/<testcase /g) ?? []).length, 34);
  assert.equal((junit.match(/<failure /g) ?? []).length, 9);
  const markdown = await download(page, "#download-markdown");
  assert.match(markdown, /\*\*Pass rate 73\.5%\*\*: 25 of 34 scored tests passed, 9 failed\./);
  const cli = await readFile(join(dir, "run.md"), "utf8");
  assert.equal(markdown.split("\n").slice(1).join("\n"), cli.split("\n").slice(1).join("\n"), "the same summary under the run's own name");
  assert.deepEqual(page.errors, []);
});

test("Try the example shows the judges against its human labels and the comparison with the run before it", async () => {
  const page = await reportPage();
  await page.click("#try-example");
  await waitForText(page, "[data-testid=pass-rate]", "73.5%");
  // Worked by hand in crates/cli/tests/it/run.rs: 14 labels, the verdict agrees on 8, kappa 0.19.
  const row = page.locator("[data-testid=agreement] tbody tr").first();
  await row.waitFor();
  assert.deepEqual((await row.innerText()).split("\t"), ["passed", "14", "57.1%", "0.19 (slight)", "5", "5", "1", "3", "2, 3, 8, 9, 23, 26"]);
  await waitForText(page, "[data-testid=pass-rate-change]", /^Pass rate 67\.6% → 73\.5%: \+5\.9 points .*McNemar exact p = 0\.625.*within what chance gives/);
  await waitForText(page, "[data-testid=newly-passing]", "Newly passing (3): 11, 13, 30");
  await waitForText(page, "[data-testid=newly-failing]", "Newly failing (1): 9");
  // The example states a confidence for every test: calibration and its reliability diagram.
  await waitForText(page, "[data-testid=confidence-calibration] tr:first-child td", "0.86");
  await waitForText(page, "[data-testid=confidence-calibration]", /Stated high21 of 22 correct \(95\.5%; claims 90%\)/);
  const reliability = await page.locator("#chart-reliability svg").boundingBox();
  assert.ok(reliability.width > 300 && reliability.height > 140, `reliability diagram drawn at ${reliability.width}×${reliability.height}`);
  await page.locator("[data-testid=agreement]").scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(artifacts, "report-agreement.png") });
  const exported = await download(page, "#export-report");
  assert.match(exported, /<h2>Judges against human labels<\/h2>/);
  assert.match(exported, /<td>passed<\/td><td>14<\/td><td>57\.1%<\/td><td>0\.19 \(slight\)<\/td>/);
  assert.match(exported, /<caption>Confidence calibration<\/caption><tbody><tr><th scope="row">Calibration score<\/th><td>0\.86<\/td>/);
  assert.match(exported, /id="chart-reliability"|Correct by stated confidence/);
  // The page and the export show the same drawing of each chart: same elements, colors, places
  // and texts.
  const readMarks = (svg) => [...svg.children].map((mark) =>
    [mark.tagName.toLowerCase(), ...["fill", "stroke", "x", "y", "x1", "y1", "width", "height", "points"].map((name) => mark.getAttribute(name)), mark.textContent.trim()].join(" "));
  const exportPage = await page.context().newPage();
  await exportPage.setContent(exported);
  for (const id of ["chart-histogram", "chart-components", "chart-reliability"]) {
    const inPage = await page.locator(`#${id} svg`).evaluate(readMarks);
    const inExport = await exportPage.locator(`#${id} svg`).evaluate(readMarks);
    assert.ok(inPage.length > 10, `${id}: ${inPage.length} marks`);
    assert.deepEqual(inPage, inExport, `${id} is the same chart in the page and the export`);
  }
  await exportPage.close();
  assert.deepEqual(page.errors, []);
});

test("a test has its own address, and keyboard alone goes through the failing tests of the example", async () => {
  // A link to one test: the run opens with that test's detail shown.
  const page = await reportPage("?view=report#test=22");
  await page.click("#try-example");
  await waitForText(page, "[data-testid=detail-question]", "Customers whose 2025 spend grew over 2024.");
  assert.ok(await page.locator("[data-testid=test-detail]").isVisible());
  await page.click("#detail-close");
  await page.locator("[data-testid=test-detail]").waitFor({ state: "detached" });
  assert.equal(new URL(page.url()).hash, "", "closing the test takes it out of the address");

  // From the top of the page with the keyboard only: to "Failed tests", then into the table.
  await page.evaluate(() => document.activeElement?.blur());
  await page.locator("body").focus();
  let reached = false;
  for (let i = 0; i < 40 && !reached; i++) {
    await page.keyboard.press("Tab");
    reached = await page.evaluate(() => document.activeElement?.id === "show-failed");
  }
  assert.ok(reached, "Tab reaches the Failed tests button");
  await page.keyboard.press("Enter");
  await waitForText(page, "[data-testid=table-count]", "9 of 34 tests");
  reached = false;
  for (let i = 0; i < 20 && !reached; i++) {
    await page.keyboard.press("Tab");
    reached = await page.evaluate(() => document.activeElement?.dataset.testid === "table-viewport");
  }
  assert.ok(reached, "Tab reaches the table");
  const seen = [];
  for (let i = 0; i < 9; i++) {
    await page.keyboard.press("Enter");
    const detail = page.locator("[data-testid=test-detail] h2");
    await detail.waitFor();
    seen.push((await detail.textContent()).replace("Test ", ""));
    assert.equal(new URL(page.url()).hash, `#test=${seen.at(-1)}`, "the open test is in the address");
    if (i === 8) {
      await page.screenshot({ path: join(artifacts, "report-keyboard.png"), fullPage: false });
    }
    await page.keyboard.press("Escape");
    await page.locator("[data-testid=test-detail]").waitFor({ state: "detached" });
    await page.keyboard.press("ArrowDown");
  }
  assert.deepEqual(seen, ["9", "14", "15", "17", "21", "22", "27", "28", "29"]);
  // Still on the last row: ArrowDown stops there, and End and Home go to the ends.
  await page.keyboard.press("Home");
  await page.keyboard.press("Enter");
  await waitForText(page, "[data-testid=test-detail] h2", "Test 9");
  await page.keyboard.press("End");
  await page.keyboard.press("Enter");
  await waitForText(page, "[data-testid=test-detail] h2", "Test 29");
  assert.deepEqual(page.errors, []);
  assert.deepEqual(page.violations, []);
});

test("the test table has a question column and reflows at phone width, and a test opens beside the table on wide screens and as a full-screen sheet on narrow ones", async () => {
  const wide = await reportPage();
  await wide.click("#try-example");
  await waitForText(wide, "[data-testid=table-count]", "34 of 34 tests");
  const first = wide.locator("[data-testid=test-row]").first();
  assert.equal(await first.locator(".c-question").textContent(), "How many customers are there?");
  await first.click();
  await wide.locator("[data-testid=test-detail]").waitFor();
  const table = await wide.locator("[data-testid=table-viewport]").boundingBox();
  const detail = await wide.locator("[data-testid=test-detail]").boundingBox();
  assert.ok(detail.x >= table.x + table.width, `the detail (x ${detail.x}) is beside the table (ending at ${table.x + table.width})`);
  assert.ok(detail.y < table.y + table.height, "at the table's height, not below it");
  await wide.screenshot({ path: join(artifacts, "report-detail-beside-1280.png") });

  const narrow = await reportPage("?view=report", { width: 390, height: 844 });
  await narrow.click("#try-example");
  await waitForText(narrow, "[data-testid=table-count]", "34 of 34 tests");
  const row = narrow.locator("[data-testid=test-row]").first();
  const shown = await row.locator("[role=gridcell]").evaluateAll((cells) => cells.filter((c) => c.offsetWidth > 0).map((c) => c.textContent));
  assert.deepEqual(shown, ["1", "How many customers are there?", "1.00", "PASS"]);
  assert.ok(await narrow.evaluate(() => document.documentElement.scrollWidth <= 390), "nothing wider than the phone");
  await narrow.screenshot({ path: join(artifacts, "report-table-390.png") });
  await row.click();
  const sheet = await narrow.locator("[data-testid=test-detail]").boundingBox();
  assert.deepEqual([sheet.x, sheet.y, sheet.width, sheet.height], [0, 0, 390, 844], "the detail fills the screen");
  await narrow.screenshot({ path: join(artifacts, "report-detail-sheet-390.png") });
  await narrow.click("#detail-close");
  await narrow.locator("[data-testid=test-detail]").waitFor({ state: "detached" });
  assert.deepEqual(narrow.errors, []);
  assert.deepEqual(narrow.violations, []);
});

test("a qeval bench records file opens as a run, with pass rates by hardness, difficulty and database", async () => {
  const BENCH = resolve("../../tests/bench");
  const page = await reportPage();
  // Spider: the records `qeval bench spider -o` writes for the fixture (checked byte for byte by
  // the CLI's tests), each with its gold's hardness and its db_id.
  const spider = await readFile(join(BENCH, "spider", "expected", "records.jsonl"), "utf8");
  const records = spider.trim().split("\n").map((line) => JSON.parse(line));
  await page.setInputFiles("#run-files", { name: "evaluation-results.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(spider) });
  const passed = records.filter((r) => r.benchmark.exec === 1).length;
  await waitForText(page, "[data-testid=pass-rate]", `${((100 * passed) / records.length).toFixed(1)}%`);
  const rows = async (field) => (await page.locator(`[data-testid=group-${field}] tbody tr`).allInnerTexts()).map((r) => r.split("\t"));
  const byHardness = await rows("sql_hardness");
  assert.deepEqual(byHardness.map((r) => r[0]), ["easy", "medium", "hard", "extra"]);
  for (const [level, tests, ok] of byHardness) {
    const mine = records.filter((r) => r.sql_hardness === level);
    assert.equal(tests, String(mine.length), `${level} tests`);
    assert.equal(ok, String(mine.filter((r) => r.benchmark.exec === 1).length), `${level} passed`);
  }
  const byDatabase = await rows("db_id");
  assert.deepEqual(byDatabase.map((r) => r[0]).sort(), ["school", "shop", "wide"]);
  await page.locator("[data-testid=group-db_id]").scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(artifacts, "report-bench-spider.png") });

  // BIRD: difficulty and db_id.
  const bird = await readFile(join(BENCH, "bird", "expected", "records.jsonl"), "utf8");
  const birdRecords = bird.trim().split("\n").map((line) => JSON.parse(line));
  await page.setInputFiles("#run-files", { name: "evaluation-results.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(bird) });
  const birdPassed = birdRecords.filter((r) => r.benchmark.ex === 1).length;
  await waitForText(page, "[data-testid=pass-rate]", `${((100 * birdPassed) / birdRecords.length).toFixed(1)}%`);
  const byDifficulty = await rows("difficulty");
  assert.deepEqual(byDifficulty.map((r) => r[0]), ["simple", "moderate", "challenging"]);
  for (const [level, tests] of byDifficulty) {
    assert.equal(tests, String(birdRecords.filter((r) => r.difficulty === level).length), `${level} tests`);
  }
  assert.deepEqual((await rows("db_id")).map((r) => r[0]).sort(), ["library", "sales"]);
  assert.deepEqual(page.errors, []);
});

test("benchmark records written with --strict show the official and strict verdicts side by side, filtered by rule", async () => {
  // BIRD: the records `qeval bench bird --metric ex --metric soft-f1 --strict -o` writes for the
  // fixture (checked byte for byte by the CLI's tests).
  const text = await readFile(resolve("../../tests/bench/bird/expected/strict-records.jsonl"), "utf8");
  const records = text.trim().split("\n").map((line) => JSON.parse(line));
  const page = await reportPage();
  await page.setInputFiles("#run-files", { name: "evaluation-results.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(text) });
  const official = records.filter((r) => r.qas_evaluation.passed).length;
  const strict = records.filter((r) => r.benchmark.strict.passed).length;
  await waitForText(page, "[data-testid=strict-counts]", `Official: ${official} of ${records.length} passed. Strict (the official evaluator's documented errors fixed): ${strict} of ${records.length} passed.`);
  const rows = () => page.locator("[data-testid=strict-changed] tbody tr").allInnerTexts();
  const changed = records.filter((r) => r.benchmark.strict.changed_by.length > 0);
  assert.equal((await rows()).length, changed.length);
  // Only the verdicts the duplicates rule changed.
  await page.selectOption("#strict-rule", "duplicates");
  const duplicates = records.filter((r) => r.benchmark.strict.changed_by.includes("duplicates"));
  assert.ok(duplicates.length > 0 && duplicates.length < changed.length);
  await page.waitForFunction((n) => document.querySelectorAll("[data-testid=strict-changed] tbody tr").length === n, duplicates.length);
  const shown = (await rows()).map((r) => r.split("\t"));
  assert.deepEqual(shown.map((r) => r[0]), duplicates.map((r) => String(r.test_id)));
  for (const row of shown) {
    assert.equal(row[1], "pass", "EX passes the set");
    assert.equal(row[2], "fail", "the multiset does not");
  }
  await page.locator("[data-testid=strict-verdicts]").screenshot({ path: join(artifacts, "report-strict.png") });
  // A test opens from the table.
  await page.locator("[data-testid=strict-changed] tbody tr button").first().click();
  await waitForText(page, "[data-testid=test-detail] h2", `Test ${duplicates[0].test_id}`);
  assert.deepEqual(page.errors, []);
});
