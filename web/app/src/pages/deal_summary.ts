// The end of a deal or round, from its public event: every hand left (the rules show them all
// then), the deal's scores and the totals. Shown until the player moves on; at a pass-and-play
// table this is where everyone sees the hands.
import type { Event } from "../api";
import { OkeyLayingFinish } from "../api";
import { domino } from "../board/mexican_board";
import { tileElement } from "../board/okey_tiles";
import { h } from "../ui/dom";

const FINISH: Record<number, string> = {
  [OkeyLayingFinish.OKEY_FINISH_FROM_HAND]: "finished from the hand",
  [OkeyLayingFinish.OKEY_FINISH_PAIRS]: "finished with pairs",
  [OkeyLayingFinish.OKEY_FINISH_OKEY_DISCARD]: "finished by discarding an okey",
  [OkeyLayingFinish.OKEY_FINISH_DECK_EXHAUSTED]: "the deck ran out",
};

export function dealSummary(ev: Event, names: string[], okey: string, onClose: () => void, all: readonly Event[] = []): HTMLElement | null {
  const r = ev.ruleset;
  const name = (s: number) => names[s] ?? `Seat ${s + 1}`;
  let title = "";
  let rows: HTMLElement[] = [];
  if ((r.case === "okey51" || r.case === "okey101") && r.value.event.case === "dealEnded") {
    const d = r.value.event.value;
    title = `Deal ${d.deal} ended: ${d.finisher >= 0 ? `${name(d.finisher)} ${FINISH[d.finish] ?? "finished"}` : FINISH[d.finish] ?? "no finisher"}${d.multiplier > 1 ? ` (×${d.multiplier})` : ""}`;
    rows = d.seats.map((s, seat) => h("tr", {}, h("th", { scope: "row" }, name(seat)),
      h("td", { class: "summary-hand" }, ...(s.hand.length ? s.hand.map((t) => tileElement(t, { okey, small: true })) : [out()])),
      h("td", {}, String(s.dealScore)), h("td", {}, String(s.total))));
  } else if (r.case === "okey" && r.value.event.case === "dealEnded") {
    const d = r.value.event.value;
    // The winning hand is shown to everyone (the Won event of the same move).
    const won = all.flatMap((e) => (e.ruleset.case === "okey" && e.ruleset.value.event.case === "won" ? [e.ruleset.value.event.value] : []))[0];
    title = d.winner >= 0 ? `Deal ${d.deal}: ${name(d.winner)} won${won ? ` (${won.points} point${won.points === 1 ? "" : "s"} each)` : ""}`
      : `Deal ${d.deal}: the deck ran out, no score`;
    const shown = won ? [...won.groups.map((g) => g.tiles.map((t) => t.tile)), ...won.pairs.map((p) => [p.first, p.second])] : [];
    rows = d.points.map((p, seat) => h("tr", {}, h("th", { scope: "row" }, name(seat)),
      h("td", { class: "summary-hand" }, ...(seat === d.winner ? shown.map((g) => h("span", { class: "summary-group" }, ...g.map((t) => tileElement(t, { okey, small: true })))) : [])),
      h("td", {}), h("td", {}, String(p))));
  } else if (r.case === "mexicanTrain" && r.value.event.case === "roundEnded") {
    const d = r.value.event.value;
    title = `Round ${d.round} ended: ${d.wentOut >= 0 ? `${name(d.wentOut)} went out` : "blocked"}`;
    rows = d.seats.map((s, seat) => h("tr", {}, h("th", { scope: "row" }, name(seat)),
      h("td", { class: "summary-hand" }, ...(s.hand.length ? s.hand.map((t) => domino(t)) : [out()])), h("td", {}, String(s.penalty)), h("td", {}, String(s.total))));
  } else {
    return null;
  }
  const close = h("button", { type: "button", class: "primary" }, "Continue");
  close.addEventListener("click", onClose);
  return h("section", { class: "deal-summary", role: "dialog", "aria-label": "End of the deal" },
    h("h2", {}, title),
    h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, "Seat"), h("th", {}, "Hand left"), h("th", {}, "This deal"), h("th", {}, "Total"))), h("tbody", {}, ...rows)),
    close);
}

/** An empty hand's cell: said, not left blank. */
function out(): HTMLElement {
  return h("span", { class: "muted" }, "none: went out");
}
