// One matchmade two-player game between two browser contexts (two guests), through to the rating
// change and the match history; on the way, one player reloads mid-game and returns to the same
// seat, then loses the connection long enough for a bot to play for them, and the page says so
// when the stream resumes.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { LobbyPage, TablePage, playOneMove } from "./pages.mjs";
import { newPage, screenshot, setup, teardown } from "./support.mjs";

let env;
before(async () => { env = await setup(); });
after(async () => { await teardown(env); });

async function seatLabel(page) {
  // The player's own dice group names them; the seat itself is in the stored seat, read back.
  return page.evaluate(() => {
    const id = location.hash.split("/")[2];
    const seats = JSON.parse(localStorage.getItem("kahve.seats") ?? "{}")[id] ?? [];
    return { tableId: id, seat: seats[0]?.seat, dice: document.querySelector(".my-dice")?.getAttribute("aria-label") };
  });
}

test("a matchmade game between two browsers, a reload, an away spell, ratings and history", { timeout: 240000 }, async (t) => {
  const pages = [await newPage(env), await newPage(env)];
  const names = [];
  for (const page of pages) {
    const lobby = new LobbyPage(page);
    await lobby.open(env.stack.url);
    names.push(await lobby.signInAsGuest());
    await lobby.choose("liars_dice", { Players: 2, "Dice each": 2 });
    await lobby.findGame();
  }
  await Promise.all(pages.map((p) => p.waitForURL(/#\/table\//, { timeout: 30000 })));
  const tables = pages.map((p) => new TablePage(p));
  await Promise.all(pages.map((p) => p.locator(".my-dice .die").first().waitFor()));
  const [a, b] = await Promise.all(pages.map(seatLabel));
  assert.equal(a.tableId, b.tableId, "both players sit at the same table");
  assert.notEqual(a.seat, b.seat);
  await screenshot(pages[0], "match-liars_dice");
  await pages[0].getByRole("timer").first().waitFor({ timeout: 15000 });

  // Whoever is to act makes one move; then the first player reloads and gets the same seat back.
  await untilTurnOf(tables, 1);
  await playOneMoveBidOnly(tables[1]);
  await pages[0].reload();
  await pages[0].locator(".my-dice .die").first().waitFor();
  const again = await seatLabel(pages[0]);
  assert.equal(again.tableId, a.tableId);
  assert.equal(again.seat, a.seat, "the reload returns to the same seat");
  assert.equal(again.dice, a.dice, "with the same dice");

  // The first player drops off while it is their turn: the bot holds the seat, the page says so on return.
  await untilTurnOf(tables, 0);
  await pages[0].context().setOffline(true);
  await pages[0].evaluate(() => window.kahve.dropConnection());
  await new Promise((r) => setTimeout(r, 4500));
  await pages[0].context().setOffline(false);
  await pages[0].getByText(/While you were away, a bot played \d+ moves?/).waitFor({ timeout: 20000 });
  await screenshot(pages[0], "match-away");
  await pages[0].getByRole("button", { name: "OK" }).click();

  // Both play to the end.
  await Promise.all(tables.map(async (tb) => {
    while (await tb.waitForTurn(60000)) await playOneMove(tb, "liars_dice");
  }));
  for (const [i, page] of pages.entries()) {
    await tables[i].result().waitFor();
    await page.getByText(/^Rating /).waitFor({ timeout: 30000 });
    await page.getByText("Verified: the deal is the one committed to at the start.").waitFor();
  }
  await screenshot(pages[1], "match-result");
  await pages[1].getByRole("link", { name: "Match history" }).click();
  const history = pages[1].getByRole("list", { name: "Match history" });
  await history.waitFor();
  assert.match(await history.innerText(), /Liar's dice/);
  await pages[1].getByRole("region", { name: "Your ratings" }).getByText("Liar's dice").waitFor();
  for (const p of pages) assert.deepEqual(p.errors, []);
});

/** Lets the other player bid until it is player `i`'s turn. */
async function untilTurnOf(tables, i) {
  for (let k = 0; k < 600; k++) {
    const can = await Promise.all(tables.map((tb) => tb.page.locator(".table-head").getAttribute("data-can-act")));
    const who = can.indexOf("true");
    if (who === i) return;
    if (who < 0) {
      await new Promise((r) => setTimeout(r, 100));
      continue;
    }
    const before = await tables[who].page.locator(".table-head").getAttribute("data-seq");
    await playOneMoveBidOnly(tables[who]);
    await tables[who].page.waitForFunction((b) => document.querySelector(".table-head")?.dataset.seq !== b, before);
  }
  throw new Error(`never player ${i}'s turn`);
}

/** A bid (never a challenge), so the game goes on after the first move. */
async function playOneMoveBidOnly(table) {
  const bid = table.page.locator(".board-host").getByRole("button", { name: /^Bid / });
  await bid.click();
}
