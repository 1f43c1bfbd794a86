// Trunk's post-build hook (Trunk.toml): finishes the page Trunk has built in its staging folder
// ($TRUNK_STAGING_DIR), before Trunk moves it to dist/.
//
// Trunk names the app's files, the style sheets and the editor bundle after their content and
// gives them Subresource Integrity hashes; it leaves a worker's files under the binary's name,
// since a worker is started by a URL the app knows. Here each worker's files are named after
// their content too, so a new release never mixes with cached old files, and a loader is
// written for each, whose name the page gives the app in a `<meta>`. Then the page gets its
// Content Security Policy: it allows exactly the inline scripts by their hashes, the page's own
// files, WebAssembly, and network calls only to what the LLM judge settings offer: the presets'
// hosts, Langfuse and this machine (self-hosted models), plus the hosts listed in
// QEVAL_CONNECT_SRC at build time (space-separated). The app itself calls nothing else; the
// settings panel reads this list and says when an endpoint is outside it.
import { createHash } from "node:crypto";
import { readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The workers' binaries (classic scripts, started with `new Worker`); index.html builds them. */
const WORKERS = ["qeval-scorer", "qeval-worker"];

const sha256hex = (...parts) => {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(part);
  return hash.digest("hex").slice(0, 16);
};

/** Renames a worker's `.js` and `_bg.wasm` after both contents, writes its loader, and gives the
 * `<meta>` that tells the page the loader's name. */
async function placeWorker(dir, binary) {
  const js = await readFile(join(dir, `${binary}.js`));
  const wasm = await readFile(join(dir, `${binary}_bg.wasm`));
  const name = `${binary}-${sha256hex(js, wasm)}`;
  await rename(join(dir, `${binary}.js`), join(dir, `${name}.js`));
  await rename(join(dir, `${binary}_bg.wasm`), join(dir, `${name}_bg.wasm`));
  // A wasm that fails to load rejects a promise, which a worker does not report to its page;
  // thrown again outside the promise it becomes the worker's error event, which the page shows.
  await writeFile(
    join(dir, `${name}_loader.js`),
    `importScripts("./${name}.js");wasm_bindgen({ module_or_path: "./${name}_bg.wasm" }).catch((error) => setTimeout(() => { throw error; }));\n`,
  );
  return `<meta name="${binary}" content="./${name}_loader.js" />`;
}

/** Replaces `tag` (a pattern `what` describes) in the page once, or fails naming what the page
 * lacks. */
function replaceOnce(html, tag, replacement, what) {
  if (!tag.test(html)) throw new Error(`post-build.mjs: the page has no ${what}`);
  return html.replace(tag, replacement);
}

/** Hosts added at build time; each must be an origin (`https://llm.example.com[:port]`). */
function extraSources() {
  const extra = (process.env.QEVAL_CONNECT_SRC ?? "").split(/\s+/).filter(Boolean);
  for (const source of extra) {
    if (!/^https?:\/\/(\*\.)?[A-Za-z0-9.-]+(:(\d+|\*))?$/.test(source)) {
      throw new Error(`post-build.mjs: QEVAL_CONNECT_SRC entry ${JSON.stringify(source)} is not an origin such as https://llm.example.com`);
    }
  }
  return extra;
}

/** Adds the Content Security Policy (and `extraMeta`) right after the charset declaration. */
export function secure(html, extraMeta = "") {
  const hashes = [...html.matchAll(/<script(?: type="module")?>([\s\S]*?)<\/script>/g)].map(
    ([, body]) => `'sha256-${createHash("sha256").update(body, "utf8").digest("base64")}'`,
  );
  if (hashes.length === 0) throw new Error("post-build.mjs: no inline script found in the page");
  const policy = [
    "default-src 'none'",
    `script-src 'self' ${hashes.join(" ")} 'wasm-unsafe-eval'`,
    "style-src 'self'",
    // CodeMirror sets style attributes on its own elements (as the selection changes, say); they
    // carry no record text, so allowing them admits no data. The charts need none.
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data:",
    [
      "connect-src 'self'",
      "https://api.openai.com",
      "https://*.openai.azure.com",
      "https://openrouter.ai",
      "https://api.anthropic.com",
      "https://generativelanguage.googleapis.com",
      "https://cloud.langfuse.com",
      "https://*.cloud.langfuse.com",
      "http://localhost:*",
      "http://127.0.0.1:*",
      ...extraSources(),
    ].join(" "),
    // The workers: the page's own files, started with `new Worker`.
    "worker-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
  const meta = `<meta http-equiv="Content-Security-Policy" content="${policy}" />`;
  // A page without the declaration (or one written differently) must fail the build, not ship
  // without a policy.
  return replaceOnce(
    html,
    /<meta charset="utf-8"\s*\/?>/i,
    (tag) => `${tag}\n    ${meta}${extraMeta ? `\n    ${extraMeta}` : ""}`,
    '<meta charset="utf-8">: the policy has no place to go',
  );
}

async function finish(dir) {
  const page = join(dir, "index.html");
  const html = await readFile(page, "utf8");
  let workers = "";
  for (const worker of WORKERS) workers += await placeWorker(dir, worker);
  await writeFile(page, secure(html, workers));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.env.TRUNK_STAGING_DIR;
  if (!dir) {
    console.error("www/post-build.mjs is Trunk's post-build hook (Trunk.toml): it reads TRUNK_STAGING_DIR");
    process.exit(2);
  }
  await finish(dir);
}
