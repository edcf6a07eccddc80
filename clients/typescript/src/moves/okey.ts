// The okey family (docs/engine.md section 6.5, docs/api.md section 7). Primitive moves (draw,
// take, discard, a tile added, a single meld or pair laid, gösterme) are listed in full; compound
// moves (an okey51/okey101 opening: any set of melds reaching the threshold; classic okey's win
// with its grouping) only by canonical representatives: the best opening the server's search
// finds and a pairs opening. A combination that is not listed may still be legal: build it with
// meldsMove/pairsMove and ask the server with a dry run (Seat.preview), which answers with the
// opening's sum or the rejection's reason.
import { create } from "@bufbuild/protobuf";
import type { Move } from "../gen/kahve/v1/engine_pb.js";
import type { OkeyMove } from "../gen/kahve/v1/okey_classic_pb.js";
import {
  OkeyLayingMoveSchema,
  type OkeyLay,
  type OkeyLayingMove,
  type OkeyLayingMove_TakeDiscard,
} from "../gen/kahve/v1/okey_laying_pb.js";
import {
  OkeyPlace,
  type OkeyAddition,
  type OkeyMeld,
} from "../gen/kahve/v1/okey_pb.js";
import { moveOf } from "./common.js";

/** okey51 and okey101 share their moves (OkeyLayingMove). */
export type LayingRuleset = "okey51" | "okey101";

const classic = (m: Move): OkeyMove | undefined => (m.ruleset.case === "okey" ? m.ruleset.value : undefined);
const laying = (m: Move): OkeyLayingMove | undefined =>
  m.ruleset.case === "okey51" || m.ruleset.case === "okey101" ? m.ruleset.value : undefined;

// ---- Classic okey ------------------------------------------------------------------------------

/** Classic okey: the listed discard of `tile` (the two copies of a face are one move). */
export function findOkeyDiscard(legal: readonly Move[], tile: string): Move | undefined {
  return legal.find((m) => {
    const a = classic(m)?.action;
    return a?.case === "discard" && a.value.tile === tile;
  });
}

/** Classic okey: the draw from the deck, when legal. */
export function findOkeyDraw(legal: readonly Move[]): Move | undefined {
  return legal.find((m) => classic(m)?.action.case === "draw");
}

/** Classic okey: taking the previous player's discard (without a win), when legal. */
export function findOkeyTakeDiscard(legal: readonly Move[]): Move | undefined {
  return legal.find((m) => {
    const a = classic(m)?.action;
    return a?.case === "takeDiscard" && !a.value.win;
  });
}

/** Classic okey: gösterme, showing the indicator's twin (out of turn too), when legal. */
export function findShowIndicator(legal: readonly Move[]): Move | undefined {
  return legal.find((m) => classic(m)?.action.case === "showIndicator");
}

/** Classic okey: the listed wins (each with the grouping the server found), taking a discard or not. */
export function okeyWins(legal: readonly Move[]): Move[] {
  return legal.filter((m) => {
    const a = classic(m)?.action;
    return a?.case === "win" || (a?.case === "takeDiscard" && a.value.win !== undefined);
  });
}

// ---- okey51 and okey101 ------------------------------------------------------------------------

/** okey51/okey101: the listed discard of `tile`. */
export function findLayingDiscard(legal: readonly Move[], tile: string): Move | undefined {
  return legal.find((m) => {
    const a = laying(m)?.action;
    return a?.case === "discard" && a.value.tile === tile;
  });
}

/** okey51/okey101: the draw from the deck, when legal. */
export function findLayingDraw(legal: readonly Move[]): Move | undefined {
  return legal.find((m) => laying(m)?.action.case === "draw");
}

/** okey51/okey101: where `tile` may be added to melds on the table now (one per meld and place). */
export function additionsFor(legal: readonly Move[], tile: string): OkeyAddition[] {
  const out: OkeyAddition[] = [];
  for (const m of legal) {
    const a = laying(m)?.action;
    if (a?.case === "addTile" && a.value.tile === tile) out.push(a.value);
  }
  return out;
}

/**
 * okey51/okey101: the listed addition of `tile` to the table's meld `meld` (OkeyTableMeld.index);
 * with `place` unset, the only one there (undefined when a run takes it at both ends: ask which).
 */
export function findAddTile(legal: readonly Move[], tile: string, meld: number, place?: OkeyPlace): Move | undefined {
  const found = legal.filter((m) => {
    const a = laying(m)?.action;
    return a?.case === "addTile" && a.value.tile === tile && a.value.meld === meld &&
      (place === undefined || a.value.place === place);
  });
  return found.length === 1 ? found[0] : undefined;
}

const sortedTiles = (meld: OkeyMeld) => meld.tiles.map((t) => t.tile).sort().join(",");

/**
 * okey51/okey101: the listed lay of one meld made of exactly `tiles` (in any order), after the seat
 * opened; undefined when the list has none (a reading the list leaves out is still judged by a dry
 * run of meldsMove).
 */
export function findLayMeld(legal: readonly Move[], tiles: readonly string[]): Move | undefined {
  const want = [...tiles].sort().join(",");
  return legal.find((m) => {
    const a = laying(m)?.action;
    return a?.case === "layMelds" && a.value.melds.length === 1 && sortedTiles(a.value.melds[0]!) === want;
  });
}

/**
 * okey51/okey101: the listed lays of melds and of pairs. Before the seat has opened these are its
 * openings: canonical representatives only (the best run/set opening the search finds, and a
 * pairs opening).
 */
export function layMoves(legal: readonly Move[]): Move[] {
  return legal.filter((m) => {
    const c = laying(m)?.action.case;
    return c === "layMelds" || c === "layPairs";
  });
}

/** A tile of a meld as the user arranged it: its name, or an okey with the face it stands for. */
export type MeldTile = string | { tile: string; standsFor?: string };

const placed = (t: MeldTile): { tile: string; standsFor: string } =>
  typeof t === "string" ? { tile: t, standsFor: "" } : { tile: t.tile, standsFor: t.standsFor ?? "" };

/**
 * okey51/okey101: a lay of these melds (each a run listed low to high, or a set): an opening of
 * any combination, or new melds after a run/set opening. Check it with a dry run before playing.
 */
export function meldsMove(ruleset: LayingRuleset, melds: readonly (readonly MeldTile[])[]): Move {
  const value = create(OkeyLayingMoveSchema, {
    action: { case: "layMelds", value: { melds: melds.map((meld) => ({ tiles: meld.map(placed) })) } },
  });
  return moveOf(ruleset, value);
}

/** okey51/okey101: a lay of pairs (the pairs opening: five or more; more pairs after it). */
export function pairsMove(ruleset: LayingRuleset, pairs: readonly (readonly [string, string])[]): Move {
  const value = create(OkeyLayingMoveSchema, {
    action: { case: "layPairs", value: { pairs: pairs.map(([first, second]) => ({ first, second })) } },
  });
  return moveOf(ruleset, value);
}

/**
 * okey51/okey101: taking the previous player's discard together with its use (it must reach the
 * table in this same move), and optionally further lays played after it in order.
 */
export function takeDiscardMove(
  ruleset: LayingRuleset,
  use: OkeyLayingMove_TakeDiscard["use"],
  furtherLays: OkeyLay["lay"][] = [],
): Move {
  const value = create(OkeyLayingMoveSchema, {
    action: { case: "takeDiscard", value: { use, furtherLays: furtherLays.map((lay) => ({ lay })) } },
  });
  return moveOf(ruleset, value);
}

export { OkeyPlace };
