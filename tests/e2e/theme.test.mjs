// Light and dark in a real headless Chromium: the page follows the system's preference, the
// theme button overrides it and is remembered, and the charts (drawn on canvas) follow too.
// Screenshots of both views in both themes at desktop and phone sizes are kept as artifacts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { artifacts, useBrowser, waitForText } from "./harness.mjs";

const shared = useBrowser();

const LIGHT_BG = "rgb(247, 247, 245)";
const DARK_BG = "rgb(22, 24, 28)";

const background = (page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

/** The color of a chart's top-left corner, where only its background is drawn. */
const chartCorner = (page) =>
  page.locator("#chart-histogram").evaluate((canvas) => Array.from(canvas.getContext("2d").getImageData(2, 2, 1, 1).data.slice(0, 3)));

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
  const [r, g, b] = await chartCorner(page);
  assert.ok(r < 60 && g < 60 && b < 60, `a dark chart, not ${[r, g, b]}`);
  await page.screenshot({ path: join(artifacts, "theme-report-dark-1280.png") });

  await page.click("#theme-toggle");
  await waitForText(page, "#theme-toggle", "Theme: dark");
  await page.click("#theme-toggle");
  await waitForText(page, "#theme-toggle", "Theme: light");
  assert.equal(await background(page), LIGHT_BG, "light, as chosen, on a dark system");
  await page.waitForFunction(() => {
    const pixel = document.querySelector("#chart-histogram").getContext("2d").getImageData(2, 2, 1, 1).data;
    return pixel[0] === 255 && pixel[1] === 255 && pixel[2] === 255;
  });
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
