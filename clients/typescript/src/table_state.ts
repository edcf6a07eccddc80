// A seat's picture of its table, folded from the updates of its stream in seq order: what a
// client draws from. A snapshot replaces everything; a stream opened with_view carries the view
// and legal moves on every update after the snapshot, except that of the updates a resume sends
// only the last one does (docs/api.md section 3, Connect), so `view` and `legalMoves` are replaced
// only by updates that carry a view.
import type { Move, Result, View } from "./gen/kahve/v1/engine_pb.js";
import type { DealCommitment, DealReveal } from "./gen/kahve/v1/fairness_pb.js";
import {
  SeatChange_Kind,
  type PracticeState,
  type SeatStatus,
  type TableClosed,
  type TableOptions,
  type TableUpdate,
} from "./gen/kahve/v1/table_pb.js";

export class TableState {
  /** The seq of the last update applied. */
  seq: bigint | undefined;
  /** The seat's view, as of `viewSeq`. */
  view: View | undefined;
  /** The seq `view` and `legalMoves` are from: behind `seq` on a stream opened without with_view. */
  viewSeq: bigint | undefined;
  legalMoves: Move[] = [];
  /** The seats that may act now. */
  toAct: number[] = [];
  seats: SeatStatus[] = [];
  options: TableOptions | undefined;
  practice: PracticeState | undefined;
  over = false;
  result: Result | undefined;
  closed: TableClosed | undefined;
  /** The deal's commitment from the first snapshot: keep it to check the deal afterwards. */
  commitment: DealCommitment | undefined;
  /** The seed material the commitment hashes, once the game is over. */
  reveal: DealReveal | undefined;

  /** Whether `seat` may act now. */
  mayAct(seat: number): boolean {
    return !this.over && this.toAct.includes(seat);
  }

  apply(update: TableUpdate): void {
    this.seq = update.seq;
    const u = update.update;
    switch (u.case) {
      case "snapshot": {
        const s = u.value;
        this.view = s.view;
        this.viewSeq = update.seq;
        this.legalMoves = s.legalMoves;
        this.toAct = s.view?.toAct ?? [];
        this.seats = s.seats;
        this.options = s.options;
        this.practice = s.practice;
        this.over = s.over;
        this.result = s.result;
        this.closed = s.closed;
        this.commitment = s.commitment ?? this.commitment;
        this.reveal = s.reveal;
        return; // a snapshot holds its own view: never update.view
      }
      case "move":
        this.toAct = u.value.toAct;
        if (u.value.result) {
          this.result = u.value.result;
          this.over = true;
          this.toAct = [];
        }
        if (u.value.reveal) this.reveal = u.value.reveal;
        break;
      case "seatChange": {
        const seat = this.seats.find((s) => s.seat === u.value.seat);
        if (seat) {
          if (u.value.kind === SeatChange_Kind.AWAY) seat.away = true;
          if (u.value.kind === SeatChange_Kind.BACK) seat.away = false;
          if (u.value.kind === SeatChange_Kind.RESIGNED) seat.resigned = true;
        }
        break;
      }
      case "practice":
        if (u.value.state) this.practice = u.value.state;
        if (u.value.view) {
          this.view = u.value.view;
          this.viewSeq = update.seq;
          this.toAct = u.value.toAct;
        }
        break;
      case "closed":
        this.closed = u.value;
        this.over = true;
        this.toAct = [];
        break;
      default:
        break; // an update kind newer than this library: its seq still counts
    }
    if (update.view) {
      this.view = update.view;
      this.viewSeq = update.seq;
      this.legalMoves = update.legalMoves;
      this.toAct = this.over ? [] : update.view.toAct;
    } else if (u.case === "move" || u.case === "practice") {
      // The moves listed before this change may no longer be legal.
      this.legalMoves = [];
    }
  }
}
