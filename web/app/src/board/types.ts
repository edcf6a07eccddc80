// The contract between a board and the page around it (the chessground split): a board renders a
// view and the seat's legal moves, and emits the move the player chose. It knows nothing of the
// server, streams or tokens.
import type { Hints, MessageInitShape, Move, MoveSchema, View } from "../api";

export type MoveInit = MessageInitShape<typeof MoveSchema>;

/** A move the player chose, with what to say about it. */
export interface Intent {
  move: MoveInit;
  /** Says what the move does, in the confirm panel and the announcement. */
  label: string;
  /** Preview with a dry run and ask for confirmation before playing. */
  preview: boolean;
}

export interface BoardContext {
  /** Display names by seat ("You", "Bot 2", a player id). */
  seatNames: string[];
  /** The local player may act now: their turn (or an out-of-turn window), not paused. */
  active: boolean;
  /** The move waiting for confirmation, for boards that draw it ghosted. */
  pending: Intent | null;
  /** Hints for this seat, when the table has them and the player asked. */
  hints: Hints | null;
  /** A tile the seat drew this turn (shown only to its owner), to mark it in the hand. */
  drawn: string | null;
}

export interface Board {
  update(view: View, legal: Move[], ctx: BoardContext): void;
  destroy(): void;
}

export type Emit = (intent: Intent) => void;
export type BoardFactory = (root: HTMLElement, emit: Emit) => Board;

/** The status line of a board whose player may not act now. */
export function idleStatus(ctx: BoardContext, over: boolean): string {
  if (over) return "";
  if (ctx.pending) return "Check the preview below, then confirm or cancel.";
  return "Waiting for the other players.";
}
