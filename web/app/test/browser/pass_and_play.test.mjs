// Pass and play: one device holds two human seats of a practice table, bots the rest. At every
// hand-over the page must show no hand (no die face, tile or domino outside what the table has
// made public) and no private log line, and hold no seat's stream: only the spectator's, which
// must never have received a seat's view or a private event. While a player holds the device,
// their seat's stream must carry their own view and private events only. At the end of a deal
// the hands are shown: the dice of every cup after a challenge, every rack in okey 51's deal
// summary. The two games run at once.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { LobbyPage, TablePage, playOneMove } from "./pages.mjs";
import { newPage, screenshot, setup, teardown } from "./support.mjs";

let env;
before(async () => { env = await setup(); });
after(async () => { await teardown(env); });

/** What the screen shows of any hand, outside the parts the table made public. */
function handsOnScreen(page) {
  return page.evaluate(() => {
    const pub = (el) => el.closest("[data-public], .deal-summary");
    const faces = [...document.querySelectorAll(".die:not(.die--hidden), [data-tile], .domino")].filter((el) => !pub(el));
    const text = document.body.innerText;
    return {
      faces: faces.map((el) => el.outerHTML.slice(0, 80)),
      privateLines: (text.match(/You (rolled|drew) [^\n;]*/g) ?? []),
      board: document.querySelector(".board-host")?.childElementCount ?? -1,
    };
  });
}

/**
 * Every stream open in the page (seat -1: the spectator's) and everything one carried that
 * belongs to another seat: another seat's view, or an event private to another seat.
 */
function othersReceived(page) {
  return page.evaluate(() => {
    const bad = [];
    const walk = (x, seat, path) => {
      if (x === null || typeof x !== "object") return;
      if (Array.isArray(x)) { x.forEach((y, i) => walk(y, seat, `${path}[${i}]`)); return; }
      if (typeof x.privateTo === "number" && x.privateTo !== seat) bad.push(`${seat}: ${path} private to ${x.privateTo}`);
      if ("toAct" in x && "numSeats" in x && x.seat !== seat) bad.push(`${seat}: ${path} is seat ${x.seat}'s view`);
      for (const [k, v] of Object.entries(x)) if (typeof v === "object") walk(v, seat, `${path}.${k}`);
    };
    const channels = window.kahve.received();
    for (const { seat, updates } of channels) updates.forEach((u, i) => walk(u, seat, `#${i}`));
    return { bad, seats: channels.map((c) => c.seat).sort((a, b) => a - b), updates: channels.map((c) => c.updates.length) };
  });
}

/** The dice of the last public reveal the page received (a challenge's DiceRevealed). */
function lastRevealedDice(page) {
  return page.evaluate(() => {
    let last = null;
    for (const u of window.kahve.received().find((c) => c.seat === -1)?.updates ?? []) {
      for (const e of u.update?.case === "move" ? u.update.value.events : []) {
        if (e.ruleset?.case === "liarsDice" && e.ruleset.value.event.case === "diceRevealed") last = e.ruleset.value.event.value.dice.map((d) => [...d.dice]);
      }
    }
    return last;
  });
}

async function startPassAndPlay(ruleset, settings) {
  const page = await newPage(env);
  const lobby = new LobbyPage(page);
  await lobby.open(env.stack.url);
  await lobby.signInAsGuest();
  await lobby.choose(ruleset, settings);
  await page.getByRole("combobox", { name: "Bot speed" }).selectOption({ label: "Bots: instant" });
  await page.getByRole("combobox", { name: "Players at this device" }).selectOption("2");
  await page.getByRole("button", { name: "Start pass and play" }).click();
  await page.waitForURL(/#\/table\//);
  return { page, table: new TablePage(page) };
}

/**
 * Plays to the result, checking every hand-over; returns the hand-overs seen, by seat, and how
 * many showed a reveal.
 */
async function playWithHandovers(page, table, ruleset, { onHandover = async () => {} } = {}) {
  const seen = { 0: 0, 1: 0 };
  for (let step = 0; step < 3000; step++) {
    await page.waitForFunction(() => document.querySelector(".result") || document.querySelector(".table-head")?.dataset.canAct === "true"
      || document.querySelector(".handover:not([hidden]) button.primary"), null, { timeout: 60000 });
    if (await table.isOver()) return seen;
    const handover = page.getByRole("region", { name: "Hand the device over" });
    if (await handover.isVisible()) {
      const onScreen = await handsOnScreen(page);
      assert.deepEqual(onScreen.faces, [], "no die face, tile or domino on screen at a hand-over");
      assert.deepEqual(onScreen.privateLines, [], "no private log line at a hand-over");
      assert.equal(onScreen.board, 0, "the board is emptied at a hand-over");
      const received = await othersReceived(page);
      assert.deepEqual(received.seats, [-1], "at a hand-over only the spectator's stream is open");
      assert.deepEqual(received.bad, [], "the spectator's stream carried no seat's view or private event");
      const who = Number(/Player (\d+)/.exec(await handover.getByRole("heading").first().innerText())?.[1]) - 1;
      seen[who]++;
      await onHandover(handover, seen);
      await handover.getByRole("button", { name: /^I am Player \d+: show my (dice|tiles)$/ }).click();
      continue;
    }
    // A player holds the device: their stream is open, and it carries nothing of another seat.
    const open = await othersReceived(page);
    assert.equal(open.seats.length, 2, `streams open: ${open.seats}`);
    assert.deepEqual(open.bad, [], "a seat's stream carried another seat's view or private event");
    const before = await page.locator(".table-head").getAttribute("data-seq");
    assert.ok(await playOneMove(table, ruleset), "a move was found");
    await page.waitForFunction((b) => document.querySelector(".table-head")?.getAttribute("data-seq") !== b
      || document.querySelector(".banner--bad") || document.querySelector(".result"), before, { timeout: 30000 });
    assert.equal(await page.locator(".banner--bad").count(), 0, "no move refused");
  }
  throw new Error("no result");
}

describe("pass and play", { concurrency: true }, () => {
  test("Liar's dice: hand-overs hide every cup; each challenge's dice are shown to all", { timeout: 240000 }, async (t) => {
    const { page, table } = await startPassAndPlay("liars_dice", { Players: 3, "Dice each": 2 });
    await page.getByRole("region", { name: "Hand the device over" }).waitFor();
    await screenshot(page, "pass-and-play-handover");
    let reveals = 0;
    const seen = await playWithHandovers(page, table, "liars_dice", {
      onHandover: async (handover) => {
        const shown = handover.locator("[data-public=reveal]");
        if ((await shown.count()) === 0) return;
        // The dice on the hand-over screen are exactly the ones the challenge revealed.
        const faces = await shown.locator(".die").evaluateAll((els) => els.map((e) => Number(/die-(\d)/.exec(e.className)?.[1])));
        const revealed = await lastRevealedDice(page);
        assert.ok(revealed, "a reveal was received");
        assert.deepEqual(faces, revealed.flat());
        if (reveals++ === 0) await screenshot(page, "pass-and-play-reveal");
      },
    });
    t.diagnostic(`hand-overs: Player 1 ${seen[0]}, Player 2 ${seen[1]}; reveals shown at a hand-over: ${reveals}`);
    assert.ok(seen[0] >= 1 && seen[1] >= 1, "each player was handed the device");
    assert.ok(reveals >= 1, "a challenge's dice were shown at a hand-over");
    await table.result().waitFor();
    assert.deepEqual((await othersReceived(page)).bad, []);
    assert.deepEqual(page.errors, []);
  });

  test("okey 51: hand-overs hide every rack; the deal's end shows every hand", { timeout: 420000 }, async (t) => {
    const { page, table } = await startPassAndPlay("okey51", {});
    const seen = await playWithHandovers(page, table, "okey51");
    t.diagnostic(`hand-overs: Player 1 ${seen[0]}, Player 2 ${seen[1]}`);
    assert.ok(seen[0] >= 2 && seen[1] >= 2, "each player was handed the device");
    await table.result().waitFor();
    const summary = page.getByRole("dialog", { name: "End of the deal" });
    await summary.waitFor();
    const rows = summary.locator("tbody tr");
    assert.equal(await rows.count(), 4);
    const hands = await rows.evaluateAll((trs) => trs.map((tr) => tr.querySelectorAll(".summary-hand [data-tile]").length));
    assert.ok(hands.filter((n) => n > 0).length >= 3, `hands shown at the deal's end: ${hands}`);
    await screenshot(page, "pass-and-play-deal-end");
    assert.deepEqual((await othersReceived(page)).bad, []);
    assert.deepEqual(page.errors, []);
  });
});
