// Seat panels and discard piles drawn around an okey table (classic, okey51, okey101): name, tile
// count, the pile each seat discards onto, and whose turn it is. Public information only.
import { h } from "../ui/dom";
import { sideOf } from "./seats";
import { tileBack, tileElement } from "./okey_tiles";

export interface SeatInfo {
  seat: number;
  name: string;
  handCount: number;
  /** The seat's pile, oldest first, as far as the viewer may see it. */
  pile: readonly string[];
  pileCount: number;
  toAct: boolean;
  /** Lines under the name: points, opened, penalties. */
  facts: string[];
}

/** A seat's panel with its pile; the takeable tile is rendered by the caller. */
export function seatPanel(info: SeatInfo, viewer: number, seats: number, okey: string,
  takeable: HTMLElement | null): HTMLElement {
  const side = sideOf(info.seat, viewer, seats);
  const top = info.pile[info.pile.length - 1];
  const pile = h("div", { class: "pile", "data-seat-pile": info.seat,
    "aria-label": `${info.name}'s discards: ${info.pileCount} tile${info.pileCount === 1 ? "" : "s"}` },
  takeable ?? (top ? tileElement(top, { okey, small: true, extraLabel: `top of ${info.name}'s discards` }) : h("span", { class: "pile__empty" }, "–")),
  info.pile.length > 1
    ? h("details", { class: "pile__all" }, h("summary", {}, `all ${info.pile.length}`),
      h("div", { class: "pile__list" }, ...info.pile.map((t) => tileElement(t, { okey, small: true }))))
    : null);
  const hand = side === "bottom" ? null : h("div", { class: "seat__hand", "aria-hidden": "true" },
    ...Array.from({ length: Math.min(info.handCount, 22) }, () => tileBack("", true)));
  return h("section", {
    class: `seat seat--${side}${info.toAct ? " is-turn" : ""}`,
    "aria-label": `${info.name}${info.toAct ? ", to play" : ""}`,
    "data-seat": info.seat,
  },
  h("header", { class: "seat__head" },
    h("span", { class: "seat__name" }, info.name),
    h("span", { class: "seat__count", title: "tiles in hand" }, `${info.handCount} tiles`),
    info.toAct ? h("span", { class: "seat__turn" }, "to play") : null),
  info.facts.length ? h("div", { class: "seat__facts" }, info.facts.join(" · ")) : null,
  hand, pile);
}

/** The deck (a button when a draw is legal) with the indicator beside it. */
export function deckAndIndicator(deckCount: number, indicator: string, okey: string,
  onDraw: (() => void) | null): HTMLElement {
  const deckLabel = `Deck, ${deckCount} tile${deckCount === 1 ? "" : "s"} left`;
  const deck = onDraw
    ? h("button", { type: "button", class: "deck is-legal", "aria-label": `Draw from the deck (${deckCount} left)`, "data-drop": "deck" },
      tileBack(""), h("span", { class: "deck__count" }, String(deckCount)))
    : h("div", { class: "deck", role: "img", "aria-label": deckLabel }, tileBack(""), h("span", { class: "deck__count" }, String(deckCount)));
  if (onDraw) deck.addEventListener("click", onDraw);
  return h("div", { class: "centre" },
    deck,
    h("figure", { class: "indicator" },
      indicator ? tileElement(indicator, { okey: "", extraLabel: "indicator" }) : tileBack("no indicator"),
      h("figcaption", {}, "indicator", okey ? h("span", { class: "okey-name" }, ` · okey ${okey}`) : null)));
}
