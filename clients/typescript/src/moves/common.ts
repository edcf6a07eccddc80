// Legal moves, every ruleset (docs/api.md section 7): GetView, a Connect snapshot, and every update
// of a stream opened with_view list the moves the seat may make now, in the ruleset's canonical
// order. A client draws its choices from that list and sends the chosen Move back unchanged; these
// helpers find the move matching what the user picked and sort the list by kind.
import { create, equals } from "@bufbuild/protobuf";
import { MoveSchema, type Move } from "../gen/kahve/v1/engine_pb.js";

/** The ruleset a move is for: the name of Move's oneof case. */
export type Ruleset = NonNullable<Move["ruleset"]["case"]>;

/** The rulesets, as the `ruleset` oneof of GameSettings, Move, View and Event names them. */
export const kRulesets: readonly Ruleset[] = ["liarsDice", "okey", "okey101", "okey51", "mexicanTrain"];

/** The kind of a move, "<ruleset>.<action>", e.g. "liarsDice.bid", "okey51.layMelds". */
export function moveKind(move: Move): string {
  const r = move.ruleset;
  if (r.case === undefined) return "none";
  return `${r.case}.${r.value.action.case ?? "none"}`;
}

/** The moves grouped by kind, each group in the list's (canonical) order. */
export function classifyMoves(moves: readonly Move[]): Map<string, Move[]> {
  const groups = new Map<string, Move[]>();
  for (const move of moves) {
    const kind = moveKind(move);
    const group = groups.get(kind);
    if (group) group.push(move);
    else groups.set(kind, [move]);
  }
  return groups;
}

/** Whether `move` is in the list (field by field). */
export function isListed(legal: readonly Move[], move: Move): boolean {
  return legal.some((m) => equals(MoveSchema, m, move));
}

/** A Move of `ruleset` with the ruleset's move message `value`. */
export function moveOf<R extends Ruleset>(ruleset: R, value: Extract<Move["ruleset"], { case: R }>["value"]): Move {
  return create(MoveSchema, { ruleset: { case: ruleset, value } as Move["ruleset"] });
}
