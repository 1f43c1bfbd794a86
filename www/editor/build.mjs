// Bundles the query editors (src/main.js and CodeMirror) into one script for the page:
// target/editor/qeval-editor.js, which www/index.html names. Trunk runs it before each build
// (Trunk.toml's pre-build hook); its packages come from this folder's package-lock.json, which
// `cargo xtask setup` installs, and this script too when they are missing (a plain `trunk serve`).
import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
let esbuild;
try {
  esbuild = await import("esbuild");
} catch {
  console.error("www/editor/build.mjs: installing CodeMirror and esbuild from www/editor/package-lock.json (npm ci)");
  execFileSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: here, stdio: "inherit" });
  esbuild = await import("esbuild");
}
await esbuild.build({
  entryPoints: [join(here, "src", "main.js")],
  outfile: join(here, "..", "..", "target", "editor", "qeval-editor.js"),
  bundle: true,
  minify: true,
  format: "iife",
  target: "es2020",
  logLevel: "warning",
});
