// Every comparison mode in wasm (through qeval-wasm, under Node) on equal tables with shuffled
// rows, 1k to 1M rows x 2, 5, 8 columns. The tables are built inside the module, so the times
// are the comparison alone. Run by `cargo xtask bench`.
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const qeval = require(process.env.QEVAL_WASM_PKG);
const maxRows = Number(process.env.QEVAL_BENCH_MAX_ROWS ?? 1_000_000);
const modes = ["f1", "seed", "bag", "set", "subset", "soft-f1"];
const figures = [];
console.log("mode      rows      cols  median ms");
for (const rows of [1_000, 10_000, 100_000, 1_000_000].filter((r) => r <= maxRows)) {
  for (const columns of [2, 5, 8]) {
    qeval.benchPrepare(rows, columns);
    for (const mode of modes) {
      const runs = rows >= 1_000_000 ? 3 : rows >= 100_000 ? 5 : 15;
      const times = [];
      for (let i = 0; i < runs; i++) {
        const started = performance.now();
        qeval.benchCompare(mode);
        times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      const median = times[Math.floor(times.length / 2)];
      console.log(`${mode.padEnd(9)} ${String(rows).padStart(9)} ${String(columns).padStart(5)} ${median.toFixed(2).padStart(10)}`);
      figures.push({ mode, rows, columns, median_ms: median });
    }
  }
}
if (process.env.QEVAL_BENCH_OUT) writeFileSync(process.env.QEVAL_BENCH_OUT, JSON.stringify(figures));
