// Smaller checks, each on its own practice table: moves played by keyboard only (Tab, arrows,
// Space, Enter), and the fair-deal check turning red on a tampered replay.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { LobbyPage, TablePage, playOneMove } from "./pages.mjs";
import { newPage, screenshot, setup, teardown } from "./support.mjs";

let env;
before(async () => { env = await setup(); });
after(async () => { await teardown(env); });

/** Presses Tab until the focused element's name matches, as a keyboard user would. */
async function tabTo(page, pattern, max = 80) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab");
    const name = await page.evaluate(() => {
      const el = document.activeElement;
      return el ? (el.getAttribute("aria-label") ?? el.textContent ?? "").trim() : "";
    });
    if (pattern.test(name)) return name;
  }
  throw new Error(`no focusable element named ${pattern} within ${max} tabs`);
}

async function seq(page) {
  return Number(await page.locator(".table-head").getAttribute("data-seq"));
}

async function openPractice(ruleset, settings) {
  const page = await newPage(env);
  const lobby = new LobbyPage(page);
  await lobby.open(env.stack.url);
  await lobby.signInAsGuest();
  await lobby.choose(ruleset, settings);
  await lobby.practice();
  return { page, table: new TablePage(page) };
}

describe("checks", { concurrency: true }, () => {
  test("okey51 played by keyboard only: draw, confirm, pick a tile with the arrows, discard", { timeout: 300000 }, async (t) => {
    const { page, table } = await openPractice("okey51", {});
    for (let turn = 0; turn < 2; turn++) {
      await table.waitForTurn();
      const hand = page.getByRole("group", { name: "Your rack" }).locator(".tile");
      if (turn > 0 || (await page.getByRole("button", { name: /^Draw from the deck/ }).count()) > 0) {
        const before = await seq(page);
        await page.locator("body").focus();
        await tabTo(page, /^Draw from the deck/);
        await page.keyboard.press("Enter");
        // The preview's Confirm button takes the focus once the dry run answers.
        await page.waitForFunction(() => document.activeElement?.textContent?.startsWith("Confirm: "));
        await page.keyboard.press("Enter");
        await page.waitForFunction((b) => Number(document.querySelector(".table-head").dataset.seq) > b, before);
        await table.waitForTurn();
      }
      const count = await hand.count();
      assert.equal(count, 15, "fifteen tiles before the discard");
      await tabTo(page, /^(red|blue|black|yellow|fake)/);
      await page.keyboard.press("ArrowRight");
      await page.keyboard.press("ArrowRight");
      await page.keyboard.press("Space");
      const picked = await page.evaluate(() => document.activeElement?.getAttribute("data-tile"));
      const before = await seq(page);
      await tabTo(page, /^Discard /);
      await page.keyboard.press("Enter");
      await page.waitForFunction((b) => Number(document.querySelector(".table-head").dataset.seq) > b, before);
      await page.getByRole("group", { name: "Your rack" }).locator(".tile").nth(13).waitFor();
      assert.equal(await page.getByRole("group", { name: "Your rack" }).locator(".tile").count(), 14);
      t.diagnostic(`turn ${turn + 1}: discarded ${picked} by keyboard`);
    }
    await screenshot(page, "keyboard-okey51");
    assert.deepEqual(page.errors, []);
  });

  test("Liar's dice by keyboard: a face, the quantity, the bid", { timeout: 300000 }, async (t) => {
    const { page, table } = await openPractice("liars_dice", { Players: 3 });
    await table.waitForTurn();
    await page.locator("body").focus();
    await tabTo(page, /^Face 6$/);
    await page.keyboard.press("Enter");
    await tabTo(page, /^One more$/);
    await page.keyboard.press("Enter");
    const label = await tabTo(page, /^Bid \d+ × sixes$/);
    const before = await seq(page);
    await page.keyboard.press("Enter");
    await page.waitForFunction((b) => Number(document.querySelector(".table-head").dataset.seq) > b, before);
    const you = label.replace(/^Bid /, "");
    await page.getByRole("list", { name: "Bids this round" }).getByText(`You: ${you}`).waitFor();
    assert.deepEqual(page.errors, []);
  });

  test("practice: hints, pause, undo, redo, and leaving closes the table", { timeout: 300000 }, async (t) => {
    const { page, table } = await openPractice("okey51", { Hints: true });
    await table.waitForTurn();
    const rack = page.getByRole("group", { name: "Your rack" }).locator(".tile");
    const hand = async () => (await rack.evaluateAll((els) => els.map((e) => e.dataset.tile))).sort().join(" ");
    const dealt = await hand();
    // Hints mark penalty tiles and offer the hint's arrangement.
    await page.getByRole("button", { name: "Hints" }).click();
    await page.getByRole("note", { name: "Hints" }).waitFor();
    await page.getByRole("button", { name: "Hide hints" }).click();
    await page.getByRole("button", { name: "Pause" }).click();
    await page.getByText("Paused: the bots wait, and so do you.").waitFor();
    await page.getByRole("button", { name: "Resume" }).click();
    await table.waitForTurn();
    await rack.last().click();
    await page.locator(".board-host").getByRole("button", { name: /^Discard / }).click();
    await table.waitForTurn();
    assert.notEqual(await hand(), dealt);
    await page.getByRole("button", { name: /^Undo \(\d+\)$/ }).click();
    await page.waitForFunction(() => document.querySelectorAll(".rack__tiles .tile").length === 15);
    await table.waitForTurn();
    assert.equal(await hand(), dealt, "the undo gives back the dealt hand");
    await page.getByRole("button", { name: /^Redo \(1\)$/ }).click();
    await page.waitForFunction(() => document.querySelectorAll(".rack__tiles .tile").length === 14);
    await screenshot(page, "practice-redo");
    // Leaving closes a practice table: the page says so, and nothing is rated.
    await page.getByRole("button", { name: "Leave (close the table)" }).click();
    await page.getByRole("region", { name: "Game result" }).getByText("Closed before the game ended: you left the practice table.", { exact: false }).waitFor();
    assert.deepEqual(page.errors, []);
  });

  test("okey51: the opening is grouped, previewed by a dry run with its sum, and laid", { timeout: 300000 }, async (t) => {
    const page = await newPage(env);
    const lobby = new LobbyPage(page);
    await lobby.open(env.stack.url);
    await lobby.signInAsGuest();
    await lobby.choose("okey51", {});
    const table = new TablePage(page);
    // The starter may open on its first turn; deal until the server lists an opening for it.
    let tries = 0;
    for (;;) {
      await lobby.practice();
      await table.waitForTurn();
      if ((await page.getByRole("button", { name: /^Suggested opening/ }).count()) > 0) break;
      assert.ok(++tries < 15, "no deal with an opening in 15 tries");
      await page.getByRole("button", { name: "Leave (close the table)" }).click();
      await page.getByRole("region", { name: "Game result" }).waitFor();
      await lobby.open(env.stack.url);
    }
    await screenshot(page, "okey51-opening-available");
    await page.getByRole("button", { name: /^Suggested opening/ }).click();
    const staged = page.getByRole("region", { name: "Groups to lay" });
    await staged.waitFor();
    const worth = Number(/worth (\d+)/.exec(await staged.innerText())?.[1]);
    assert.ok(worth >= 51, `the staged opening is worth ${worth}`);
    // Taking one group back and grouping its tiles again by hand gives the same opening.
    const firstGroup = staged.getByRole("group").first();
    const tiles = await firstGroup.locator(".tile").evaluateAll((els) => els.map((e) => e.dataset.tile));
    await staged.getByRole("button", { name: "Take back group 1" }).click();
    const rack = page.getByRole("group", { name: "Your rack" });
    const used = new Set();
    for (const tile of tiles) {
      const all = rack.locator(`.tile[data-tile="${tile}"]`);
      const n = await all.count();
      for (let i = 0; i < n; i++) {
        const key = `${tile}#${i}`;
        if (used.has(key) || (await all.nth(i).getAttribute("aria-pressed")) === "true") continue;
        used.add(key);
        await all.nth(i).click();
        break;
      }
    }
    await page.getByRole("button", { name: /^Group as (run|set) \(\d+\)$/ }).click();
    // The page's own sum of the groups (an okey at a run's end may be read at the other end).
    const regrouped = Number(/worth (\d+)/.exec(await staged.innerText())?.[1]);
    assert.ok(Math.abs(regrouped - worth) <= 13, `regrouped ${regrouped}, suggested ${worth}`);
    await page.getByRole("button", { name: /^Open with \d melds?$/ }).click();
    const preview = page.getByRole("region", { name: "Confirm your move" });
    await preview.getByText(/You open with|Not allowed/).waitFor();
    assert.match(await preview.innerText(), new RegExp(`You open with ${regrouped}`), "the server's sum is the page's");
    await screenshot(page, "okey51-opening-preview");
    await table.confirm();
    await page.getByRole("region", { name: "Melds on the table" }).locator(".meld").first().waitFor();
    await page.waitForFunction(() => /^opened/.test(document.querySelector(".seat--bottom .seat__facts")?.textContent ?? ""));
    await screenshot(page, "okey51-opened");
    assert.deepEqual(page.errors, []);
  });

  test("the fair-deal check turns red on a tampered replay", { timeout: 300000 }, async (t) => {
    const { page, table } = await openPractice("liars_dice", { Players: 2, "Dice each": 1 });
    while (await table.waitForTurn()) await playOneMove(table, "liars_dice");
    const verdict = page.getByRole("region", { name: "Fair-deal check" }).getByRole("status");
    await page.getByText("Verified: the deal is the one committed to at the start.").waitFor();
    await page.getByText("Replay", { exact: true }).click();
    const box = page.getByRole("textbox", { name: "Replay JSON to check" });
    await page.waitForFunction(() => document.querySelector("textarea")?.value.length > 0);
    // The untouched replay verifies.
    await page.getByRole("button", { name: "Check this replay" }).click();
    await page.waitForFunction(() => document.querySelector(".verdict")?.textContent?.includes("Verified"));
    // A replay whose seed was changed does not.
    const replay = JSON.parse(await box.inputValue());
    const seed = BigInt(replay.reveal.seed);
    replay.reveal.seed = String(seed ^ 1n);
    replay.deal.seed = replay.reveal.seed;
    await box.fill(JSON.stringify(replay));
    await page.getByRole("button", { name: "Check this replay" }).click();
    await page.waitForFunction(() => document.querySelector(".verdict")?.classList.contains("is-bad"));
    assert.match(await verdict.innerText(), /Mismatch/);
    assert.match(await page.locator(".check-lines").innerText(), /seed/);
    // So does one whose material was rewritten to the new seed: its hash is not the commitment.
    const bytes = Buffer.from(replay.reveal.material, "hex");
    bytes.writeBigUInt64BE(BigInt(replay.reveal.seed), 57);
    replay.reveal.material = bytes.toString("hex");
    await box.fill(JSON.stringify(replay));
    await page.getByRole("button", { name: "Check this replay" }).click();
    await page.getByText(/SHA-256 of the material is [0-9a-f]{12}…[0-9a-f]{6}, but the commitment shown at the start was/).waitFor();
    await screenshot(page, "fair-check-tampered");
    assert.deepEqual(page.errors, []);
  });
});
