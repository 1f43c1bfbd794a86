// Light and dark in a real headless Chromium: the page follows the system's preference, the
// theme button overrides it and is remembered, and the charts (SVG, colored by the style sheet)
// follow too.
// Screenshots of both views in both themes at desktop and phone sizes are kept as artifacts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { artifacts, useBrowser, waitForText } from "./harness.mjs";

const shared = useBrowser();

const LIGHT_BG = "rgb(247, 247, 245)";
const DARK_BG = "rgb(22, 24, 28)";

const background = (page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

/** A chart's background and the color of its first bar, as the page shows them. */
const chartColors = (page) =>
  page.locator("#chart-histogram").evaluate((figure) => [
    getComputedStyle(figure).backgroundColor,
    getComputedStyle(figure.querySelector("rect")).fill,
  ]);

async function exampleReport(context) {
  const page = await context.newPage();
  page.errors = [];
  page.on("pageerror", (e) => page.errors.push(e.message));
  await page.goto(`${shared.server.url}?view=report`);
  await page.click("#try-example");
  await waitForText(page, "[data-testid=pass-rate]", "73.5%");
  return page;
}

test("the page follows a dark system, the theme button overrides it and is remembered, and the charts follow", async () => {
  const context = await shared.browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: "dark" });
  const page = await exampleReport(context);
  assert.equal(await background(page), DARK_BG, "dark, as the system prefers");
  await waitForText(page, "#theme-toggle", "Theme: auto");
  assert.deepEqual(await chartColors(page), ["rgb(31, 34, 39)", "rgb(122, 162, 255)"], "a dark chart");
  await page.screenshot({ path: join(artifacts, "theme-report-dark-1280.png") });

  await page.click("#theme-toggle");
  await waitForText(page, "#theme-toggle", "Theme: dark");
  await page.click("#theme-toggle");
  await waitForText(page, "#theme-toggle", "Theme: light");
  assert.equal(await background(page), LIGHT_BG, "light, as chosen, on a dark system");
  assert.deepEqual(await chartColors(page), ["rgb(255, 255, 255)", "rgb(36, 86, 216)"], "a light chart");
  await page.screenshot({ path: join(artifacts, "theme-report-light-1280.png") });

  await page.reload();
  await waitForText(page, "#theme-toggle", "Theme: light");
  assert.equal(await background(page), LIGHT_BG, "the choice survives a reload");
  await page.click("#theme-toggle");
  await waitForText(page, "#theme-toggle", "Theme: auto");
  assert.equal(await background(page), DARK_BG, "auto follows the system again");
  assert.deepEqual(page.errors, []);
  await context.close();
});

test("both views at desktop and phone sizes, light and dark", async () => {
  for (const colorScheme of ["light", "dark"]) {
    for (const [size, viewport] of [["1280", { width: 1280, height: 800 }], ["390", { width: 390, height: 844 }]]) {
      const context = await shared.browser.newContext({ viewport, colorScheme });
      const page = await exampleReport(context);
      assert.equal(await background(page), colorScheme === "dark" ? DARK_BG : LIGHT_BG);
      await page.screenshot({ path: join(artifacts, `theme-report-${colorScheme}-${size}.png`), fullPage: true });
      await page.click("#tab-playground");
      await page.locator("#generated .cm-content").waitFor();
      await page.screenshot({ path: join(artifacts, `theme-playground-${colorScheme}-${size}.png`), fullPage: true });
      assert.deepEqual(page.errors, []);
      await context.close();
    }
  }
});
