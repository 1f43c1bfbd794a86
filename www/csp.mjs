// Trunk post-build hook: adds the Content Security Policy to the built index.html. Trunk writes
// an inline module script that loads the app; the policy allows exactly that script by its hash,
// the app's own files, WebAssembly, and network calls only over HTTPS or to this machine (the LLM
// judge the user configures and a `?run=` URL; the app itself calls nothing else).
import { createHash } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) throw new Error("csp.mjs runs as a Trunk post_build hook (TRUNK_STAGING_DIR is unset)");
const file = join(dir, "index.html");
const html = await readFile(file, "utf8");
const hashes = [...html.matchAll(/<script(?: type="module")?>([\s\S]*?)<\/script>/g)].map(
  ([, body]) => `'sha256-${createHash("sha256").update(body, "utf8").digest("base64")}'`,
);
if (hashes.length === 0) throw new Error("no inline script found in index.html");
const policy = [
  "default-src 'none'",
  `script-src 'self' ${hashes.join(" ")} 'wasm-unsafe-eval'`,
  "style-src 'self'",
  // plotters measures chart text with a styled <span>; style attributes carry no record text
  // (Yew escapes all of it), so allowing them admits no data.
  "style-src-attr 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self' https: http://localhost:* http://127.0.0.1:*",
  "base-uri 'none'",
  "form-action 'none'",
].join("; ");
const meta = `<meta http-equiv="Content-Security-Policy" content="${policy}" />`;
// The policy goes right after the charset declaration; a page without one (or one written
// differently) must fail the build, not ship without a policy.
const charset = /<meta charset="utf-8"\s*\/?>/i;
if (!charset.test(html)) throw new Error(`csp.mjs: no <meta charset="utf-8"> in ${file}: the policy has no place to go`);
const secured = html.replace(charset, (tag) => `${tag}\n    ${meta}`);
if (!secured.includes("Content-Security-Policy")) throw new Error(`csp.mjs: the policy did not make it into ${file}`);
await writeFile(file, secured);
