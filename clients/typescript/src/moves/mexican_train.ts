// Mexican Train (docs/rules/mexican_train.md): every play (tile and train), the draw, the pass and
// the end of a first turn are listed in full. Trains are named by their owner's seat, -1 for the
// Mexican train.
import type { Move } from "../gen/kahve/v1/engine_pb.js";
import type { MexicanTrainMove } from "../gen/kahve/v1/mexican_train_pb.js";

/** The Mexican train's number in MexicanTrainMove.Play.train. */
export const kMexicanTrain = -1;

const train = (m: Move): MexicanTrainMove | undefined =>
  m.ruleset.case === "mexicanTrain" ? m.ruleset.value : undefined;

/** The listed play of `tile` on `trainNumber` (a seat, or kMexicanTrain). */
export function findTrainPlay(legal: readonly Move[], tile: string, trainNumber: number): Move | undefined {
  return legal.find((m) => {
    const a = train(m)?.action;
    return a?.case === "play" && a.value.tile === tile && a.value.train === trainNumber;
  });
}

/** The trains `tile` may be played on now. */
export function trainsFor(legal: readonly Move[], tile: string): number[] {
  const out: number[] = [];
  for (const m of legal) {
    const a = train(m)?.action;
    if (a?.case === "play" && a.value.tile === tile) out.push(a.value.train);
  }
  return out;
}

/** The tiles of the hand that can be played now, each once. */
export function playableTiles(legal: readonly Move[]): string[] {
  const tiles = new Set<string>();
  for (const m of legal) {
    const a = train(m)?.action;
    if (a?.case === "play") tiles.add(a.value.tile);
  }
  return [...tiles];
}

/** The draw from the boneyard, when legal. */
export function findTrainDraw(legal: readonly Move[]): Move | undefined {
  return legal.find((m) => train(m)?.action.case === "draw");
}

/** The pass (marks the seat's train), when legal. */
export function findTrainPass(legal: readonly Move[]): Move | undefined {
  return legal.find((m) => train(m)?.action.case === "pass");
}

/** Ending a first turn after at least one tile, when legal. */
export function findEndFirstTurn(legal: readonly Move[]): Move | undefined {
  return legal.find((m) => train(m)?.action.case === "endFirstTurn");
}
