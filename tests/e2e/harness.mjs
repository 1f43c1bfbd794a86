// Shared by the browser tests: a static server over the release build, and a headless Chromium.
import { createServer } from "node:http";
import { readFile, stat, mkdir } from "node:fs/promises";
import { extname, join, normalize, resolve } from "node:path";
import { after, before } from "node:test";
import { chromium } from "playwright-core";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".wasm": "application/wasm",
  ".json": "application/json",
  ".jsonl": "application/x-ndjson",
  ".png": "image/png",
  ".svg": "image/svg+xml",
};

export const dist = resolve(process.env.QEVAL_DIST ?? "../../dist");
export const artifacts = resolve(process.env.QEVAL_ARTIFACTS ?? "artifacts");

/** Serves `dist` on 127.0.0.1 at a free port; resolves to { url, close }. */
export async function serveDist() {
  await stat(join(dist, "index.html")).catch(() => {
    throw new Error(`no build of the page in ${dist}: \`cargo xtask test\` builds one into target/web/test, \`cargo xtask dist\` into dist (QEVAL_DIST names the folder)`);
  });
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    const file = normalize(join(dist, path.endsWith("/") ? `${path}index.html` : path));
    if (!file.startsWith(dist)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404).end("not found");
    }
  });
  await new Promise((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((done) => server.close(done)) };
}

/** Debian's chromium, headless, with the flags this sandbox needs and a fresh profile. */
export async function launchBrowser() {
  await mkdir(artifacts, { recursive: true });
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}

/** For a test file: serves `dist` and launches the browser before its tests, closes both after.
 * The returned object's `server` and `browser` are set once the tests start. */
export function useBrowser() {
  const shared = {};
  before(async () => {
    shared.server = await serveDist();
    shared.browser = await launchBrowser();
  });
  after(async () => {
    await shared.browser?.close();
    await shared.server?.close();
  });
  return shared;
}

/** Builds the playground's database from SQL statements and waits until it is loaded. */
export async function buildDatabase(page, script) {
  await page.locator("#database summary").click();
  await page.fill("#db-script", script);
  await page.click("#db-build");
  await waitForText(page, "[data-testid=database-summary]", "Database: built from SQL (both queries run on it)");
}

/** A page that fails the test on uncaught errors and records every dialog it dismisses. */
export async function openPage(context, url) {
  const page = await context.newPage();
  page.dialogs = [];
  page.errors = [];
  page.on("dialog", (dialog) => {
    page.dialogs.push(dialog.message());
    dialog.dismiss().catch(() => {});
  });
  page.on("pageerror", (error) => page.errors.push(error.message));
  await page.goto(url);
  await page.locator("#generated .cm-content").waitFor();
  return page;
}

/** The text of a query editor ("generated" or "expected"), line by line as the user sees it. */
export async function queryText(page, side) {
  const lines = await page.locator(`#${side} .cm-line`).allInnerTexts();
  return lines.map((line) => line.replace(/\n$/, "")).join("\n");
}

/** Replaces the text of a query editor ("generated" or "expected") as a user pastes: select all
 * with the keyboard, then insert. Waits until the editor holds exactly `text`, so a test never
 * goes on with a half-replaced query (a selection made outside the editor can reach CodeMirror
 * after the insertion on a loaded machine, which leaves the old text in place). */
export async function setQuery(page, side, text) {
  await page.locator(`#${side} .cm-content`).focus();
  await page.keyboard.press("ControlOrMeta+a");
  if (text === "") await page.keyboard.press("Delete");
  else await page.keyboard.insertText(text);
  const { ok, value } = await poll(page, () => queryText(page, side), (held) => held === text, 5_000);
  if (!ok) throw new Error(`the ${side} editor holds ${JSON.stringify(value)}, not ${JSON.stringify(text)}`);
}

/** Waits until the element's text equals `want` (or matches it, for a RegExp); on timeout the
 * error says what the page showed instead. */
export async function waitForText(page, selector, want, timeout = 10_000) {
  const read = () => page.locator(selector).first().textContent({ timeout: 500 }).catch(() => null);
  const matches = (seen) => seen !== null && (want instanceof RegExp ? want.test(seen) : seen.trim() === want);
  const { ok, value } = await poll(page, read, matches, timeout);
  if (ok) return value;
  throw new Error(`${selector}: wanted ${want}, the page showed ${JSON.stringify(value)}`);
}

/** Reads `read()` every 50 ms until `done` accepts it or `timeout` ms pass: `{ ok, value }`, the
 * value last read either way, so a caller's error can say what the page showed. */
export async function poll(page, read, done, timeout = 10_000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await read();
    if (done(value)) return { ok: true, value };
    if (Date.now() >= deadline) return { ok: false, value };
    await page.waitForTimeout(50);
  }
}
