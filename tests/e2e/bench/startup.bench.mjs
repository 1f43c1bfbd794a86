// Benchmark (not a test): time from navigation to usable editors on localhost, in a fresh
// headless Chromium context each time (nothing cached), median of 5. "Usable" is the moment the
// generated query's editor is in the page and accepts typing. Also the time to the example's
// first scorecard, which the scoring worker (started with the page) makes. Run by
// `cargo xtask bench`.
import { launchBrowser, serveDist, setQuery } from "../harness.mjs";

const server = await serveDist();
const browser = await launchBrowser();
try {
  const times = [];
  const scored = [];
  for (let run = 0; run < 5; run++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    // Watches the DOM from the first byte: the time, since navigation began, at which the editor
    // appeared.
    // The editor lives in its host's shadow root, which the observer of the document does not
    // see into: it looks for the root, and polls it for the editor once per frame.
    await page.addInitScript(() => {
      const editor = () => document.querySelector("#generated")?.shadowRoot?.querySelector(".cm-content");
      const watch = () => {
        if (editor()) window.qevalEditorsAt = performance.now();
        else requestAnimationFrame(watch);
      };
      requestAnimationFrame(watch);
      new MutationObserver((_, observer) => {
        if (document.querySelector("[data-testid=profile-total]")) {
          window.qevalScoredAt = performance.now();
          observer.disconnect();
        }
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto(server.url);
    await setQuery(page, "generated", "SELECT 1");
    times.push(await page.evaluate(() => window.qevalEditorsAt));
    await page.waitForFunction(() => window.qevalScoredAt !== undefined);
    scored.push(await page.evaluate(() => window.qevalScoredAt));
    await context.close();
  }
  const report = (what, values) => {
    values.sort((a, b) => a - b);
    console.log(
      `${what} (localhost, median of 5): ${values[2].toFixed(0)} ms (runs: ${values.map((t) => t.toFixed(0)).join(", ")})`,
    );
  };
  report("navigation to usable editors", times);
  report("navigation to the first scorecard", scored);
} finally {
  await browser.close();
  await server.close();
}
