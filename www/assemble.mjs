// Assembles the page: `node www/assemble.mjs <bindings> <out>`. `cargo xtask` runs it after it has
// built the three wasm binaries and bound them with wasm-bindgen into <bindings> (the app as an ES
// module, the two workers as classic scripts).
//
// Every file the page loads is named after its content, so a new release never mixes with cached
// old files, and the page's own scripts and styles carry Subresource Integrity hashes. The page
// itself gets its Content Security Policy: it allows exactly the inline scripts by their hashes,
// the page's own files, WebAssembly, and network calls only to what the LLM judge settings offer:
// the presets' hosts, Langfuse and this machine (self-hosted models), plus the hosts listed in
// QEVAL_CONNECT_SRC at build time (space-separated). The app itself calls nothing else; the
// settings panel reads this list and says when an endpoint is outside it.
//
// The page is written to a staging folder beside <out> and swapped in whole, so a failed build
// leaves the last good page in place and a server never sees half of one.
import { createHash } from "node:crypto";
import { cp, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const www = dirname(fileURLToPath(import.meta.url));
const root = resolve(www, "..");

/** The app's binary (an ES module) and the workers' (classic scripts, started with `new Worker`). */
const APP = "qeval-web";
const WORKERS = ["qeval-scorer", "qeval-worker"];

const sha256hex = (...parts) => {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(part);
  return hash.digest("hex").slice(0, 16);
};
const integrity = (bytes) => `sha384-${createHash("sha384").update(bytes).digest("base64")}`;

/** Copies `source` (with `appended` after it) into `dir` as `<stem>-<hash><extension>` and gives
 * the new name. */
async function placeHashed(source, dir, appended = []) {
  const bytes = Buffer.concat(await Promise.all([source, ...appended].map((path) => readFile(path))));
  const name = basename(source).replace(/(\.[a-z]+)$/, `-${sha256hex(bytes)}$1`);
  await writeFile(join(dir, name), bytes);
  return { name, integrity: integrity(bytes) };
}

/** Copies a binary's `.js` and `_bg.wasm` under one name made from both contents. */
async function placeBinary(bindings, binary, dir) {
  const js = await readFile(join(bindings, `${binary}.js`));
  const wasm = await readFile(join(bindings, `${binary}_bg.wasm`));
  const name = `${binary}-${sha256hex(js, wasm)}`;
  await writeFile(join(dir, `${name}.js`), js);
  await writeFile(join(dir, `${name}_bg.wasm`), wasm);
  return { name, js: integrity(js), wasm: integrity(wasm) };
}

/** A worker's files and its loader; gives the `<meta>` that tells the page the loader's name. */
async function placeWorker(bindings, binary, dir) {
  const { name } = await placeBinary(bindings, binary, dir);
  // A wasm that fails to load rejects a promise, which a worker does not report to its page;
  // thrown again outside the promise it becomes the worker's error event, which the page shows.
  await writeFile(
    join(dir, `${name}_loader.js`),
    `importScripts("./${name}.js");wasm_bindgen({ module_or_path: "./${name}_bg.wasm" }).catch((error) => setTimeout(() => { throw error; }));\n`,
  );
  return `<meta name="${binary}" content="./${name}_loader.js" />`;
}

/** The inline module that starts the app, and the preloads that fetch its files early. */
function appLoader(app) {
  return [
    `<link rel="modulepreload" href="./${app.name}.js" crossorigin="anonymous" integrity="${app.js}" />`,
    `<link rel="preload" href="./${app.name}_bg.wasm" crossorigin="anonymous" integrity="${app.wasm}" as="fetch" type="application/wasm" />`,
    `<script type="module">import init from "./${app.name}.js";await init({ module_or_path: "./${app.name}_bg.wasm" });dispatchEvent(new CustomEvent("qeval-started"));</script>`,
  ].join("\n    ");
}

/** Replaces `tag` (the text of an element, or a pattern `what` describes) in index.html, or
 * fails naming what the page lacks. The replacement is taken as it is, `$` included. */
function replaceOnce(html, tag, replacement, what = tag) {
  const found = typeof tag === "string" ? html.includes(tag) : tag.test(html);
  if (!found) throw new Error(`assemble.mjs: www/index.html has no ${what}`);
  return html.replace(tag, typeof replacement === "function" ? replacement : () => replacement);
}

/** Hosts added at build time; each must be an origin (`https://llm.example.com[:port]`). */
function extraSources() {
  const extra = (process.env.QEVAL_CONNECT_SRC ?? "").split(/\s+/).filter(Boolean);
  for (const source of extra) {
    if (!/^https?:\/\/(\*\.)?[A-Za-z0-9.-]+(:(\d+|\*))?$/.test(source)) {
      throw new Error(`assemble.mjs: QEVAL_CONNECT_SRC entry ${JSON.stringify(source)} is not an origin such as https://llm.example.com`);
    }
  }
  return extra;
}

/** Adds the Content Security Policy (and `extraMeta`) right after the charset declaration. */
export function secure(html, extraMeta = "") {
  const hashes = [...html.matchAll(/<script(?: type="module")?>([\s\S]*?)<\/script>/g)].map(
    ([, body]) => `'sha256-${createHash("sha256").update(body, "utf8").digest("base64")}'`,
  );
  if (hashes.length === 0) throw new Error("assemble.mjs: no inline script found in index.html");
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

async function assemble(bindings, out) {
  const staging = `${out}.staging`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  let html = await readFile(join(www, "index.html"), "utf8");

  // The charts' rules are the exported report's too: one file, at the end of both sheets.
  const styles = await placeHashed(join(www, "styles.css"), staging, [join(root, "crates", "report", "src", "charts.css")]);
  html = replaceOnce(
    html,
    '<link rel="stylesheet" href="styles.css" />',
    `<link rel="stylesheet" href="./${styles.name}" integrity="${styles.integrity}" />`,
  );
  const editor = await placeHashed(join(root, "target", "editor", "qeval-editor.js"), staging);
  html = replaceOnce(
    html,
    '<script src="qeval-editor.js"></script>',
    `<script src="./${editor.name}" integrity="${editor.integrity}"></script>`,
  );
  const app = await placeBinary(bindings, APP, staging);
  html = replaceOnce(html, '<script type="module" id="app"></script>', appLoader(app));
  let workers = "";
  for (const worker of WORKERS) workers += await placeWorker(bindings, worker, staging);
  await cp(join(root, "static", "example-run"), join(staging, "example-run"), { recursive: true });
  await writeFile(join(staging, "index.html"), secure(html, workers));

  await rm(out, { recursive: true, force: true });
  await rename(staging, out);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [bindings, out] = process.argv.slice(2);
  if (!bindings || !out) {
    console.error("usage: node www/assemble.mjs <folder with the wasm-bindgen output> <output folder>");
    process.exit(2);
  }
  await assemble(resolve(bindings), resolve(out));
}
