// Page objects for the browser tests: one per screen, locating by role and accessible name, and
// for the table a small player per ruleset that makes a legal move by clicking what the page
// offers (the page knows the legal moves; the test only reads the screen).
export class LobbyPage {
  constructor(page) {
    this.page = page;
  }

  async open(url) {
    await this.page.goto(`${url}/#/lobby`);
  }

  async signInAsGuest() {
    await this.page.getByRole("button", { name: "Play as guest" }).click();
    await this.page.getByText("Signed in as").waitFor();
    return (await this.page.locator(".me").innerText()).trim();
  }

  async signInWithToken(token) {
    await this.page.getByRole("textbox", { name: "Token" }).fill(token);
    await this.page.getByRole("button", { name: "Use this token" }).click();
    await this.page.getByText("Signed in as").waitFor();
  }

  async choose(ruleset, settings = {}) {
    await this.page.locator(`[data-ruleset="${ruleset}"]`).click();
    for (const [label, value] of Object.entries(settings)) {
      const control = this.page.getByLabel(label, { exact: true });
      if (typeof value === "boolean") await control.setChecked(value);
      else await control.selectOption(String(value));
    }
  }

  async practice({ bots = "Bots: strong", speed = "Bots: instant" } = {}) {
    await this.page.getByRole("combobox", { name: "Bots", exact: true }).selectOption({ label: bots });
    await this.page.getByRole("combobox", { name: "Bot speed" }).selectOption({ label: speed });
    await this.page.getByRole("button", { name: /^Practice / }).click();
    await this.page.waitForURL(/#\/table\//);
  }

  async findGame() {
    await this.page.getByRole("button", { name: /^Find a/ }).click();
  }
}

export class TablePage {
  constructor(page) {
    this.page = page;
  }

  turn() {
    return this.page.locator(".turn");
  }

  result() {
    return this.page.getByRole("region", { name: "Game result" });
  }

  async isOver() {
    return (await this.result().count()) > 0;
  }

  /** Confirms the move in the preview panel once the dry run answered. */
  async confirm() {
    const panel = this.page.getByRole("region", { name: "Confirm your move" });
    const button = panel.getByRole("button", { name: /^Confirm: / });
    await button.waitFor();
    await this.page.waitForFunction(() => {
      const b = [...document.querySelectorAll(".confirm button")].find((x) => x.textContent.startsWith("Confirm: "));
      return b && !b.disabled && !document.querySelector(".confirm .muted");
    }, null, { timeout: 60000 });
    await button.click();
  }

  /** Waits until the player may act, or the game is over; true when it may act. */
  async waitForTurn(timeout = 60000) {
    await this.page.waitForFunction(() => {
      if (document.querySelector(".result")) return true;
      return document.querySelector(".table-head")?.dataset.canAct === "true";
    }, null, { timeout });
    return !(await this.isOver());
  }

  async clickIfVisible(locator) {
    if ((await locator.count()) > 0 && (await locator.first().isEnabled())) {
      await locator.first().click();
      return true;
    }
    return false;
  }
}

/** Plays one move of the ruleset by clicking; returns false when nothing could be done. */
export async function playOneMove(table, ruleset) {
  const page = table.page;
  const board = page.locator(".board-host");
  const btn = (name) => board.getByRole("button", { name });
  if (ruleset === "liars_dice") {
    // Challenge whenever possible (games end fast), else the cheapest bid the picker offers.
    if (await table.clickIfVisible(btn(/^Не верю/))) return true;
    if (await table.clickIfVisible(btn("Declare Путана"))) return true;
    return table.clickIfVisible(btn(/^Bid /));
  }
  if (ruleset === "mexican_train") {
    if (await table.clickIfVisible(btn(/^End your first turn/))) return confirmed(table);
    const playable = board.locator(".hand .domino.is-legal");
    if ((await playable.count()) > 0) {
      await playable.first().click();
      const end = board.locator(".train__end.is-legal");
      await end.first().click();
      return confirmed(table);
    }
    if (await table.clickIfVisible(btn(/^Draw from the boneyard/))) return confirmed(table);
    if (await table.clickIfVisible(btn(/^Pass/))) return confirmed(table);
    return false;
  }
  if (ruleset === "okey") {
    if (await table.clickIfVisible(btn(/^Take .* and win/))) return confirmed(table);
    if (await table.clickIfVisible(btn(/^Win by discarding/))) return confirmed(table);
    if (await table.clickIfVisible(btn(/^Draw from the deck/))) return confirmed(table);
    return discardFirst(table);
  }
  // okey51, okey101: draw, open with the suggested opening when there is one, then discard.
  if (await table.clickIfVisible(btn(/^Draw from the deck/))) return confirmed(table);
  if (await table.clickIfVisible(btn(/^Suggested opening/))) {
    await btn(/^Open with/).click();
    await table.confirm();
    return true;
  }
  return discardFirst(table);
}

async function confirmed(table) {
  await table.confirm();
  return true;
}

async function discardFirst(table) {
  const rack = table.page.getByRole("group", { name: "Your rack" });
  const tiles = rack.locator(".tile");
  const n = await tiles.count();
  // Try tiles from the right (the drawn tile lands there) until one has a Discard button.
  for (let i = n - 1; i >= 0; i--) {
    await tiles.nth(i).click();
    const discard = table.page.locator(".board-host").getByRole("button", { name: /^Discard / });
    if ((await discard.count()) > 0) {
      await discard.click();
      return true;
    }
    await tiles.nth(i).click();
  }
  return false;
}

/** Plays the whole game by clicking, to its result. */
export async function playToEnd(table, ruleset, { maxMoves = 2000 } = {}) {
  let moves = 0;
  while (moves < maxMoves) {
    if (!(await table.waitForTurn(120000))) return moves;
    const before = await table.page.locator(".table-head").getAttribute("data-seq");
    if (!(await playOneMove(table, ruleset))) {
      throw new Error(`no move found for ${ruleset} at move ${moves}: ${await table.page.locator(".board-status").allInnerTexts()}`);
    }
    moves++;
    // Wait for the move to land (the seq moves on) or an error banner.
    await table.page.waitForFunction((b) => {
      const now = document.querySelector(".table-head")?.getAttribute("data-seq");
      return now !== b || document.querySelector(".banner--bad") || document.querySelector(".result");
    }, before, { timeout: 60000 });
    const err = table.page.locator(".banner--bad");
    if ((await err.count()) > 0) throw new Error(`refused: ${await err.innerText()}`);
  }
  throw new Error(`${ruleset}: no result after ${maxMoves} moves`);
}
