// Reading JSON results in wasm: MB/s of qeval-wasm's reader on generated tables of 8 mixed
// columns, in three shapes, at 100k and 1M rows, under Node and in headless Chromium (the same
// module built for the web). Run by `cargo xtask bench`.
import { createServer } from "node:http";
import { readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { extname, join } from "node:path";

const require = createRequire(import.meta.url);
const maxRows = Number(process.env.QEVAL_BENCH_MAX_ROWS ?? 1_000_000);

/** The table generator, the same shapes and value kinds as the native reading bench. */
function table(rows, shape) {
  let state = 0x9e3779b97f4a7c15n;
  const mask = (1n << 64n) - 1n;
  const next = () => {
    state ^= (state << 13n) & mask;
    state ^= state >> 7n;
    state ^= (state << 17n) & mask;
    return state;
  };
  const names = ["id", "name", "price", "k", "cat", "n", "flag", "m"];
  const parts = [];
  for (let i = 0; i < rows; i++) {
    const r = Number(next() % 1000000n);
    const values = [i, `"name${r % 1000}"`, `${r % 1000}.${String(r % 100).padStart(2, "0")}`, r % 7, `"category ${r % 13}"`, i * 3, r % 2 === 0, i % 11 === 0 ? "null" : r % 97];
    parts.push(shape === "records" ? `{${names.map((n, c) => `"${n}":${values[c]}`).join(",")}}` : `[${values.join(",")}]`);
  }
  const body = `[${parts.join(",")}]`;
  return shape === "columns-rows" ? `{"columns":${JSON.stringify(names)},"rows":${body}}` : body;
}

function measure(read, text, rows) {
  const runs = rows >= 1_000_000 ? 3 : 7;
  const times = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    if (read(text) !== rows) throw new Error("wrong row count");
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const figures = [];
const cases = [];
for (const rows of [100_000, 1_000_000].filter((r) => r <= maxRows)) {
  for (const shape of ["arrays", "columns-rows", "records"]) cases.push({ rows, shape });
}

// Under Node.
const node = require(process.env.QEVAL_WASM_PKG);
console.log("where     shape            rows       MB  median ms   MB/s");
for (const { rows, shape } of cases) {
  const text = table(rows, shape);
  const mb = Buffer.byteLength(text) / 1e6;
  const ms = measure((t) => node.benchRead(t), text, rows);
  console.log(`node      ${shape.padEnd(14)} ${String(rows).padStart(8)} ${mb.toFixed(1).padStart(8)} ${ms.toFixed(1).padStart(10)} ${(mb / (ms / 1000)).toFixed(0).padStart(6)}`);
  figures.push({ where: "node", shape, rows, megabytes: mb, median_ms: ms });
}

// In headless Chromium: the module built for the web, served with a page that imports it.
const web = process.env.QEVAL_WASM_WEB_PKG;
if (web) {
  const { launchBrowser } = await import(join(process.env.QEVAL_E2E, "harness.mjs"));
  const types = { ".js": "text/javascript", ".wasm": "application/wasm", ".html": "text/html" };
  const server = createServer(async (req, res) => {
    const path = req.url === "/" ? "/index.html" : req.url;
    if (path === "/index.html") {
      res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>read bench</title>");
      return;
    }
    const body = await readFile(join(web, path)).catch(() => null);
    if (body === null) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": types[extname(path)] ?? "application/octet-stream" });
    res.end(body);
  });
  await new Promise((done) => server.listen(0, "127.0.0.1", done));
  const browser = await launchBrowser();
  try {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    // The text is made in the page: tens of megabytes do not pass through the devtools protocol.
    await page.addScriptTag({ content: table.toString() });
    for (const { rows, shape } of cases) {
      const mb = Buffer.byteLength(table(rows, shape)) / 1e6;
      const ms = await page.evaluate(
        async ({ rows, shape, runs }) => {
          const module = await import("/qeval_wasm.js");
          await module.default();
          const text = table(rows, shape);
          const times = [];
          for (let i = 0; i < runs; i++) {
            const started = performance.now();
            if (module.benchRead(text) !== rows) throw new Error("wrong row count");
            times.push(performance.now() - started);
          }
          times.sort((a, b) => a - b);
          return times[Math.floor(times.length / 2)];
        },
        { rows, shape, runs: rows >= 1_000_000 ? 3 : 7 },
      );
      console.log(`chromium  ${shape.padEnd(14)} ${String(rows).padStart(8)} ${mb.toFixed(1).padStart(8)} ${ms.toFixed(1).padStart(10)} ${(mb / (ms / 1000)).toFixed(0).padStart(6)}`);
      figures.push({ where: "chromium", shape, rows, megabytes: mb, median_ms: ms });
    }
  } finally {
    await browser.close();
    server.close();
  }
}
if (process.env.QEVAL_BENCH_OUT) await writeFile(process.env.QEVAL_BENCH_OUT, JSON.stringify(figures));
