// Liar's dice (docs/rules/liars_dice.md): every bid the seat may make, the challenge and the
// Путана declaration are listed in full.
import { create } from "@bufbuild/protobuf";
import type { Move } from "../gen/kahve/v1/engine_pb.js";
import { LiarsDiceMoveSchema, type LiarsDiceBid, type LiarsDiceMove } from "../gen/kahve/v1/liars_dice_pb.js";
import { moveOf } from "./common.js";

const liarsDice = (move: Move): LiarsDiceMove | undefined =>
  move.ruleset.case === "liarsDice" ? move.ruleset.value : undefined;

/** The listed bids, in the list's order. */
export function legalBids(legal: readonly Move[]): LiarsDiceBid[] {
  const bids: LiarsDiceBid[] = [];
  for (const m of legal) {
    const a = liarsDice(m)?.action;
    if (a?.case === "bid") bids.push(a.value);
  }
  return bids;
}

/** The listed bid of `quantity` dice showing `face`, or undefined when it is not legal now. */
export function findBid(legal: readonly Move[], quantity: number, face: number): Move | undefined {
  return legal.find((m) => {
    const a = liarsDice(m)?.action;
    return a?.case === "bid" && a.value.quantity === quantity && a.value.face === face;
  });
}

/** The challenge ("Не верю"), when legal now. */
export function findChallenge(legal: readonly Move[]): Move | undefined {
  return legal.find((m) => liarsDice(m)?.action.case === "challenge");
}

/** The Путана declaration, when offered. */
export function findDeclarePutana(legal: readonly Move[]): Move | undefined {
  return legal.find((m) => liarsDice(m)?.action.case === "declarePutana");
}

/** A bid of `quantity` dice showing `face` (whether legal or not: the server judges). */
export function liarsDiceBidMove(quantity: number, face: number): Move {
  return moveOf("liarsDice", create(LiarsDiceMoveSchema, { action: { case: "bid", value: { quantity, face } } }));
}
