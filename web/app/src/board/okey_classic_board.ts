// The classic okey table: the rack, the deck and indicator, each seat's discard pile (the
// browsing rule is the view's), points; draw or take, then discard or win by discarding the
// 15th tile; gösterme when the view offers it. Emits moves; knows nothing of the server.
import type { Move, OkeyMove, OkeyView, View } from "../api";
import { button, fill, h } from "../ui/dom";
import { idleStatus, type Board, type BoardContext, type Emit, type MoveInit } from "./types";
import { OkeyRack } from "./okey_rack";
import { deckAndIndicator, seatPanel } from "./okey_seats";
import { seatsAround } from "./seats";
import { describeTile, tileElement } from "./okey_tiles";

export function createOkeyClassicBoard(root: HTMLElement, emit: Emit): Board {
  return new OkeyClassicBoard(root, emit);
}

class OkeyClassicBoard implements Board {
  private readonly rack: OkeyRack;
  private readonly seatsEl = h("div", { class: "okey-seats" });
  private readonly centreEl = h("div", { class: "okey-centre" });
  private readonly actionsEl = h("div", { class: "actions", role: "group", "aria-label": "Actions" });
  private readonly statusEl = h("p", { class: "board-status", "aria-live": "polite" });
  private view: View | null = null;
  private ov: OkeyView | null = null;
  private legal: OkeyMove[] = [];
  private ctx: BoardContext | null = null;

  constructor(private readonly root: HTMLElement, private readonly emit: Emit) {
    this.rack = new OkeyRack({
      onSelect: () => this.renderActions(),
      onDrop: (tiles, target) => {
        if (target.dataset.drop === "discard" && tiles.length === 1) this.discard(tiles[0]!);
      },
    });
    fill(root, h("div", { class: "okey-board okey-board--classic" },
      this.seatsEl,
      h("div", { class: "okey-middle" }, this.centreEl),
      h("div", { class: "okey-mine" }, this.statusEl, this.actionsEl, this.rack.el)));
  }

  update(view: View, legal: Move[], ctx: BoardContext): void {
    if (view.ruleset.case !== "okey") return;
    this.view = view;
    this.ov = view.ruleset.value;
    this.ctx = ctx;
    this.legal = legal.flatMap((m) => (m.ruleset.case === "okey" ? [m.ruleset.value] : []));
    this.render();
  }

  destroy(): void {
    this.root.replaceChildren();
  }

  private render(): void {
    const view = this.view!;
    const ov = this.ov!;
    const ctx = this.ctx!;
    const n = view.numSeats;
    this.rack.setHand(ov.myHand, ov.okey, ctx.drawn, ctx.active);
    const takeSeat = (view.seat - 1 + n) % n;
    const take = this.legal.find((m) => m.action.case === "takeDiscard" && !m.action.value.win);
    const panels = seatsAround(view.seat, n).map((seat) => {
      let takeable: HTMLElement | null = null;
      if (seat === takeSeat && take && ov.takeableDiscard) {
        takeable = tileElement(ov.takeableDiscard, { okey: ov.okey, interactive: true, small: true,
          extraLabel: "take this discard", classes: ["is-legal"] });
        takeable.addEventListener("click", () => this.emit({ move: wrap(take), label: `Take ${ov.takeableDiscard}`, preview: false }));
      }
      return seatPanel({
        seat, name: ctx.seatNames[seat] ?? `Seat ${seat + 1}`, handCount: ov.handCounts[seat] ?? 0,
        pile: ov.discards[seat]?.tiles ?? [], pileCount: ov.discards[seat]?.count ?? 0,
        toAct: view.toAct.includes(seat),
        facts: [`${ov.points[seat] ?? 0} points`, ov.inPlay.length && !ov.inPlay[seat] ? "out" : ""].filter(Boolean),
      }, view.seat, n, ov.okey, takeable);
    });
    fill(this.seatsEl, ...panels);
    const mine = this.seatsEl.querySelector<HTMLElement>(`[data-seat-pile="${view.seat}"]`);
    if (mine && this.legal.some((m) => m.action.case === "discard")) mine.dataset.drop = "discard";
    const draw = this.legal.find((m) => m.action.case === "draw");
    fill(this.centreEl, deckAndIndicator(ov.deckCount, ov.indicator, ov.okey,
      draw ? () => this.emit({ move: wrap(draw), label: ov.deckCount > 0 ? "Draw from the deck" : "Decline (the deck is empty: the deal ends)", preview: true }) : null),
    h("div", { class: "deal-info" }, `Deal ${ov.deal}`));
    this.renderActions();
  }

  private renderActions(): void {
    const ov = this.ov;
    const ctx = this.ctx;
    if (!ov || !ctx) return;
    const out: HTMLElement[] = [];
    const show = this.legal.find((m) => m.action.case === "showIndicator");
    if (ov.mayShowIndicator) {
      // Gösterme may be shown out of turn, so it is offered whenever the view says so.
      out.push(button(`Show the indicator's twin (${ov.indicator})`, () =>
        this.emit({ move: wrap(show ?? { action: { case: "showIndicator", value: {} } }), label: `Show ${ov.indicator} (gösterme)`, preview: false })));
    }
    if (!ctx.active || this.legal.length === 0) {
      fill(this.statusEl, ctx.active ? "" : idleStatus(ctx, !!this.view?.over));
      fill(this.actionsEl, ...out);
      return;
    }
    const drawn = ov.drawn;
    fill(this.statusEl, drawn ? "Your turn: discard a tile, or win by discarding your 15th tile."
      : "Your turn: draw from the deck or take the discard.");
    const sel = this.rack.selectedTiles();
    if (sel.length === 1) {
      const t = sel[0]!;
      if (this.legal.some((m) => m.action.case === "discard" && m.action.value.tile === t)) {
        out.push(button(`Discard ${t}`, () => this.discard(t), { class: "primary" }));
      }
      for (const m of this.legal) {
        if (m.action.case === "win" && m.action.value.discard === t) {
          const label = `Win by discarding ${t}${m.action.value.sevenPairs ? " (seven pairs)" : ""}`;
          out.push(button(label, () => this.emit({ move: wrap(m), label, preview: true }), { class: "primary" }));
        }
      }
    }
    // Wins and takes-to-win are listed in full: offer them without a selection too.
    for (const m of this.legal) {
      if (m.action.case === "takeDiscard" && m.action.value.win) {
        const label = `Take ${ov.takeableDiscard} and win`;
        out.push(button(label, () => this.emit({ move: wrap(m), label, preview: true }), { class: "primary" }));
      }
      if (m.action.case === "win" && sel.length !== 1) {
        const label = `Win by discarding ${m.action.value.discard}${m.action.value.sevenPairs ? " (seven pairs)" : ""}`;
        out.push(button(label, () => this.emit({ move: wrap(m), label, preview: true }), { class: "primary" }));
      }
    }
    fill(this.actionsEl, ...out);
  }

  private discard(tile: string): void {
    const m = this.legal.find((x) => x.action.case === "discard" && x.action.value.tile === tile);
    if (!m) return;
    this.emit({ move: wrap(m), label: `Discard ${describeTile(tile, this.ov!.okey)}`, preview: false });
  }
}

function wrap(m: unknown): MoveInit {
  return { ruleset: { case: "okey", value: m } } as MoveInit;
}
