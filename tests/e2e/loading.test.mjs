// The page before the app runs: a loading screen from the first paint, and a clear error with a
// retry (never a blank page) when the app cannot start.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { artifacts, dist, useBrowser } from "./harness.mjs";

const shared = useBrowser();

test("on a throttled network the loading screen is the first thing painted, and the app replaces it", async () => {
  const context = await shared.browser.newContext();
  const page = await context.newPage();
  await page.addInitScript(() => {
    addEventListener("qeval-started", () => {
      window.qevalStartedAt = performance.now();
    });
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  // About 1.6 Mbit/s with 150 ms of latency: the app's files take seconds to arrive.
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 150,
    downloadThroughput: 200_000,
    uploadThroughput: 100_000,
  });
  await page.goto(shared.server.url, { waitUntil: "commit" });
  await page.locator("#boot").waitFor({ state: "visible" });
  await page.waitForFunction(() => performance.getEntriesByName("first-contentful-paint").length > 0);
  await page.screenshot({ path: join(artifacts, "loading-throttled.png") });
  assert.equal((await page.locator("#boot-message").textContent()).trim(), "Loading the scorer…");
  assert.equal(await page.locator("#generated .cm-content").count(), 0, "the app has not started yet");
  const painted = await page.evaluate(() => performance.getEntriesByName("first-contentful-paint")[0].startTime);
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await page.locator("#generated .cm-content").waitFor({ timeout: 60_000 });
  const started = await page.evaluate(() => window.qevalStartedAt);
  assert.ok(painted < started, `first paint at ${painted} ms, before the app started at ${started} ms`);
  assert.equal(await page.locator("#boot").count(), 0, "the loading screen is gone once the app runs");
  await context.close();
});

test("when the wasm does not load the page says so and offers a retry that works", async () => {
  const context = await shared.browser.newContext();
  const page = await context.newPage();
  const broken = (route) => route.fulfill({ status: 404, body: "not found" });
  await page.route("**/*_bg.wasm", broken);
  await page.goto(shared.server.url);
  await page.locator("#boot.failed").waitFor({ timeout: 15_000 });
  const message = await page.locator("#boot-message").textContent();
  assert.match(message, /could not start/);
  assert.match(message, /retry/i);
  assert.ok(await page.locator("#boot-retry").isVisible(), "a Retry button");
  assert.equal(await page.getAttribute("#boot", "role"), "alert");
  await page.screenshot({ path: join(artifacts, "loading-failed.png") });
  await page.unroute("**/*_bg.wasm", broken);
  await page.locator("#boot-retry").click();
  await page.locator("#generated .cm-content").waitFor({ timeout: 30_000 });
  await context.close();
});

test("a browser without WebAssembly is told so instead of seeing a blank page", async () => {
  const context = await shared.browser.newContext();
  const page = await context.newPage();
  await page.addInitScript(() => {
    delete globalThis.WebAssembly;
  });
  await page.goto(shared.server.url);
  await page.locator("#boot.failed").waitFor({ timeout: 15_000 });
  assert.match(await page.locator("#boot-message").textContent(), /cannot run WebAssembly/);
  await context.close();
});

test("the app's script, wasm and style sheet carry a content hash in their names", async () => {
  const files = await readdir(dist);
  for (const ending of [".js", "_bg.wasm", ".css"]) {
    const named = files.filter((file) => file.endsWith(ending) && !file.endsWith("_loader.js"));
    assert.ok(named.length > 0, `a ${ending} file in dist`);
    for (const file of named) {
      assert.match(file, /-[0-9a-f]{8,16}(_bg)?\.(js|wasm|css)$/, `${file} has a content hash`);
      assert.ok((await stat(join(dist, file))).size > 0);
    }
  }
  // Each worker's loader (scoring, database), named by the build hook after the worker's content,
  // and named to the page in a <meta>.
  const html = await readFile(join(dist, "index.html"), "utf8");
  for (const worker of ["qeval-scorer", "qeval-worker"]) {
    const loaders = files.filter((file) => new RegExp(`^${worker}-[0-9a-f]{16}_loader\\.js$`).test(file));
    assert.equal(loaders.length, 1, `one ${worker} loader in ${files}`);
    assert.match(html, new RegExp(`<meta name="${worker}" content="\\./${loaders[0].replaceAll(".", "\\.")}" />`));
  }
  // Every file the page links to is there, and carries an integrity hash that matches it.
  const linked = [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="\.\/([^"]+)"[^>]*>/g)];
  assert.ok(linked.length >= 4, `the style sheet, editor, app script and app wasm are linked: ${linked.map(([tag]) => tag)}`);
  for (const [tag, file] of linked) {
    assert.ok(files.includes(file), `${file}, linked from index.html, is in dist`);
    const hash = tag.match(/integrity="sha384-([^"]+)"/);
    assert.ok(hash, `${tag} carries an integrity hash`);
    const digest = createHash("sha384").update(await readFile(join(dist, file))).digest("base64");
    assert.equal(hash[1], digest, `the integrity hash of ${file} matches its content`);
  }
});
