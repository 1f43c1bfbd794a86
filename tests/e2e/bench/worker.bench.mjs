// Benchmark (not a test): the database worker. With an endless query running in the worker,
// the longest main-thread task while typing for 3 s, and the time from clicking Cancel until the
// page says the query was cancelled (measured in the page), median of 5. Run by
// `cargo xtask bench`.
import { buildDatabase, launchBrowser, openPage, serveDist, setQuery, waitForText } from "../harness.mjs";

const ENDLESS = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c";

const server = await serveDist();
const browser = await launchBrowser();
try {
  const cancels = [];
  let longest = 0;
  for (let run = 0; run < 5; run++) {
    const page = await openPage(await browser.newContext(), server.url);
    await buildDatabase(page, "CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2), (3);");
    await page.fill("#db-time-limit", "120");
    await setQuery(page, "expected", "SELECT x FROM t");
    await setQuery(page, "generated", ENDLESS);
    await waitForText(page, "[data-testid=job-status]", /Running/);
    await page.evaluate(() => {
      window.longest = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) window.longest = Math.max(window.longest, entry.duration);
      }).observe({ type: "longtask" });
    });
    const started = Date.now();
    while (Date.now() - started < 3000) {
      await page.locator("#expected .cm-content").press("End");
      await page.keyboard.type(" ", { delay: 20 });
      await page.keyboard.press("Backspace");
    }
    longest = Math.max(longest, await page.evaluate(() => window.longest));
    cancels.push(
      await page.evaluate(
        () =>
          new Promise((done) => {
            const clicked = performance.now();
            new MutationObserver((_, observer) => {
              if (document.querySelector("[data-testid=job-cancelled]")) {
                observer.disconnect();
                done(performance.now() - clicked);
              }
            }).observe(document.body, { childList: true, subtree: true });
            document.getElementById("cancel-job").click();
          }),
      ),
    );
    await page.context().close();
  }
  cancels.sort((a, b) => a - b);
  console.log(`longest main-thread task while a query runs in the worker (5 runs of 3 s of typing): ${longest.toFixed(0)} ms (none: 0)`);
  console.log(`Cancel to "cancelled" shown (median of 5): ${cancels[2].toFixed(1)} ms (runs: ${cancels.map((t) => t.toFixed(1)).join(", ")})`);
} finally {
  await browser.close();
  await server.close();
}
