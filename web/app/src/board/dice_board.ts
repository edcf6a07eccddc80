// The Liar's dice table ("Не верю"): the player's own dice, every seat's cup with its dice count,
// the round's bids, a bid picker that offers only legal bids, the challenge and the Путана
// (putana) declaration when the view offers it, and the dice revealed after the last challenge.
// Emits moves; knows nothing of the server.
import type { LiarsDiceMove, LiarsDiceView, Move, View } from "../api";
import { button, fill, h } from "../ui/dom";
import { idleStatus, type Board, type BoardContext, type Emit, type MoveInit } from "./types";
import { seatsAround, sideOf } from "./seats";

const FACE_NAMES = ["", "ones", "twos", "threes", "fours", "fives", "sixes"];

export function createDiceBoard(root: HTMLElement, emit: Emit): Board {
  return new DiceBoard(root, emit);
}

/** A die face with its pips. */
export function die(face: number, label?: string, classes = ""): HTMLElement {
  return h("span", { class: `die die-${face} ${classes}`.trim(), role: "img", "aria-label": label ?? `die showing ${face}` },
    ...Array.from({ length: face }, () => h("i", { "aria-hidden": "true" })));
}

export function bidText(q: number, face: number): string {
  return `${q} × ${face === 1 ? "ones" : FACE_NAMES[face]}`;
}

class DiceBoard implements Board {
  private readonly seatsEl = h("div", { class: "dice-seats" });
  private readonly centreEl = h("section", { class: "dice-centre", "aria-label": "Bids" });
  private readonly mineEl = h("section", { class: "dice-mine", "aria-label": "Your dice and bid" });
  private view: View | null = null;
  private dv: LiarsDiceView | null = null;
  private legal: LiarsDiceMove[] = [];
  private ctx: BoardContext | null = null;
  private quantity = 1;
  private face = 2;

  constructor(private readonly root: HTMLElement, private readonly emit: Emit) {
    fill(root, h("div", { class: "dice-board" }, this.seatsEl, this.centreEl, this.mineEl));
  }

  update(view: View, legal: Move[], ctx: BoardContext): void {
    if (view.ruleset.case !== "liarsDice") return;
    const roundChanged = this.dv?.round !== view.ruleset.value.round;
    this.view = view;
    this.dv = view.ruleset.value;
    this.ctx = ctx;
    this.legal = legal.flatMap((m) => (m.ruleset.case === "liarsDice" ? [m.ruleset.value] : []));
    if (roundChanged || !this.isLegalBid(this.quantity, this.face)) this.pickLowestBid();
    this.render();
  }

  destroy(): void {
    this.root.replaceChildren();
  }

  private bids(): { quantity: number; face: number; move: LiarsDiceMove }[] {
    return this.legal.flatMap((m) => (m.action.case === "bid" ? [{ quantity: m.action.value.quantity, face: m.action.value.face, move: m }] : []));
  }

  private isLegalBid(q: number, f: number): boolean {
    return this.bids().some((b) => b.quantity === q && b.face === f);
  }

  /** Starts the picker at the cheapest legal bid of the chosen face, or of any face. */
  private pickLowestBid(): void {
    const bids = this.bids();
    const same = bids.filter((b) => b.face === this.face).sort((a, b) => a.quantity - b.quantity)[0];
    const any = [...bids].sort((a, b) => a.quantity - b.quantity || a.face - b.face)[0];
    const pick = same ?? any;
    if (pick) {
      this.quantity = pick.quantity;
      this.face = pick.face;
    }
  }

  private render(): void {
    const view = this.view!;
    const dv = this.dv!;
    const ctx = this.ctx!;
    const n = view.numSeats;
    const reveal = dv.lastReveal;
    const cups = seatsAround(view.seat, n).map((seat) => {
      const count = dv.diceCounts[seat] ?? 0;
      const name = ctx.seatNames[seat] ?? `Seat ${seat + 1}`;
      const lastBid = [...dv.bids].reverse().find((b) => b.seat === seat);
      const revealed = reveal?.dice[seat]?.dice ?? [];
      const turn = view.toAct.includes(seat);
      return h("section", { class: `cup-seat seat--${sideOf(seat, view.seat, n)}${turn ? " is-turn" : ""}${count === 0 ? " is-out" : ""}`,
        "aria-label": `${name}: ${count} ${count === 1 ? "die" : "dice"}${turn ? ", to play" : ""}`, "data-seat": seat },
      h("header", { class: "seat__head" }, h("span", { class: "seat__name" }, name),
        h("span", { class: "seat__count" }, count === 0 ? "out" : `${count} ${count === 1 ? "die" : "dice"}`),
        turn ? h("span", { class: "seat__turn" }, "to play") : null,
        dv.putanaUsed[seat] ? h("span", { class: "badge" }, "Путана used") : null),
      seat === view.seat
        ? h("div", { class: "cup", "aria-hidden": "true" }, ...dv.myDice.map((f) => die(f, "", "die--small")))
        : h("div", { class: "cup", "aria-hidden": "true" }, ...Array.from({ length: count }, () => h("span", { class: "die die--hidden" }))),
      lastBid?.bid ? h("div", { class: "seat__bid" }, `bid ${bidText(lastBid.bid.quantity, lastBid.bid.face)}`) : null,
      revealed.length && (dv.bids.length === 0 || view.over)
        ? h("div", { class: "revealed", "aria-label": `${name} showed ${revealed.join(", ")}` },
          // Labelled: without it the last round's dice read as more dice in the cup.
          h("span", { class: "revealed__label", "aria-hidden": "true" }, "last round"), ...revealed.map((f) => die(f, undefined, "die--small")))
        : null);
    });
    fill(this.seatsEl, ...cups);

    const standing = dv.bids[dv.bids.length - 1];
    fill(this.centreEl,
      h("div", { class: "round-info" }, `Round ${dv.round}`, ` · ${dv.diceOnTable} ${dv.diceOnTable === 1 ? "die" : "dice"} on the table`,
        dv.putanaRound ? h("strong", { class: "putana-banner" }, " · Путана round: ones are not wild, the face is fixed") : null),
      standing?.bid
        ? h("p", { class: "standing-bid", "aria-live": "polite" }, `${ctx.seatNames[standing.seat] ?? ""} ${standing.seat === view.seat ? "bid" : "bids"} `, h("strong", {}, bidText(standing.bid.quantity, standing.bid.face)))
        : h("p", { class: "standing-bid muted" }, "No bid yet this round."),
      reveal && reveal.dice.length && (dv.bids.length === 0 || view.over)
        ? h("p", { class: "reveal-line" }, `Last challenge: ${reveal.counted} counted, the bid ${reveal.bidStood ? "stood" : "failed"}.`)
        : null,
      dv.bids.length ? h("ol", { class: "bid-list", "aria-label": "Bids this round" },
        ...dv.bids.map((b) => h("li", {}, `${ctx.seatNames[b.seat] ?? ""}: ${b.bid ? bidText(b.bid.quantity, b.bid.face) : ""}`))) : null);

    // The player's dice and the bid picker.
    const myDice = h("div", { class: "my-dice", role: "group", "aria-label": `Your dice: ${dv.myDice.join(", ") || "none"}` },
      ...dv.myDice.map((f) => die(f, `your die showing ${f}`)));
    const controls: HTMLElement[] = [];
    if (ctx.active && this.legal.length > 0) {
      const putana = this.legal.find((m) => m.action.case === "declarePutana");
      if (putana) {
        controls.push(button("Declare Путана", () => this.emit({ move: wrap(putana), label: "Declare a Путана round", preview: false }), { class: "putana" }));
      }
      if (this.bids().length) controls.push(this.picker());
      const challenge = this.legal.find((m) => m.action.case === "challenge");
      if (challenge) {
        controls.push(button("Не верю! (challenge)", () => this.emit({ move: wrap(challenge), label: "Challenge the bid", preview: false }), { class: "challenge" }));
      }
    } else {
      controls.push(h("p", { class: "board-status" }, ctx.active ? "" : idleStatus(ctx, view.over)));
    }
    fill(this.mineEl, myDice, h("div", { class: "actions" }, ...controls));
  }

  private picker(): HTMLElement {
    const bids = this.bids();
    const maxQ = Math.max(...bids.map((b) => b.quantity));
    const minQ = Math.min(...bids.filter((b) => b.face === this.face).map((b) => b.quantity), maxQ);
    const qLabel = h("output", { class: "qty", "aria-live": "polite" }, String(this.quantity));
    const less = button("−", () => this.setQuantity(this.quantity - 1), { "aria-label": "One fewer", disabled: this.quantity <= minQ });
    const more = button("+", () => this.setQuantity(this.quantity + 1), { "aria-label": "One more", disabled: this.quantity >= maxQ });
    const faces = [1, 2, 3, 4, 5, 6].map((f) => {
      const possible = bids.some((b) => b.face === f);
      const b = h("button", { type: "button", class: `face-btn${this.face === f ? " is-selected" : ""}`, disabled: !possible,
        "aria-pressed": this.face === f ? "true" : "false", "aria-label": `Face ${f}` }, die(f, ""));
      b.addEventListener("click", () => this.setFace(f));
      return b;
    });
    const legal = this.isLegalBid(this.quantity, this.face);
    const bid = button(`Bid ${bidText(this.quantity, this.face)}`, () => {
      const m = bids.find((x) => x.quantity === this.quantity && x.face === this.face);
      if (m) this.emit({ move: wrap(m.move), label: `Bid ${bidText(this.quantity, this.face)}`, preview: false });
    }, { class: "primary", disabled: !legal });
    return h("div", { class: "bid-picker", role: "group", "aria-label": "Your bid" },
      h("div", { class: "stepper" }, less, qLabel, more), h("div", { class: "faces" }, ...faces), bid);
  }

  private setQuantity(q: number): void {
    this.quantity = q;
    this.render();
    this.mineEl.querySelector<HTMLElement>(".qty")?.focus();
  }

  private setFace(f: number): void {
    this.face = f;
    if (!this.isLegalBid(this.quantity, f)) {
      const same = this.bids().filter((b) => b.face === f).sort((a, b) => a.quantity - b.quantity);
      const atLeast = same.find((b) => b.quantity >= this.quantity) ?? same[0];
      if (atLeast) this.quantity = atLeast.quantity;
    }
    this.render();
    this.mineEl.querySelector<HTMLElement>(`.face-btn[aria-label="Face ${f}"]`)?.focus();
  }
}

function wrap(m: unknown): MoveInit {
  return { ruleset: { case: "liarsDice", value: m } } as MoveInit;
}
