// Benchmark (not a test): loading large runs in the report view of a real headless Chromium.
// For 10,000 and 100,000 records: time from handing the file to the page until the summary and
// charts are shown, and the longest the page went without running a timer (how frozen it felt).
// Run by `cargo xtask bench`; prints one line per size.
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { launchBrowser, serveDist } from "../harness.mjs";

const RUN = resolve("../../static/example-run/run-2026-11-20T14-30-00/evaluation-results.jsonl");

const base = (await readFile(RUN, "utf8")).trim().split("\n").map((l) => JSON.parse(l));

function records(n) {
  const lines = [];
  for (let i = 0; i < n; i++) {
    const r = structuredClone(base[i % base.length]);
    r.test_id = i + 1;
    lines.push(JSON.stringify(r));
  }
  return Buffer.from(lines.join("\n") + "\n");
}

const server = await serveDist();
const browser = await launchBrowser();
try {
  for (const n of [10_000, 100_000]) {
    const buffer = records(n);
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 1000 } })).newPage();
    await page.goto(`${server.url}?view=report`);
    await page.locator("#run-files").waitFor({ state: "attached" });
    // A timer every 10 ms; the longest gap between two runs is how long the page was frozen.
    await page.evaluate(() => {
      window.gap = 0;
      let last = performance.now();
      setInterval(() => {
        const now = performance.now();
        window.gap = Math.max(window.gap, now - last);
        last = now;
      }, 10);
    });
    // Through a real file: Playwright passes no more than 50 MB from memory.
    const file = join(await mkdtemp(join(tmpdir(), "qeval-bench-")), "evaluation-results.jsonl");
    await writeFile(file, buffer);
    const started = Date.now();
    await page.setInputFiles("#run-files", file);
    await page.waitForFunction((n) => document.querySelector("[data-testid=tests]")?.textContent === String(n), n, { timeout: 300_000 });
    await page.waitForFunction(() => document.querySelector("#chart-agent")?.width > 300);
    const shown = Date.now() - started;
    // Scrolling the table to the end must stay quick too.
    const scrollStarted = Date.now();
    await page.locator("[data-testid=table-viewport]").evaluate((v) => (v.scrollTop = v.scrollHeight));
    await page.waitForFunction((n) => [...document.querySelectorAll("[data-testid=test-row] span:first-child")].some((s) => s.textContent === String(n)), n);
    const scrolled = Date.now() - scrollStarted;
    const gap = await page.evaluate(() => window.gap);
    console.log(
      `report: ${n.toLocaleString("en")} records (${(buffer.length / 1e6).toFixed(1)} MB): summary and charts shown ${shown} ms after the file was given; ` +
        `longest frozen stretch ${gap.toFixed(0)} ms; scrolled to the last row in ${scrolled} ms`,
    );
    await page.context().close();
  }
} finally {
  await browser.close();
  await server.close();
}
