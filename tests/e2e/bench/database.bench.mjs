// Benchmark (not a test): the ~50 MB, 1,000,000-row database of `bench_db` loaded into the
// playground of headless Chromium, and the same join + aggregate run in SQLite compiled to wasm.
// Run by `cargo xtask bench` after `cargo run --release -p qeval-sqlite --example bench_db`.
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { launchBrowser, openPage, serveDist, setQuery } from "../harness.mjs";

const FILE = resolve(process.env.QEVAL_BENCH_DB ?? "../../target/bench/orders.sqlite");
const QUERY =
  "SELECT c.country, COUNT(*) AS orders, ROUND(SUM(o.total), 2) AS revenue FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.status <> 'cancelled' GROUP BY c.country ORDER BY revenue DESC";

const size = (await stat(FILE)).size;
const server = await serveDist();
const browser = await launchBrowser();
try {
  const page = await openPage(await browser.newContext(), server.url);
  await page.locator("#database summary").click();
  const started = Date.now();
  await page.setInputFiles("#db-file", FILE);
  await page.waitForFunction(() => document.querySelector("[data-testid=database-summary]")?.textContent.startsWith("Database: orders.sqlite"), null, { timeout: 300_000 });
  const loaded = Date.now() - started;
  const times = [];
  for (let run = 0; run < 5; run++) {
    // A different comment each time, so the page runs the query again.
    await setQuery(page, "expected", `${QUERY} -- ${run}`);
    await setQuery(page, "generated", `${QUERY} -- ${run}`);
    const status = await page.waitForFunction(
      () => document.querySelector("[data-testid=generated-execution-status]")?.textContent.match(/in (\d+) ms/)?.[1],
      null,
      { timeout: 300_000 },
    );
    times.push(Number(await status.jsonValue()));
    await setQuery(page, "generated", "");
    await page.waitForFunction(() => !document.querySelector("[data-testid=generated-execution-status]"));
  }
  times.sort((a, b) => a - b);
  console.log(
    `sqlite in the browser (wasm): open ${(size / 1e6).toFixed(1)} MB in ${loaded} ms (read, copy into SQLite, schema and row counts); ` +
      `join + aggregate over 1,000,000 rows: median ${times[2]} ms (5 runs)`,
  );
} finally {
  await browser.close();
  await server.close();
}
