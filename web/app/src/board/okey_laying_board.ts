// The okey51 and okey101 table: the rack, the melds on the table, the deck, the indicator and the
// discard piles. The player draws or takes, groups tiles into melds (an opening is several melds
// laid at once, previewed by the page with a dry run), adds tiles to melds and discards; by
// click or tap, by dragging, or by keyboard. Emits moves; knows nothing of the server.
import type { Move, OkeyLayingMove, OkeyLayingView, OkeyTableMeld, View } from "../api";
import { OkeyMeldKind, OkeyOpened, OkeyPlace } from "../api";
import { button, fill, h } from "../ui/dom";
import { idleStatus, type Board, type BoardContext, type Emit, type MoveInit } from "./types";
import { OkeyRack } from "./okey_rack";
import { deckAndIndicator, seatPanel } from "./okey_seats";
import { seatsAround } from "./seats";
import { describeTile, playsAs, tileElement } from "./okey_tiles";
import { describeGroup, isPair, readMeld, type PlacedTile } from "./okey_melds";

type Ruleset = "okey51" | "okey101";
type Staged = { kind: "meld"; tiles: PlacedTile[]; value: number } | { kind: "pair"; tiles: [string, string] };

const PLACE_NAMES: Record<number, string> = {
  [OkeyPlace.RUN_LOW]: "at the low end",
  [OkeyPlace.RUN_HIGH]: "at the high end",
  [OkeyPlace.SET_COLOUR]: "in the set",
  [OkeyPlace.REPLACE_OKEY]: "in the okey's place (taking the okey)",
};

export function createOkeyLayingBoard(root: HTMLElement, emit: Emit): Board {
  return new OkeyLayingBoard(root, emit);
}

class OkeyLayingBoard implements Board {
  private readonly rack: OkeyRack;
  private readonly seatsEl = h("div", { class: "okey-seats" });
  private readonly tableEl = h("section", { class: "melds", "aria-label": "Melds on the table" });
  private readonly centreEl = h("div", { class: "okey-centre" });
  private readonly actionsEl = h("div", { class: "actions", role: "group", "aria-label": "Actions" });
  private readonly stagingEl = h("section", { class: "staging", "aria-label": "Groups to lay" });
  private readonly statusEl = h("p", { class: "board-status", "aria-live": "polite" });
  private ruleset: Ruleset = "okey51";
  private view: View | null = null;
  private lv: OkeyLayingView | null = null;
  private legal: OkeyLayingMove[] = [];
  private ctx: BoardContext | null = null;
  private staged: Staged[] = [];
  /** Taking the discard: the taken tile joins the rack until the take's use is chosen. */
  private taking = false;
  private hinted: import("../api").OkeyHints | null = null;

  constructor(private readonly root: HTMLElement, private readonly emit: Emit) {
    this.rack = new OkeyRack({
      onSelect: () => this.renderActions(),
      onDrop: (tiles, target) => this.dropped(tiles, target),
    });
    fill(root,
      h("div", { class: "okey-board" },
        this.seatsEl,
        h("div", { class: "okey-middle" }, this.centreEl, this.tableEl),
        h("div", { class: "okey-mine" }, this.statusEl, this.stagingEl, this.actionsEl, this.rack.el)));
  }

  update(view: View, legal: Move[], ctx: BoardContext): void {
    const rs = view.ruleset;
    if (rs.case !== "okey51" && rs.case !== "okey101") return;
    const dealChanged = this.lv !== null && this.lv.deal !== rs.value.deal;
    this.ruleset = rs.case;
    this.view = view;
    this.lv = rs.value;
    this.ctx = ctx;
    this.legal = legal.flatMap((m) => (m.ruleset.case === this.ruleset ? [m.ruleset.value as OkeyLayingMove] : []));
    if (!this.legal.some((m) => m.action.case === "takeDiscard")) this.taking = false;
    // Groups put aside stay while the player is to act (a preview pending, a move on its way).
    if (dealChanged || !view.toAct.includes(view.seat)) this.staged = [];
    this.dropStaleStaging();
    this.render();
  }

  destroy(): void {
    this.root.replaceChildren();
  }

  private get hand(): string[] {
    const lv = this.lv!;
    const base = [...lv.myHand];
    if (this.taking && lv.takeableDiscard) base.push(lv.takeableDiscard);
    return base;
  }

  /** Tiles of the hand not yet staged into a group. */
  private freeTiles(): string[] {
    const left = [...this.hand];
    for (const g of this.staged) {
      const tiles = g.kind === "meld" ? g.tiles.map((t) => t.tile) : g.tiles;
      for (const t of tiles) {
        const i = left.indexOf(t);
        if (i >= 0) left.splice(i, 1);
      }
    }
    return left;
  }

  private dropStaleStaging(): void {
    // A staged group whose tiles left the hand (undo, a new deal) is dropped.
    const left = [...this.hand];
    this.staged = this.staged.filter((g) => {
      const tiles = g.kind === "meld" ? g.tiles.map((t) => t.tile) : [...g.tiles];
      const copy = [...left];
      for (const t of tiles) {
        const i = copy.indexOf(t);
        if (i < 0) return false;
        copy.splice(i, 1);
      }
      left.splice(0, left.length, ...copy);
      return true;
    });
  }

  private render(): void {
    const view = this.view!;
    const lv = this.lv!;
    const ctx = this.ctx!;
    const viewer = view.seat;
    const okey = lv.okey;
    const hints = ctx.hints?.ruleset.case === this.ruleset ? ctx.hints.ruleset.value as import("../api").OkeyHints : null;
    this.rack.setHand(this.freeTiles(), okey, ctx.drawn, ctx.active, hints?.penaltyTiles ?? []);
    this.hinted = hints;
    this.renderSeats(view, lv, ctx, viewer, okey);
    const canDraw = this.legal.some((m) => m.action.case === "draw");
    fill(this.centreEl, deckAndIndicator(lv.deckCount, lv.indicator, okey,
      canDraw ? () => this.emit({ move: this.wrap({ action: { case: "draw", value: {} } }), label: "Draw from the deck", preview: true }) : null),
    h("div", { class: "deal-info" }, `Deal ${lv.deal} of ${lv.deals}`,
      lv.openingNeeds ? ` · opening needs ${lv.openingNeeds}` : "", lv.teams ? " · 2v2" : ""));
    this.renderMelds(lv, ctx);
    this.renderStaging();
    this.renderActions();
  }

  private renderSeats(view: View, lv: OkeyLayingView, ctx: BoardContext, viewer: number, okey: string): void {
    const n = view.numSeats;
    const takeSeat = lv.takeableDiscard ? (viewer - 1 + n) % n : -1;
    const canTake = this.legal.some((m) => m.action.case === "takeDiscard");
    const panels = seatsAround(viewer, n).map((seat) => {
      let takeable: HTMLElement | null = null;
      if (seat === takeSeat && canTake) {
        takeable = tileElement(lv.takeableDiscard, { okey, interactive: true, small: true,
          extraLabel: "take this discard", classes: ["is-legal", this.taking ? "is-selected" : ""] });
        takeable.addEventListener("click", () => this.toggleTake());
      }
      const opened = lv.opened[seat] ?? OkeyOpened.NONE;
      const facts = [
        opened === OkeyOpened.MELDS ? "opened" : opened === OkeyOpened.PAIRS ? "opened with pairs" : "not opened",
        `penalties ${lv.penalties[seat] ?? 0}`,
        `total ${lv.totals[seat] ?? 0}`,
      ];
      return seatPanel({
        seat, name: ctx.seatNames[seat] ?? `Seat ${seat + 1}`, handCount: lv.handCounts[seat] ?? 0,
        pile: lv.discards[seat]?.tiles ?? [], pileCount: lv.discards[seat]?.tiles.length ?? 0,
        toAct: view.toAct.includes(seat), facts,
      }, viewer, n, okey, takeable);
    });
    // My own pile is where a discard is dropped.
    fill(this.seatsEl, ...panels);
    const mine = this.seatsEl.querySelector<HTMLElement>(`[data-seat-pile="${viewer}"]`);
    if (mine && this.legal.some((m) => m.action.case === "discard")) mine.dataset.drop = "discard";
  }

  private renderMelds(lv: OkeyLayingView, ctx: BoardContext): void {
    const selected = this.rack.selectedTiles();
    const single = selected.length === 1 ? selected[0]! : null;
    const melds = lv.table.map((m) => {
      const places = single ? this.additionsFor(single, m.index) : [];
      const owner = ctx.seatNames[m.owner] ?? `Seat ${m.owner + 1}`;
      const kind = m.kind === OkeyMeldKind.OKEY_RUN ? "run" : m.kind === OkeyMeldKind.OKEY_SET ? "set" : "pair";
      const label = `Meld ${m.index + 1}: ${owner}'s ${kind} ${m.tiles.map((t) => t.tile).join(" ")}, worth ${m.value}`;
      const tiles = m.tiles.map((t) => tileElement(t.tile, { okey: lv.okey, small: true, standsFor: t.standsFor }));
      const addable = this.legal.some((mv) => this.isAdditionTo(mv, m.index));
      const attrs = { class: `meld meld--${kind}${places.length ? " is-legal" : ""}`, "data-meld": m.index,
        "data-drop": addable ? "meld" : null, "aria-label": places.length ? `Add ${single} to ${label}` : label };
      const el = places.length || addable
        ? h("button", { type: "button", ...attrs }, ...tiles)
        : h("div", { ...attrs, role: "group" }, ...tiles);
      if (places.length || addable) el.addEventListener("click", () => this.addTo(m));
      return el;
    });
    fill(this.tableEl, melds.length ? melds : h("p", { class: "muted" }, "No melds on the table yet."));
  }

  private renderStaging(): void {
    if (this.staged.length === 0) {
      this.stagingEl.hidden = true;
      return;
    }
    this.stagingEl.hidden = false;
    const groups = this.staged.map((g, i) => {
      const tiles = g.kind === "meld" ? g.tiles : g.tiles.map((t) => ({ tile: t, standsFor: "" }));
      const remove = button("Take back", () => { this.staged.splice(i, 1); this.render(); },
        { class: "chip", "aria-label": `Take back group ${i + 1}` });
      return h("div", { class: "staged", role: "group", "aria-label": `Group ${i + 1}: ${describeGroup(tiles)}` },
        ...tiles.map((t) => tileElement(t.tile, { okey: this.lv!.okey, small: true, standsFor: t.standsFor })),
        g.kind === "meld" ? h("span", { class: "staged__value" }, String(g.value)) : null, remove);
    });
    const sum = this.staged.reduce((s, g) => s + (g.kind === "meld" ? g.value : 0), 0);
    fill(this.stagingEl, h("h3", {}, "To lay", sum ? ` · worth ${sum}` : ""), h("div", { class: "staged-list" }, ...groups));
  }

  private renderActions(): void {
    const lv = this.lv;
    const ctx = this.ctx;
    if (!lv || !ctx) return;
    const out: HTMLElement[] = [];
    const sel = this.rack.selectedTiles();
    const okey = lv.okey;
    this.renderMelds(lv, ctx);
    if (!ctx.active || this.legal.length === 0) {
      fill(this.actionsEl);
      fill(this.statusEl, ctx.active ? "" : idleStatus(ctx, !!this.view?.over));
      return;
    }
    const mustDraw = this.legal.some((m) => m.action.case === "draw" || m.action.case === "takeDiscard") && !lv.drawn;
    if (mustDraw && !this.taking) {
      fill(this.statusEl, "Your turn: draw from the deck, or take the discard with its use.");
    } else if (this.taking) {
      fill(this.statusEl, `Taking ${lv.takeableDiscard}: it must reach the table in this move. Group it, or add it to a meld.`);
    } else {
      fill(this.statusEl, "Your turn: lay or add tiles, then discard one.");
    }
    if (this.hinted && this.hinted.groups.length) {
      const order = [...this.hinted.groups.flatMap((g) => g.tiles.map((t) => t.tile)), ...this.hinted.loose];
      out.push(button("Arrange as hinted", () => this.rack.arrange(order), { class: "chip" }));
    }
    if (this.taking) {
      out.push(button("Cancel the take", () => { this.taking = false; this.staged = []; this.render(); }));
    }
    // Grouping the selection.
    if (sel.length >= 3 && (this.taking || lv.drawn)) {
      const reading = readMeld(sel, okey);
      if (reading) {
        out.push(button(`Group as ${reading.kind} (${reading.value})`, () => {
          this.staged.push({ kind: "meld", tiles: reading.tiles, value: reading.value });
          this.rack.clearSelection();
          this.render();
        }));
      }
    }
    if (sel.length === 2 && isPair(sel[0]!, sel[1]!, okey) && (this.taking || lv.drawn)) {
      out.push(button(`Group as pair`, () => {
        this.staged.push({ kind: "pair", tiles: [sel[0]!, sel[1]!] });
        this.rack.clearSelection();
        this.render();
      }));
    }
    if (this.staged.length > 0) out.push(this.layButton());
    // Discarding one tile.
    if (sel.length === 1 && !this.taking) {
      const t = sel[0]!;
      const d = this.legal.find((m) => m.action.case === "discard" && m.action.value.tile === t);
      if (d) {
        out.push(button(`Discard ${t}`, () => this.discard(t), { class: "primary" }));
      }
    }
    // Listed openings and takes, as one-tap choices.
    if (!this.taking && lv.drawn && this.staged.length === 0) {
      for (const m of this.legal) {
        if (m.action.case === "layMelds" && m.action.value.melds.length > 1) {
          const sum = m.action.value.melds.reduce((s, x) => s + meldValue(x.tiles, this.lv!.okey), 0);
          out.push(button(`Suggested opening (${m.action.value.melds.length} melds, ${sum})`, () => this.stageMove(m)));
        }
        if (m.action.case === "layPairs" && m.action.value.pairs.length >= 5 && lv.opened[this.view!.seat] === OkeyOpened.NONE) {
          out.push(button(`Suggested pairs opening (${m.action.value.pairs.length} pairs)`, () => this.stageMove(m)));
        }
      }
    }
    if (this.taking) {
      for (const m of this.legal) {
        if (m.action.case !== "takeDiscard") continue;
        out.push(button(this.describeTake(m), () => this.emit({ move: this.wrap(m), label: this.describeTake(m), preview: true })));
      }
    }
    fill(this.actionsEl, ...out);
  }

  private layButton(): HTMLElement {
    const melds = this.staged.filter((g) => g.kind === "meld") as Extract<Staged, { kind: "meld" }>[];
    const pairs = this.staged.filter((g) => g.kind === "pair") as Extract<Staged, { kind: "pair" }>[];
    if (melds.length && pairs.length) {
      return h("span", { class: "muted" }, "Lay melds and pairs in separate moves.");
    }
    const lay: OkeyLayingMove["action"] = melds.length
      ? { case: "layMelds", value: { melds: melds.map((g) => ({ tiles: g.tiles })) } as never }
      : { case: "layPairs", value: { pairs: pairs.map((g) => ({ first: g.tiles[0], second: g.tiles[1] })) } as never };
    const opening = this.lv!.opened[this.view!.seat] === OkeyOpened.NONE;
    const what = melds.length ? `${melds.length} meld${melds.length > 1 ? "s" : ""}` : `${pairs.length} pairs`;
    let label = `${opening ? "Open with" : "Lay"} ${what}`;
    let action: MoveInit;
    if (this.taking) {
      label = `Take ${this.lv!.takeableDiscard} and ${label.toLowerCase()}`;
      action = this.wrap({ action: { case: "takeDiscard", value: { use: lay } } } as never);
    } else {
      action = this.wrap({ action: lay } as never);
    }
    return button(label, () => this.emit({ move: action, label, preview: true }), { class: "primary" });
  }

  private stageMove(m: OkeyLayingMove): void {
    if (m.action.case === "layMelds") {
      this.staged = m.action.value.melds.map((x) => ({
        kind: "meld" as const,
        tiles: x.tiles.map((t) => ({ tile: t.tile, standsFor: t.standsFor })),
        value: meldValue(x.tiles, this.lv!.okey),
      }));
    } else if (m.action.case === "layPairs") {
      this.staged = m.action.value.pairs.map((p) => ({ kind: "pair" as const, tiles: [p.first, p.second] as [string, string] }));
    }
    this.rack.clearSelection();
    this.render();
  }

  private toggleTake(): void {
    this.taking = !this.taking;
    this.staged = [];
    this.render();
  }

  private discard(tile: string): void {
    this.emit({ move: this.wrap({ action: { case: "discard", value: { tile } } } as never), label: `Discard ${describeTile(tile, this.lv!.okey)}`, preview: false });
  }

  private additionsFor(tile: string, meld: number): OkeyLayingMove[] {
    return this.legal.filter((m) => {
      if (this.taking) {
        return m.action.case === "takeDiscard" && m.action.value.use.case === "addTile" &&
          m.action.value.use.value.tile === tile && m.action.value.use.value.meld === meld && m.action.value.furtherLays.length === 0;
      }
      return m.action.case === "addTile" && m.action.value.tile === tile && m.action.value.meld === meld;
    });
  }

  private isAdditionTo(m: OkeyLayingMove, meld: number): boolean {
    if (this.taking) return m.action.case === "takeDiscard" && m.action.value.use.case === "addTile" && m.action.value.use.value.meld === meld;
    return m.action.case === "addTile" && m.action.value.meld === meld;
  }

  private addTo(meld: OkeyTableMeld, tiles?: string[]): void {
    const sel = tiles ?? this.rack.selectedTiles();
    if (sel.length !== 1) {
      fill(this.statusEl, "Select one tile of your rack, then the meld to add it to.");
      return;
    }
    const options = this.additionsFor(sel[0]!, meld.index);
    if (options.length === 0) {
      fill(this.statusEl, `${sel[0]} does not fit meld ${meld.index + 1}.`);
      return;
    }
    if (options.length === 1) {
      this.emitAddition(options[0]!);
      return;
    }
    // Several places (both ends of a run, or an okey's place): let the player pick.
    fill(this.actionsEl, ...options.map((m) => button(this.describeAddition(m), () => this.emitAddition(m))),
      button("Cancel", () => this.renderActions()));
    (this.actionsEl.firstElementChild as HTMLElement | null)?.focus();
  }

  private emitAddition(m: OkeyLayingMove): void {
    const label = this.describeAddition(m);
    this.emit({ move: this.wrap(m), label, preview: true });
  }

  private describeAddition(m: OkeyLayingMove): string {
    const add = m.action.case === "addTile" ? m.action.value
      : m.action.case === "takeDiscard" && m.action.value.use.case === "addTile" ? m.action.value.use.value : null;
    if (!add) return "Add";
    const take = m.action.case === "takeDiscard" ? `Take ${add.tile} and add` : `Add ${add.tile}`;
    return `${take} to meld ${add.meld + 1} ${PLACE_NAMES[add.place] ?? ""}`.trim();
  }

  private describeTake(m: OkeyLayingMove): string {
    if (m.action.case !== "takeDiscard") return "";
    const use = m.action.value.use;
    const tile = this.lv!.takeableDiscard;
    if (use.case === "addTile") return this.describeAddition(m);
    if (use.case === "layMelds") {
      return `Take ${tile} and lay ${use.value.melds.map((x) => x.tiles.map((t) => t.tile).join("-")).join(", ")}`;
    }
    if (use.case === "layPairs") return `Take ${tile} and open with ${use.value.pairs.length} pairs`;
    return `Take ${tile}`;
  }

  private dropped(tiles: string[], target: HTMLElement): void {
    const drop = target.dataset.drop;
    if (drop === "discard" && tiles.length === 1 && !this.taking) {
      if (this.legal.some((m) => m.action.case === "discard" && m.action.value.tile === tiles[0])) this.discard(tiles[0]!);
      return;
    }
    if (drop === "meld") {
      const meld = this.lv!.table.find((m) => m.index === Number(target.dataset.meld));
      if (meld) this.addTo(meld, tiles);
    }
  }

  /** Wraps a ruleset move in the Move oneof. */
  private wrap(m: unknown): MoveInit {
    return { ruleset: { case: this.ruleset, value: m } } as MoveInit;
  }
}

/**
 * A laid meld's worth: each tile counts the number it stands for, a fake okey the okey's number,
 * and an okey left open in a set the set's number.
 */
function meldValue(tiles: readonly { tile: string; standsFor: string }[], okey: string): number {
  const nums = tiles.map((t) => (t.standsFor ? Number(t.standsFor.slice(1)) : t.tile === okey ? null : Number(playsAs(t.tile, okey).slice(1)) || 0));
  const setNumber = nums.find((n) => n !== null) ?? 0;
  return nums.reduce<number>((sum, n) => sum + (n ?? setNumber), 0);
}
