// The web client's figures (a benchmark, never a timed test):
//  1. its compressed size: gzip -9 and brotli of everything the first page load fetches
//     (index.html, app.js, app.css; source maps are fetched only by developer tools);
//  2. the time from page load to the first legal move shown, on a local stack: a page holding a
//     seat at a practice Liar's dice table is loaded, and the clock runs from navigation start
//     until the table says the player may act (its first legal moves are on screen); also from
//     the lobby's "Practice" click (the table created, its page built, the stream's snapshot).
// Usage: KAHVE_BUILD=build node web/app/bench/figures.mjs [--runs N]
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { chromium } from "playwright-core";
import { appDir, missingPrerequisite, startStack } from "../test/support/stack.mjs";

const runs = Number(process.argv[process.argv.indexOf("--runs") + 1] || 15) || 15;

function sizes() {
  const files = ["index.html", "app.js", "app.css"];
  let raw = 0, gz = 0, br = 0;
  const rows = files.map((f) => {
    const data = readFileSync(join(appDir, "dist", f));
    const g = gzipSync(data, { level: 9 }).length;
    const b = brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
    raw += data.length; gz += g; br += b;
    return `  ${f.padEnd(11)} ${kb(data.length).padStart(9)} raw ${kb(g).padStart(9)} gzip ${kb(b).padStart(9)} brotli`;
  });
  return { rows, raw, gz, br };
}

function kb(n) {
  return `${(n / 1024).toFixed(1)} KB`;
}

function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return `p50 ${q(0.5).toFixed(0)} ms, p90 ${q(0.9).toFixed(0)} ms, min ${s[0].toFixed(0)} ms, max ${s[s.length - 1].toFixed(0)} ms (${s.length} runs)`;
}

const size = sizes();
console.log("web client, first page load (web/app/dist):");
console.log(size.rows.join("\n"));
console.log(`  total       ${kb(size.raw).padStart(9)} raw ${kb(size.gz).padStart(9)} gzip ${kb(size.br).padStart(9)} brotli  (target < 250 KB compressed)`);

const missing = missingPrerequisite();
if (missing) {
  console.log(`time to the first legal move: not measured (${missing})`);
  process.exit(0);
}
const stack = await startStack();
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.on("dialog", (d) => void d.accept());
  await page.goto(`${stack.url}/#/lobby`);
  await page.getByRole("button", { name: "Play as guest" }).click();
  await page.getByText("Signed in as").waitFor();
  await page.locator('[data-ruleset="liars_dice"]').click();
  // Bots that move at once: the figure is the client's and the services', not the bots' pacing.
  await page.getByRole("combobox", { name: "Bot speed" }).selectOption({ label: "Bots: instant" });
  const firstMove = () => page.waitForFunction(() => document.querySelector(".table-head")?.dataset.canAct === "true" && performance.now(), null, { timeout: 30000 });
  const fromLobby = [];
  const fromLoad = [];
  for (let i = 0; i < runs; i++) {
    await page.goto(`${stack.url}/#/lobby`);
    await page.getByRole("button", { name: /^Practice / }).waitFor();
    const t0 = await page.evaluate(() => performance.now());
    await page.getByRole("button", { name: /^Practice / }).click();
    fromLobby.push((await (await firstMove()).jsonValue()) - t0);
    // A full load of the table's own address (a reload: the files revalidated, the script run
    // again, the stream opened anew), up to its first legal move. Not from about:blank: the
    // gateway's Cross-Origin-Opener-Policy would add a renderer process swap no reload has.
    await page.reload();
    fromLoad.push(await (await firstMove()).jsonValue());
    // Close it: a player may hold only a few practice tables at once.
    await page.getByRole("button", { name: "Leave (close the table)" }).click();
    await page.getByText("The table closed", { exact: true }).first().waitFor();
  }
  console.log(`time from page load to the first legal move shown (a practice table's page loaded): ${stats(fromLoad)}`);
  console.log(`time from the lobby's Practice click to the first legal move shown: ${stats(fromLobby)}`);
} finally {
  await browser.close();
  await stack.stop();
}
