// Every comparison mode in wasm (through qeval-wasm, under Node): on equal tables with shuffled
// rows, 1k to 1M rows x 2, 5, 8 columns; then every case (equal, a near miss, a row or a column
// fewer, alike columns) at 100k and 1M x 8, so a wrong answer's cost stands next to a right
// one's. The tables are built inside the module, so the times are the comparison alone. Run by
// `cargo xtask bench`.
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const qeval = require(process.env.QEVAL_WASM_PKG);
const maxRows = Number(process.env.QEVAL_BENCH_MAX_ROWS ?? 1_000_000);
const modes = ["f1", "seed", "bag", "set", "subset", "soft-f1"];
const figures = [];
console.log("mode      rows      cols  median ms");

function medianMs(mode, rows) {
  const runs = rows >= 1_000_000 ? 3 : rows >= 100_000 ? 5 : 15;
  const times = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    qeval.benchCompare(mode);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

for (const rows of [1_000, 10_000, 100_000, 1_000_000].filter((r) => r <= maxRows)) {
  for (const columns of [2, 5, 8]) {
    qeval.benchPrepare(rows, columns, "equal");
    for (const mode of modes) {
      const median = medianMs(mode, rows);
      console.log(`${mode.padEnd(9)} ${String(rows).padStart(9)} ${String(columns).padStart(5)} ${median.toFixed(2).padStart(10)}`);
      figures.push({ mode, rows, columns, case: "equal", median_ms: median });
    }
  }
}

const cases = ["equal", "near-miss", "row-fewer", "column-fewer", "alike-columns", "alike-near-miss"];
console.log(`\nmode      rows     ${cases.map((c) => c.padStart(16)).join(" ")}   (median ms, 8 columns)`);
for (const rows of [100_000, 1_000_000].filter((r) => r <= maxRows)) {
  const line = Object.fromEntries(modes.map((mode) => [mode, []]));
  for (const name of cases) {
    qeval.benchPrepare(rows, 8, name);
    for (const mode of modes) {
      const median = medianMs(mode, rows);
      line[mode].push(median.toFixed(2).padStart(16));
      figures.push({ mode, rows, columns: 8, case: name, median_ms: median });
    }
  }
  for (const mode of modes) console.log(`${mode.padEnd(9)} ${String(rows).padStart(9)} ${line[mode].join(" ")}`);
}
if (process.env.QEVAL_BENCH_OUT) writeFileSync(process.env.QEVAL_BENCH_OUT, JSON.stringify(figures));
