// Bundles the query editors (src/main.js and CodeMirror) into one script for the page:
// target/editor/qeval-editor.js, which www/assemble.mjs places in the page. `cargo xtask` runs it
// before each web build; its packages come from this folder's package-lock.json (`cargo xtask setup` installs
// them).
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
let esbuild;
try {
  esbuild = await import("esbuild");
} catch {
  throw new Error("www/editor/build.mjs: esbuild is not installed; run `cargo xtask setup` (npm ci in www/editor)");
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
