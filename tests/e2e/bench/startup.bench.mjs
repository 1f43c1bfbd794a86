// Benchmark (not a test): time from navigation to usable editors on localhost, in a fresh
// headless Chromium context each time (nothing cached), median of 5. "Usable" is the moment the
// generated query's editor is in the page and accepts typing. Run by `cargo xtask bench`.
import { launchBrowser, serveDist } from "../harness.mjs";

const server = await serveDist();
const browser = await launchBrowser();
try {
  const times = [];
  for (let run = 0; run < 5; run++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    // Watches the DOM from the first byte: the time, since navigation began, at which the editor
    // appeared.
    await page.addInitScript(() => {
      new MutationObserver((_, observer) => {
        if (document.querySelector("textarea#generated")) {
          window.qevalEditorsAt = performance.now();
          observer.disconnect();
        }
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto(server.url);
    await page.locator("textarea#generated").fill("SELECT 1");
    times.push(await page.evaluate(() => window.qevalEditorsAt));
    await context.close();
  }
  times.sort((a, b) => a - b);
  console.log(
    `navigation to usable editors (localhost, median of 5): ${times[2].toFixed(0)} ms (runs: ${times.map((t) => t.toFixed(0)).join(", ")})`,
  );
} finally {
  await browser.close();
  await server.close();
}
