// The Content Security Policy: the page's assembly puts it into the page or fails the build, and
// the built page carries it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { dist } from "./harness.mjs";
import { secure } from "../../www/post-build.mjs";

function securePage(html) {
  try {
    return { ok: true, html: secure(html) };
  } catch (err) {
    return { ok: false, message: String(err.message) };
  }
}

test("the assembly adds the policy after the charset declaration", async () => {
  const result = securePage('<html><head><meta charset="utf-8" /><script type="module">go()</script></head></html>');
  assert.ok(result.ok);
  assert.match(result.html, /<meta charset="utf-8" \/>\n    <meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'self' 'sha256-/);
});

test("a page without a charset declaration fails the build instead of shipping without a policy", async () => {
  const result = securePage('<html><head><script type="module">go()</script></head></html>');
  assert.equal(result.ok, false);
  assert.match(result.message, /no <meta charset="utf-8">/);
});

test("the built page carries the policy", async () => {
  const html = await readFile(join(dist, "index.html"), "utf8");
  assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src 'none';/);
});

test("network calls are narrowed to the judge presets' hosts, Langfuse and this machine", async () => {
  const html = await readFile(join(dist, "index.html"), "utf8");
  const connect = html.match(/connect-src ([^;"]*)/)[1].split(" ");
  assert.ok(!connect.includes("https:"), `no bare https: in ${connect}`);
  for (const host of ["'self'", "https://api.openai.com", "https://api.anthropic.com", "https://generativelanguage.googleapis.com", "https://cloud.langfuse.com", "http://localhost:*"]) {
    assert.ok(connect.includes(host), `${host} in ${connect}`);
  }
});

test("QEVAL_CONNECT_SRC adds an origin at build time, and anything else fails the build", async () => {
  const page = '<html><head><meta charset="utf-8" /><script type="module">go()</script></head></html>';
  process.env.QEVAL_CONNECT_SRC = "https://llm.example.com:8443";
  try {
    const added = securePage(page);
    assert.ok(added.ok, added.message);
    assert.match(added.html, /connect-src [^;]* https:\/\/llm\.example\.com:8443/);
    process.env.QEVAL_CONNECT_SRC = "https:";
    const refused = securePage(page);
    assert.equal(refused.ok, false);
    assert.match(refused.message, /is not an origin/);
  } finally {
    delete process.env.QEVAL_CONNECT_SRC;
  }
});
