// Accessibility in a real headless Chromium: axe-core (from npm) checks the playground and the
// report (a test's detail open) in light and dark, at desktop and phone sizes. No serious or
// critical violation is allowed; the moderate ones found are printed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { useBrowser, waitForText } from "./harness.mjs";

const require = createRequire(import.meta.url);
const AXE = require.resolve("axe-core/axe.min.js");

const shared = useBrowser();

/** axe-core's violations on the page as it is now. */
async function violations(page) {
  await page.addScriptTag({ path: AXE });
  const result = await page.evaluate(() => globalThis.axe.run(document, { resultTypes: ["violations"] }));
  return result.violations;
}

function serious(found, where) {
  for (const v of found.filter((v) => !["serious", "critical"].includes(v.impact))) {
    console.log(`${where}: ${v.impact} ${v.id} (${v.nodes.length})`);
  }
  return found
    .filter((v) => ["serious", "critical"].includes(v.impact))
    .map((v) => `${where}: ${v.impact} ${v.id}: ${v.nodes.map((n) => `${n.target.join(" ")} ${n.failureSummary}`).join("; ")}`);
}

test("the playground and the report have no serious or critical accessibility violations, light and dark, wide and narrow", async () => {
  const problems = [];
  for (const colorScheme of ["light", "dark"]) {
    for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
      // axe is added as a script the page's own policy would refuse; the policy has its own test.
      const context = await shared.browser.newContext({ viewport, colorScheme, bypassCSP: true });
      const page = await context.newPage();
      const where = `${colorScheme} ${viewport.width}px`;
      await page.goto(shared.server.url);
      await page.locator("#generated .cm-content").waitFor();
      await page.locator("[data-testid=metric-table_accuracy-score]").waitFor();
      problems.push(...serious(await violations(page), `playground ${where}`));
      await page.click("#tab-report");
      await page.click("#try-example");
      await waitForText(page, "[data-testid=pass-rate]", "73.5%");
      await page.locator("[data-testid=test-row]").first().click();
      await page.locator("[data-testid=test-detail]").waitFor();
      problems.push(...serious(await violations(page), `report ${where}`));
      await context.close();
    }
  }
  assert.deepEqual(problems, []);
});
