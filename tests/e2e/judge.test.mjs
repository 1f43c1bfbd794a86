// The LLM judge in a real headless Chromium, against qeval-judge-double: a local HTTP server that
// speaks the OpenAI, Anthropic and Gemini wire formats (and Langfuse's), counting the calls it gets.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { artifacts, launchBrowser, openPage, serveDist, setQuery, waitForText } from "./harness.mjs";

const DOUBLE = resolve(process.env.QEVAL_JUDGE_DOUBLE ?? "../../target/debug/qeval-judge-double");

let server;
let browser;
let double;
let judgeUrl;

before(async () => {
  server = await serveDist();
  browser = await launchBrowser();
  double = spawn(DOUBLE, [], { stdio: ["ignore", "pipe", "inherit"] });
  double.on("error", (err) => {
    throw new Error(`cannot start ${DOUBLE} (build it with cargo build -p qeval-judge-double): ${err}`);
  });
  judgeUrl = await new Promise((done) => createInterface({ input: double.stdout }).once("line", done));
});

after(async () => {
  double?.kill();
  await browser?.close();
  await server?.close();
});

async function stats() {
  return (await fetch(`${judgeUrl}/_stats`)).json();
}

async function reset() {
  await fetch(`${judgeUrl}/_reset`, { method: "POST" });
}

/** Where each provider's API lives on the double. */
function baseUrl(preset) {
  return preset === "openai" || preset === "ollama" ? `${judgeUrl}/v1` : judgeUrl;
}

async function freshPage() {
  const context = await browser.newContext({ viewport: { width: 1280, height: 1000 }, acceptDownloads: true });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
  const page = await openPage(context, server.url);
  page.console = [];
  page.on("console", (message) => page.console.push(message.text()));
  return page;
}

async function configure(page, { preset = "openai", url = baseUrl(preset), model = "judge-model", key, timeout }) {
  if (!(await page.locator("#judge-settings").getAttribute("open").then((v) => v !== null))) {
    await page.locator("#judge-settings summary").click();
  }
  await page.selectOption("#judge-preset", preset);
  await page.fill("#judge-url", url);
  await page.fill("#judge-model", model);
  if (key !== undefined) await page.fill("#judge-key", key);
  if (timeout !== undefined) await page.fill("#judge-timeout", String(timeout));
  await page.check("#judge-enabled");
}

async function enterPair(page, generated, expected) {
  await setQuery(page, "generated", generated);
  await setQuery(page, "expected", expected);
}

const GENERATED = "SELECT name FROM users WHERE id = 1";
const EXPECTED = "SELECT name FROM users WHERE id = 2";

test("a verdict written in Markdown is laid out, and its markup stays text", async () => {
  await reset();
  const page = await freshPage();
  await configure(page, { model: "markdown" });
  await enterPair(page, GENERATED, EXPECTED);
  const explanation = page.locator("[data-testid=metric-semantic_similarity-explanation]");
  await explanation.locator("[data-testid=markdown]").waitFor({ timeout: 15_000 });
  assert.equal(await explanation.locator("p strong").textContent(), "differ");
  assert.deepEqual(await explanation.locator("ul > li").allTextContents(), [
    "the filter id = 1 is not id = 2",
    "<img src=x onerror=alert(1)> is text",
  ]);
  assert.deepEqual(await explanation.locator("li code").allTextContents(), ["id = 1", "id = 2"]);
  assert.equal(await explanation.locator("li em").textContent(), "not");
  // A link is its words and its address, never something to click.
  assert.equal(await explanation.locator("a").count(), 0);
  await waitForText(page, "[data-testid=metric-semantic_similarity-explanation] p:last-child", "See the guide (https://example.com).");
  assert.equal(await page.locator("img[src]").count(), 0);
  await page.screenshot({ path: join(artifacts, "judge-markdown.png") });
  assert.deepEqual(page.dialogs, []);
});

for (const [preset, provider] of [["openai", "openai"], ["anthropic", "anthropic"], ["gemini", "gemini"]]) {
  test(`${preset}: a verdict over HTTP, then from the cache after a reload with no second call`, async () => {
    await reset();
    const page = await freshPage();
    await configure(page, { preset, model: `model-${preset}` });
    await enterPair(page, GENERATED, EXPECTED);
    await waitForText(page, "[data-testid=metric-semantic_similarity-judge]", `${provider} · model-${preset}`);
    await waitForText(page, "[data-testid=metric-semantic_similarity-score]", "0.50");
    await waitForText(page, "[data-testid=metric-semantic_similarity-explanation]", "The queries differ.");
    await waitForText(page, "[data-testid=judge-status]", /^LLM judge: 1 verdict \(0 from cache, 1 call, 0 errors\)/);
    // The equivalence check (in the database worker) also counts in the total: wait for it.
    await waitForText(page, "[data-testid=equivalence-badge]", "Different");
    const total = await page.locator("[data-testid=profile-total]").textContent();
    assert.equal((await stats()).requests, 1);

    await page.reload();
    await page.locator("#generated .cm-content").waitFor();
    await waitForText(page, "[data-testid=metric-semantic_similarity-cached]", "from cache");
    await waitForText(page, "[data-testid=metric-semantic_similarity-score]", "0.50");
    await waitForText(page, "[data-testid=judge-status]", /^LLM judge: 1 verdict \(1 from cache, 0 calls, 0 errors\)/);
    await waitForText(page, "[data-testid=equivalence-badge]", "Different");
    await waitForText(page, "[data-testid=cache-stats]", /this page: 1 hits, 0 misses/);
    // The total takes the equivalence check's score a render after its badge shows (a CI run
    // on two busy cores read 0.50, the judge's alone): wait for it, as above.
    await waitForText(page, "[data-testid=profile-total]", total);
    assert.equal((await stats()).requests, 1, "the reload made no second call");
    if (preset === "openai") await page.screenshot({ path: join(artifacts, "judge-cached.png"), fullPage: true });

    // Clearing the cache makes the next judging call again.
    await page.locator("#judge-settings summary").click();
    await page.click("#judge-clear-cache");
    await waitForText(page, "[data-testid=cache-stats]", /^Verdict cache: 0 stored/);
    await enterPair(page, GENERATED, "SELECT name FROM users WHERE id = 3");
    await waitForText(page, "[data-testid=judge-status]", /\(0 from cache, 1 call, 0 errors\)/);
    assert.equal((await stats()).requests, 2);
    assert.deepEqual(page.errors, []);
  });
}

test("identical queries never reach the judge", async () => {
  await reset();
  const page = await freshPage();
  await configure(page, {});
  await enterPair(page, "select name from users", "SELECT  name\nFROM users");
  await waitForText(page, "[data-testid=judge-status]", /not needed: the queries are identical/);
  await waitForText(page, "[data-testid=metric-semantic_similarity-score]", "1.00");
  assert.equal((await stats()).requests, 0);
});

const FAULTS = [
  ["fault-500", /LLM judge HTTP 500/],
  ["fault-malformed", /LLM judge reply malformed/],
  ["fault-truncated", /LLM judge reply truncated/],
  ["fault-refusal", /LLM judge refused/],
  ["fault-range", /LLM judge verdict invalid: .*outside 0\.\.1/],
  ["fault-timeout", /LLM judge timeout \(no reply within 2 s\)/],
];

test("each fault is named in a banner, the structural score stands in, and the export says so", async () => {
  const page = await freshPage();
  await configure(page, { timeout: 2 });
  await enterPair(page, GENERATED, EXPECTED);
  for (const [model, error] of FAULTS) {
    await page.fill("#judge-model", model);
    await waitForText(page, "[data-testid=judge-failure]", error, 20_000);
    // The banner names the endpoint, and the metric is not silently 0.00.
    assert.match(await page.locator("[data-testid=judge-failure]").textContent(), new RegExp(`The LLM judge at ${judgeUrl}/v1 failed`));
    await waitForText(page, "[data-testid=metric-semantic_similarity-score]", "0.75");
    await waitForText(page, "[data-testid=metric-semantic_similarity-explanation]", /^LLM judge failed .*the structural judge's score stands/);
    await waitForText(page, "[data-testid=judge-status]", /1 error\)/);
    await waitForText(page, "[data-testid=metric-table_accuracy-score]", "1.00");
    await waitForText(page, "[data-testid=metric-exact_match-score]", "0.00");
    assert.match(await page.locator("[data-testid=profile-total]").textContent(), /^\d\.\d\d$/);
  }
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#download-scorecard")]);
  const exported = JSON.parse(await readFile(await download.path(), "utf8"));
  assert.equal(exported.scorecard.diagnostics[0].source, "llm_judge", "the download carries the failure");
  assert.match(exported.scorecard.diagnostics[0].message, /structural judge's score is used/);
  assert.equal(exported.options.judge.kind, "llm", "and says which judge was asked");
  assert.equal(exported.options.judge.endpoint, `${judgeUrl}/v1`);
  await page.screenshot({ path: join(artifacts, "judge-fault.png"), fullPage: true });

  // A 429 is retried after its Retry-After, and then the verdict counts.
  await reset();
  await page.fill("#judge-model", "fault-429");
  await waitForText(page, "[data-testid=metric-semantic_similarity-score]", "0.50", 20_000);
  await waitForText(page, "[data-testid=judge-status]", /\(0 from cache, 2 calls, 0 errors\)/);
  assert.equal(await page.locator("[data-testid=judge-failure]").count(), 0, "no banner once the judge answers");
  assert.equal((await stats()).requests, 2);
  assert.deepEqual(page.errors, []);
});

test("a redirect is not followed, so the key goes to no other host", async () => {
  const thief = spawn(DOUBLE, [], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    const thiefUrl = await new Promise((done) => createInterface({ input: thief.stdout }).once("line", done));
    const port = new URL(thiefUrl).port;
    const page = await freshPage();
    await configure(page, { preset: "anthropic", model: `redirect-${port}`, key: "sk-must-stay-home" });
    await enterPair(page, GENERATED, EXPECTED);
    await waitForText(page, "[data-testid=judge-failure]", /redirect, which is not followed/, 20_000);
    await waitForText(page, "[data-testid=metric-semantic_similarity-score]", "0.75");
    const stolen = await (await fetch(`${thiefUrl}/_stats`)).json();
    assert.equal(stolen.requests, 0, "nothing reached the other host");
    assert.deepEqual(stolen.keys, []);
  } finally {
    thief.kill();
  }
});

test("an endpoint outside the page's security policy is named before any call", async () => {
  const page = await freshPage();
  await configure(page, { url: "https://judge.example.net/v1" });
  await enterPair(page, GENERATED, EXPECTED);
  await waitForText(page, "[data-testid=judge-status]", /LLM judge not asked: This page's security policy does not allow requests to https:\/\/judge\.example\.net/);
  assert.match(await page.locator("[data-testid=judge-status]").textContent(), /QEVAL_CONNECT_SRC/);
  assert.ok(page.console.every((line) => !line.includes("Content Security Policy")), `nothing was attempted: ${page.console.filter((line) => line.includes("Content Security Policy"))}`);
});

test("Test connection reports a working judge, and an unreachable one in words a user can act on", async () => {
  const page = await freshPage();
  await configure(page, { model: "judge-model" });
  await page.click("#judge-test");
  await waitForText(page, "[data-testid=judge-test-result]", /^Connected: judge-model answered with a valid verdict/);

  await configure(page, { preset: "ollama", url: "http://127.0.0.1:9/v1" });
  await page.click("#judge-test");
  const said = await waitForText(page, "[data-testid=judge-test-result]", /could not reach 127\.0\.0\.1:9/);
  assert.match(said, /OLLAMA_ORIGINS=http:\/\/127\.0\.0\.1:\d+ ollama serve/);
});

test("the API key goes to the judge and nowhere else: not the URL, storage, cache, export or console", async () => {
  await reset();
  const key = `sk-e2e-${Math.random().toString(36).slice(2)}`;
  const page = await freshPage();
  await configure(page, { key });
  await enterPair(page, GENERATED, EXPECTED);
  await waitForText(page, "[data-testid=metric-semantic_similarity-score]", "0.50");
  assert.deepEqual((await stats()).keys, [key], "the judge received the key");

  const storage = () => page.evaluate(() => JSON.stringify(Object.entries(localStorage)));
  const indexedDb = () =>
    page.evaluate(
      () =>
        new Promise((done, fail) => {
          const open = indexedDB.open("qeval-judge");
          open.onerror = () => fail(open.error);
          open.onsuccess = () => {
            const all = open.result.transaction("verdicts").objectStore("verdicts").getAll();
            all.onsuccess = () => done(JSON.stringify(all.result));
          };
        }),
    );
  assert.ok(!page.url().includes(key), "URL");
  assert.ok((await storage()).includes("qeval.judge.settings"));
  assert.ok(!(await storage()).includes(key), "localStorage");
  const cached = await indexedDb();
  assert.ok(cached.includes("The queries differ."), "the cache holds the verdict");
  assert.ok(!cached.includes(key), "IndexedDB");

  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#download-scorecard")]);
  const exported = await readFile(await download.path(), "utf8");
  assert.equal(JSON.parse(exported).scorecard.metrics.semantic_similarity.score, 0.5);
  assert.ok(!exported.includes(key), "exported scorecard");

  await page.getByRole("button", { name: "Copy link" }).click();
  await waitForText(page, "[data-testid=copy-status]", "Link copied");
  assert.ok(!(await page.evaluate(() => navigator.clipboard.readText())).includes(key), "shared link");
  assert.ok(page.console.every((line) => !line.includes(key)), "console");

  // Remembered on request, and forgotten again when unticked.
  await page.check("#judge-remember");
  await page.waitForFunction((k) => JSON.stringify(Object.entries(localStorage)).includes(k), key);
  await page.reload();
  await page.locator("#generated .cm-content").waitFor();
  assert.equal(await page.inputValue("#judge-key"), key);
  await page.locator("#judge-settings summary").click();
  await page.uncheck("#judge-remember");
  await page.waitForFunction((k) => !JSON.stringify(Object.entries(localStorage)).includes(k), key);
  await page.reload();
  await page.locator("#generated .cm-content").waitFor();
  assert.equal(await page.inputValue("#judge-key"), "");
  assert.ok(page.console.every((line) => !line.includes(key)), "console");
});

test("scores go to Langfuse with the public key only", async () => {
  await reset();
  const page = await freshPage();
  await configure(page, {});
  await page.fill("#langfuse-host", judgeUrl);
  await page.fill("#langfuse-public-key", "pk-lf-e2e");
  await enterPair(page, GENERATED, EXPECTED);
  await waitForText(page, "[data-testid=metric-semantic_similarity-score]", "0.50");
  await page.fill("#langfuse-trace", "trace-e2e-1");
  await page.click("#langfuse-send");
  await waitForText(page, "[data-testid=langfuse-status]", /^Sent \d+ scores to trace trace-e2e-1\.$/);
  const scores = await (await fetch(`${judgeUrl}/_langfuse`)).json();
  const semantic = scores.find((s) => s.name === "semantic_similarity");
  assert.equal(semantic.traceId, "trace-e2e-1");
  assert.equal(semantic.value, 0.5);
  assert.equal(semantic.comment, "The queries differ.");
  assert.ok(scores.some((s) => s.name === "qas_total"));
  const auth = await (await fetch(`${judgeUrl}/_langfuse_auth`)).json();
  assert.deepEqual(auth, [`Basic ${Buffer.from("pk-lf-e2e:").toString("base64")}`]);
});

test("a shared link or a reload never calls the judge before the user acts", async () => {
  await reset();
  const page = await freshPage();
  await configure(page, {});
  await enterPair(page, GENERATED, EXPECTED);
  await waitForText(page, "[data-testid=judge-status]", /\(0 from cache, 1 call, 0 errors\)/);
  // A link to a pair the judge has never seen, made with the judge off.
  await page.uncheck("#judge-enabled");
  await enterPair(page, GENERATED, "SELECT name FROM users WHERE id = 42");
  await page.getByRole("button", { name: "Copy link" }).click();
  await waitForText(page, "[data-testid=copy-status]", "Link copied");
  const link = await page.evaluate(() => navigator.clipboard.readText());
  await page.check("#judge-enabled");
  await page.close();
  const before = (await stats()).requests;
  // Opened in the same browser, where the judge setting is on: nothing is sent.
  const other = await page.context().newPage();
  await other.goto(link);
  await waitForText(other, "[data-testid=judge-status]", /^LLM judge not asked yet/);
  await other.waitForTimeout(1500);
  assert.equal((await stats()).requests, before, "opening the link made no call");
  await other.reload();
  await waitForText(other, "[data-testid=judge-status]", /^LLM judge not asked yet/);
  assert.equal((await stats()).requests, before, "nor did a reload");
  await other.click("#judge-ask");
  await waitForText(other, "[data-testid=judge-status]", /\(0 from cache, 1 call, 0 errors\)/);
  assert.equal((await stats()).requests, before + 1);
});
