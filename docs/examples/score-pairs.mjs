// @ts-check
// Scores each line of a pairs file (JSON Lines, the format `qeval score` reads) and prints one
// line per pair, then how many passed. With the package built and installed:
//
//   cargo xtask js && npm install ./target/js/qeval
//   node docs/examples/score-pairs.mjs static/examples/pairs.jsonl
//
// `// @ts-check` makes editors (and `tsc --checkJs`) check this file against the package's types.
import { readFileSync } from "node:fs";
import { scorePair } from "qeval";

const file = process.argv[2];
if (!file) {
  console.error("usage: node score-pairs.mjs PAIRS.jsonl");
  process.exit(2);
}

let scored = 0;
let passed = 0;
readFileSync(file, "utf8")
  .split("\n")
  .forEach((line, index) => {
    if (!line.trim()) return;
    try {
      // A line's snake_case fields are read as they are; in code, write them in camelCase
      // (`{ generatedSql, expectedSql }`).
      const card = scorePair(JSON.parse(line));
      scored += 1;
      const verdict = card.profile?.passed;
      if (verdict === true) passed += 1;
      const total = card.profile?.total;
      const tables = card.metrics.table_accuracy?.score;
      console.log(
        `line ${index + 1}: ${verdict === true ? "PASS" : verdict === false ? "FAIL" : "no verdict"}` +
          ` total ${total == null ? "-" : total.toFixed(2)}, table accuracy ${tables == null ? "-" : tables.toFixed(2)}`,
      );
    } catch (err) {
      // A malformed pair throws an Error naming the field; the other lines are still scored.
      console.log(`line ${index + 1}: ${err instanceof Error ? err.message : String(err)}`);
    }
  });
console.log(`${passed} of ${scored} passed`);
