// The Mexican Train table: the engine double, every personal train with its marker, the Mexican
// train, the boneyard and the player's hand. A tile is chosen in the hand, then a train (click,
// tap, drag or keyboard); the seed asks for a preview of every choice, a draw and the end of a
// first turn, so each is emitted for confirmation. Emits moves; knows nothing of the server.
import type { MexicanTrainMove, MexicanTrainView, Move, View } from "../api";
import { button, fill, h, keepTabStop, rovingFocus } from "../ui/dom";
import { enableDrag } from "./drag";
import { idleStatus, type Board, type BoardContext, type Emit, type MoveInit } from "./types";
import { seatsAround } from "./seats";

export function createMexicanBoard(root: HTMLElement, emit: Emit): Board {
  return new MexicanBoard(root, emit);
}

export function pips(tile: string): [number, number] {
  const [a, b] = tile.split("-").map(Number);
  return [a ?? 0, b ?? 0];
}

/** A domino: two halves, each a number on its own colour (as the apps players know colour pips). */
export function domino(tile: string, opts: { interactive?: boolean; label?: string; flip?: boolean; classes?: string[] } = {}): HTMLElement {
  let [a, b] = pips(tile);
  if (opts.flip) [a, b] = [b, a];
  const cls = ["domino", a === b ? "domino--double" : "", ...(opts.classes ?? [])].filter(Boolean).join(" ");
  const halves = [a, b].map((p) => h("span", { class: `domino__half pip-${p}`, "aria-hidden": "true" }, String(p)));
  const label = opts.label ?? `domino ${tile}`;
  if (opts.interactive) {
    return h("button", { type: "button", class: cls, "aria-label": label, "data-tile": tile }, ...halves);
  }
  return h("span", { class: cls, role: "img", "aria-label": label, "data-tile": tile }, ...halves);
}

class MexicanBoard implements Board {
  private readonly trainsEl = h("section", { class: "trains", "aria-label": "Trains" });
  private readonly handEl = h("div", { class: "hand", role: "group", "aria-label": "Your dominoes" });
  private readonly actionsEl = h("div", { class: "actions", role: "group", "aria-label": "Actions" });
  private readonly statusEl = h("p", { class: "board-status", "aria-live": "polite" });
  private readonly topEl = h("div", { class: "mt-top" });
  private view: View | null = null;
  private mv: MexicanTrainView | null = null;
  private legal: MexicanTrainMove[] = [];
  private ctx: BoardContext | null = null;
  private selected: string | null = null;
  private focusIndex = 0;

  constructor(private readonly root: HTMLElement, private readonly emit: Emit) {
    fill(root, h("div", { class: "mt-board" }, this.topEl, this.trainsEl,
      h("div", { class: "mt-mine" }, this.statusEl, this.actionsEl, this.handEl)));
    rovingFocus(this.handEl, ".domino");
    this.handEl.addEventListener("click", (e) => {
      const d = (e.target as HTMLElement).closest<HTMLElement>(".domino");
      if (!d || !this.ctx?.active) return;
      const tile = d.dataset.tile!;
      this.focusIndex = Number(d.dataset.index);
      this.selected = this.selected === tile ? null : tile;
      this.render();
    });
    enableDrag(this.handEl, ".domino", {
      onDrop: (src, target) => {
        const train = target?.closest<HTMLElement>("[data-train]")?.dataset.train;
        if (train !== undefined) this.playOn(src.dataset.tile!, Number(train));
      },
    });
  }

  update(view: View, legal: Move[], ctx: BoardContext): void {
    if (view.ruleset.case !== "mexicanTrain") return;
    this.view = view;
    this.mv = view.ruleset.value;
    this.ctx = ctx;
    this.legal = legal.flatMap((m) => (m.ruleset.case === "mexicanTrain" ? [m.ruleset.value] : []));
    if (this.selected && !this.mv.myHand.includes(this.selected)) this.selected = null;
    this.render();
  }

  destroy(): void {
    this.root.replaceChildren();
  }

  private playsFor(tile: string): MexicanTrainMove[] {
    return this.legal.filter((m) => m.action.case === "play" && m.action.value.tile === tile);
  }

  private render(): void {
    const view = this.view!;
    const mv = this.mv!;
    const ctx = this.ctx!;
    const n = view.numSeats;
    const hinted = ctx.hints?.ruleset.case === "mexicanTrain" ? ctx.hints.ruleset.value : null;
    const suggested = hinted?.suggested?.action.case === "play" ? hinted.suggested.action.value : null;
    const targets = new Set(this.selected ? this.playsFor(this.selected).map((m) => (m.action.value as { train: number }).train) : []);
    const canDraw = this.legal.find((m) => m.action.case === "draw");

    const boneyard = canDraw
      ? button(`Draw from the boneyard (${mv.boneyardCount} left)`, () =>
        this.emit({ move: wrap(canDraw), label: "Draw a tile from the boneyard", preview: true }), { class: "boneyard is-legal" })
      : h("div", { class: "boneyard", role: "img", "aria-label": `Boneyard, ${mv.boneyardCount} tiles` }, `Boneyard ${mv.boneyardCount}`);
    // The game's last view has the table cleared; empty trains read as a broken board.
    const cleared = view.over && mv.trains.every((t) => t.tiles.length === 0) && (mv.mexican?.tiles.length ?? 0) === 0;
    if (cleared) fill(this.topEl, h("div", { class: "mt-engine" }, h("span", { class: "muted" }, `Round ${mv.round} of 13 · game over`)));
    else fill(this.topEl,
      h("div", { class: "mt-engine" }, h("span", { class: "muted" }, `Round ${mv.round} of 13 · engine`),
        domino(mv.engine, { label: `engine ${mv.engine}, placed by ${ctx.seatNames[mv.engineOwner] ?? "?"}`, classes: ["domino--engine"] })),
      boneyard);

    const trainRow = (train: number, name: string, t: { tiles: string[]; end: number; marked: boolean } | undefined, count: number | null) => {
      const tiles = t?.tiles ?? [];
      const legalHere = targets.has(train);
      const open = mv.openDoubles.includes(train);
      const pending = ctx.pending && isPlayOn(ctx.pending.move, train) ? pendingTile(ctx.pending.move) : null;
      const label = `${name}: ${tiles.length} tiles, ends in ${t?.end ?? "?"}${t?.marked ? ", marked" : ""}${open ? ", open double" : ""}`;
      const drop = h("button", { type: "button", class: `train__end${legalHere ? " is-legal" : ""}`, "data-train": train,
        "data-drop": "train", disabled: !legalHere,
        "aria-label": legalHere ? `Play ${this.selected} on ${name}` : `${name} end ${t?.end ?? ""}` }, String(t?.end ?? ""));
      drop.addEventListener("click", () => this.selected && this.playOn(this.selected, train));
      const shown = tiles.slice(-8);
      return h("div", { class: `train${t?.marked ? " is-marked" : ""}${open ? " has-open-double" : ""}${view.toAct.includes(train) ? " is-turn" : ""}`, role: "group", "aria-label": label, "data-train-row": train },
        h("div", { class: "train__name" }, name, t?.marked ? h("span", { class: "marker", title: "marked: open to everyone" }, " ⚑") : null,
          count !== null ? h("span", { class: "muted" }, ` · ${count} in hand`) : null,
          view.toAct.includes(train) ? h("span", { class: "seat__turn" }, "to play") : null),
        h("div", { class: "train__tiles" },
          tiles.length > shown.length ? h("span", { class: "muted" }, `+${tiles.length - shown.length}`) : null,
          ...shown.map((tile, i) => domino(tile, { flip: orientFlip(tiles, tiles.length - shown.length + i, pips(mv.engine)[0]) })),
          pending ? domino(pending, { classes: ["is-ghost"], label: `preview ${pending}` }) : null,
          suggested && suggested.train === train ? h("span", { class: "hint-mark" }, `hint: ${suggested.tile}`) : null,
          drop));
    };
    const rows = seatsAround(view.seat, n).map((seat) =>
      trainRow(seat, seat === view.seat ? "Your train" : `${ctx.seatNames[seat] ?? `Seat ${seat + 1}`}'s train`, mv.trains[seat], seat === view.seat ? null : mv.handCounts[seat] ?? 0));
    rows.push(trainRow(-1, "Mexican train", mv.mexican, null));
    if (cleared) fill(this.trainsEl, h("p", { class: "board-status" }, "The game is over: the last round's hands and scores are in the round summary below."));
    else fill(this.trainsEl, ...rows);

    // The hand.
    const plan = hinted?.ownTrainPlan ?? [];
    const hand = mv.myHand.map((tile, i) => {
      const playable = this.playsFor(tile).length > 0;
      const el = domino(tile, { interactive: true,
        label: `domino ${tile}${playable ? ", playable" : ""}${this.selected === tile ? ", selected" : ""}${ctx.drawn === tile ? ", just drawn" : ""}${plan.includes(tile) ? ", in the hinted plan" : ""}`,
        classes: [playable && ctx.active ? "is-legal" : "", this.selected === tile ? "is-selected" : "", ctx.drawn === tile ? "is-drawn" : "", plan.includes(tile) ? "is-planned" : ""] });
      el.setAttribute("aria-pressed", this.selected === tile ? "true" : "false");
      el.dataset.index = String(i);
      return el;
    });
    const hadFocus = this.handEl.contains(document.activeElement);
    this.handEl.replaceChildren(...hand);
    this.focusIndex = Math.min(this.focusIndex, hand.length - 1);
    keepTabStop(hand, this.focusIndex);
    if (hadFocus) hand[this.focusIndex]?.focus();

    // Status and actions.
    const out: HTMLElement[] = [];
    if (!ctx.active || this.legal.length === 0) {
      fill(this.statusEl, ctx.active ? "" : idleStatus(ctx, !!this.view?.over));
    } else {
      const why = mv.bound ? `You must satisfy the open double on ${mv.openDoubles[0] === -1 ? "the Mexican train" : `train ${(mv.openDoubles[0] ?? 0) + 1}`}. `
        : mv.firstTurn ? "Your first turn: lay a chain on your own train. " : "";
      fill(this.statusEl, `${why}${this.selected ? `Choose a train for ${this.selected}.` : "Choose a domino, then a train."}`);
      const pass = this.legal.find((m) => m.action.case === "pass");
      if (pass) out.push(button("Pass (mark your train)", () => this.emit({ move: wrap(pass), label: "Pass and mark your train", preview: true })));
      const end = this.legal.find((m) => m.action.case === "endFirstTurn");
      if (end) out.push(button("End your first turn", () => this.emit({ move: wrap(end), label: "End your first turn", preview: true })));
      if (suggested && hinted?.suggested) {
        const s = hinted.suggested;
        out.push(button(`Play the hint (${suggested.tile})`, () => this.emit({ move: wrap(s), label: `Play ${suggested.tile} on ${trainName(suggested.train, view.seat, ctx)}`, preview: true })));
      }
    }
    fill(this.actionsEl, ...out);
  }

  private playOn(tile: string, train: number): void {
    const m = this.playsFor(tile).find((x) => (x.action.value as { train: number }).train === train);
    if (!m) {
      fill(this.statusEl, `${tile} cannot go on that train.`);
      return;
    }
    this.emit({ move: wrap(m), label: `Play ${tile} on ${trainName(train, this.view!.seat, this.ctx!)}`, preview: true });
  }
}

function trainName(train: number, viewer: number, ctx: BoardContext): string {
  if (train === -1) return "the Mexican train";
  if (train === viewer) return "your train";
  return `${ctx.seatNames[train] ?? `seat ${train + 1}`}'s train`;
}

/** Draws each tile of a train with the matching pips touching: flips a tile whose low pip is not the join. */
function orientFlip(tiles: string[], i: number, enginePip: number): boolean {
  let end = enginePip;
  for (let k = 0; k <= i; k++) {
    const [a, b] = pips(tiles[k]!);
    const flip = a !== end;
    if (k === i) return flip;
    end = flip ? a : b;
  }
  return false;
}

function isPlayOn(move: MoveInit, train: number): boolean {
  const r = move.ruleset as { case?: string; value?: { action?: { case?: string; value?: { train?: number } } } } | undefined;
  return r?.case === "mexicanTrain" && r.value?.action?.case === "play" && (r.value.action.value?.train ?? 0) === train;
}

function pendingTile(move: MoveInit): string | null {
  const r = move.ruleset as { value?: { action?: { value?: { tile?: string } } } } | undefined;
  return r?.value?.action?.value?.tile ?? null;
}

function wrap(m: unknown): MoveInit {
  return { ruleset: { case: "mexicanTrain", value: m } } as MoveInit;
}
