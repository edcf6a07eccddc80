// For every ruleset, a practice game against bots played to its result by clicking in the page,
// against the real services through the gateway; a screenshot of each table is kept as an
// artifact, and the fair-deal check must say "verified" at the end. The five games run at once.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { LobbyPage, TablePage, playToEnd } from "./pages.mjs";
import { newPage, screenshot, setup, teardown } from "./support.mjs";

const GAMES = [
  { ruleset: "liars_dice", settings: { Players: 3, "Dice each": 2 }, firstDealSeen: true },
  { ruleset: "okey", settings: { Players: 2, "Deals (0: play to 0 points)": 1 }, firstDealSeen: true },
  { ruleset: "okey51", settings: { Hints: true }, firstDealSeen: true },
  { ruleset: "okey101", settings: { Deals: 3, Hints: true }, firstDealSeen: true },
  { ruleset: "mexican_train", settings: { Players: 10 }, firstDealSeen: true },
];

let env;
before(async () => { env = await setup(); });
after(async () => { await teardown(env); });

describe("a practice game of every ruleset, played by clicking", { concurrency: true }, () => {
  for (const game of GAMES) {
    test(game.ruleset, { timeout: 420000 }, async (t) => {
      const page = await newPage(env);
      const lobby = new LobbyPage(page);
      await lobby.open(env.stack.url);
      await lobby.signInAsGuest();
      await lobby.choose(game.ruleset, game.settings);
      await lobby.practice();
      const table = new TablePage(page);
      await table.waitForTurn();
      await screenshot(page, `table-${game.ruleset}`);
      const moves = await playToEnd(table, game.ruleset);
      await table.result().waitFor();
      await page.getByText("Verified: the deal is the one committed to at the start.").waitFor({ timeout: 60000 });
      await screenshot(page, `result-${game.ruleset}`);
      const lines = await page.locator(".check-lines").innerText();
      // The page saw the first deal (it connected before its own first move): the hand or dice
      // it was shown must be what the revealed seed deals.
      if (game.firstDealSeen) assert.match(lines, /is what the revealed seed deals/);
      t.diagnostic(lines.split("\n").find((l) => /seed deals/.test(l)) ?? "first deal not seen");
      assert.deepEqual(page.errors, []);
      t.diagnostic(`${game.ruleset}: ${moves} moves by the player`);
    });
  }
});
