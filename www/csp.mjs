// Trunk post-build hook. First it names each worker's files after their content (Trunk names a
// worker's files after its binary, so a new release could mix with a cached old worker) and
// tells the page where each worker's loader is. Then it adds the Content Security Policy to
// the built index.html. Trunk writes
// an inline module script that loads the app; the policy allows exactly that script by its hash,
// the app's own files, WebAssembly, and network calls only to what the LLM judge settings offer:
// the presets' hosts, Langfuse and this machine (self-hosted models), plus the hosts listed in
// QEVAL_CONNECT_SRC at build time (space-separated). The app itself calls nothing else; the
// settings panel reads this list and says when an endpoint is outside it.
import { createHash } from "node:crypto";
import { readFile, rename, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) throw new Error("csp.mjs runs as a Trunk post_build hook (TRUNK_STAGING_DIR is unset)");
const file = join(dir, "index.html");

/** Renames `<binary>.js` and `<binary>_bg.wasm` to names with their content's hash, writes a
 * loader for them, and returns the `<meta>` that tells the page the loader's name. Nothing to
 * do (an empty string) when the build has no such worker. */
async function nameWorker(binary) {
  const js = join(dir, `${binary}.js`);
  const wasm = join(dir, `${binary}_bg.wasm`);
  const exists = await stat(js).then(() => true, () => false);
  if (!exists) return "";
  const hash = createHash("sha256");
  hash.update(await readFile(js));
  hash.update(await readFile(wasm));
  const name = `${binary}-${hash.digest("hex").slice(0, 16)}`;
  await rename(js, join(dir, `${name}.js`));
  await rename(wasm, join(dir, `${name}_bg.wasm`));
  // A wasm that fails to load rejects a promise, which a worker does not report to its page;
  // thrown again outside the promise it becomes the worker's error event, which the page shows.
  await writeFile(
    join(dir, `${name}_loader.js`),
    `importScripts("./${name}.js");wasm_bindgen({ module_or_path: "./${name}_bg.wasm" }).catch((error) => setTimeout(() => { throw error; }));\n`,
  );
  return `<meta name="${binary}" content="./${name}_loader.js" />`;
}

const workerMeta = (await nameWorker("qeval-scorer")) + (await nameWorker("qeval-worker"));
const html = await readFile(file, "utf8");
const hashes = [...html.matchAll(/<script(?: type="module")?>([\s\S]*?)<\/script>/g)].map(
  ([, body]) => `'sha256-${createHash("sha256").update(body, "utf8").digest("base64")}'`,
);
if (hashes.length === 0) throw new Error("no inline script found in index.html");
/** Hosts added at build time; each must be an origin (`https://llm.example.com[:port]`). */
function extraSources() {
  const extra = (process.env.QEVAL_CONNECT_SRC ?? "").split(/\s+/).filter(Boolean);
  for (const source of extra) {
    if (!/^https?:\/\/(\*\.)?[A-Za-z0-9.-]+(:(\d+|\*))?$/.test(source)) {
      throw new Error(`csp.mjs: QEVAL_CONNECT_SRC entry ${JSON.stringify(source)} is not an origin such as https://llm.example.com`);
    }
  }
  return extra;
}

const policy = [
  "default-src 'none'",
  `script-src 'self' ${hashes.join(" ")} 'wasm-unsafe-eval'`,
  "style-src 'self'",
  // plotters measures chart text with a styled <span>; style attributes carry no record text
  // (Yew escapes all of it), so allowing them admits no data.
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
// The policy goes right after the charset declaration; a page without one (or one written
// differently) must fail the build, not ship without a policy.
const charset = /<meta charset="utf-8"\s*\/?>/i;
if (!charset.test(html)) throw new Error(`csp.mjs: no <meta charset="utf-8"> in ${file}: the policy has no place to go`);
const secured = html.replace(charset, (tag) => `${tag}\n    ${meta}${workerMeta ? `\n    ${workerMeta}` : ""}`);
if (!secured.includes("Content-Security-Policy")) throw new Error(`csp.mjs: the policy did not make it into ${file}`);
await writeFile(file, secured);
