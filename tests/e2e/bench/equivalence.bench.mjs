// Benchmark (not a test): the equivalence check of a typical Spider-size pair with 40 generated
// databases, in the playground of headless Chromium (the time the page reports for the check
// itself). The same pairs as `cargo bench -p qeval-sqlite --bench equivalence`.
import { launchBrowser, openPage, serveDist, setQuery } from "../harness.mjs";

const EXPECTED =
  "SELECT T1.name, COUNT(*) FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.singer_id = T2.singer_id WHERE T1.age > 20 GROUP BY T1.singer_id, T1.name HAVING COUNT(*) > 1 ORDER BY COUNT(*) DESC, T1.name LIMIT 3";
const PAIRS = {
  equivalent:
    "SELECT s.name, COUNT(1) FROM singer s JOIN singer_in_concert sc ON sc.singer_id = s.singer_id WHERE 20 < s.age GROUP BY s.singer_id, s.name HAVING COUNT(1) >= 2 ORDER BY 2 DESC, 1 LIMIT 3",
  "near miss":
    "SELECT s.name, COUNT(1) FROM singer s JOIN singer_in_concert sc ON sc.singer_id = s.singer_id WHERE 20 < s.age GROUP BY s.singer_id, s.name HAVING COUNT(1) >= 1 ORDER BY 2 DESC, 1 LIMIT 3",
};

const server = await serveDist();
const browser = await launchBrowser();
try {
  const page = await openPage(await browser.newContext(), server.url);
  for (const [label, generated] of Object.entries(PAIRS)) {
    const times = [];
    let verdict = "";
    for (let run = 0; run < 7; run++) {
      // A different comment each time, so the page checks again.
      // Empty the generated query and wait for the verdict to go, so the next one is new.
      await setQuery(page, "generated", "");
      await page.waitForFunction(() => !document.querySelector("[data-testid=equivalence-time]"));
      await setQuery(page, "expected", `${EXPECTED} -- ${run}`);
      await setQuery(page, "generated", generated);
      const time = await page.waitForFunction(
        () => document.querySelector("[data-testid=equivalence-time]")?.textContent.match(/checked in (\d+) ms/)?.[1],
        null,
        { timeout: 60_000 },
      );
      times.push(Number(await time.jsonValue()));
      verdict = await page.locator("[data-testid=equivalence-badge]").textContent();
    }
    times.sort((a, b) => a - b);
    console.log(`| typical Spider-size pair, ${label} (${verdict}) | ${times[3]} ms |`);
  }
} finally {
  await browser.close();
  await server.close();
}
