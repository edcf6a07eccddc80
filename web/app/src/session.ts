// One seat at one table: the module that owns the connection. It opens the Connect stream with
// views, applies updates in seq order, resumes by after_seq with back-off when the stream drops
// (a gap in seqs counts as a drop), plays moves with request ids (retried on UNAVAILABLE with the
// same id), and runs the practice controls. The pages read its state and never talk to the
// table service themselves.
import {
  Code, MoveSchema, SeatChange_Kind, TableStream, create, decodeError,
  type Clients, type DealCommitment, type DealReveal, type Event, type Hints, type Move, type PlayResponse,
  type PracticeState, type Replay, type Result, type Seat, type SeatStatus, type TableClosed, type TableOptions,
  type TableUpdate, type View,
} from "./api";
import type { MoveInit } from "./board/types";

export type ConnectionState = "connecting" | "live" | "reconnecting" | "ended" | "failed";

export interface LogLine {
  seq: bigint;
  seat: number | null;
  byBot: boolean;
  botReason: string;
  events: Event[];
  /** A seat change or practice change, in words. */
  note: string;
}

export interface TableState {
  seq: bigint;
  view: View | null;
  legal: Move[];
  seats: SeatStatus[];
  options: TableOptions | null;
  practice: PracticeState | null;
  /** The commitment of the first snapshot this page saw (seq 0's, published at creation). */
  commitment: DealCommitment | null;
  /** A later snapshot showed another commitment: the deal changed under us. */
  commitmentChanged: boolean;
  reveal: DealReveal | null;
  result: Result | null;
  closed: TableClosed | null;
  over: boolean;
  connection: ConnectionState;
  error: string;
  log: LogLine[];
  /** The tile this seat drew in its current turn (its private event), until the turn ends. */
  drawn: string | null;
  /** Moves a bot made for this seat while it was away, since the page last acknowledged them. */
  botMovesWhileAway: number;
  /** When each seat's turn time runs out (ms since the epoch), from the snapshot or the last move. */
  deadlines: Map<number, number>;
  /** The view of the first snapshot this page saw, to check the first deal against the seed. */
  firstView: View | null;
}

export interface SeatRef {
  tableId: string;
  seatToken: string;
  seat: number;
}

const MAX_LOG = 200;

export class TableSession {
  readonly state: TableState = {
    seq: -1n, view: null, legal: [], seats: [], options: null, practice: null, commitment: null,
    commitmentChanged: false, reveal: null, result: null, closed: null, over: false,
    connection: "connecting", error: "", log: [], drawn: null, botMovesWhileAway: 0, deadlines: new Map(),
    firstView: null,
  };
  private readonly listeners = new Set<() => void>();
  private stream: TableStream | null = null;
  private stopped = false;
  private readonly seat: Seat;
  /** Every update received, as the page saw it (for the tests' checks on hidden information). */
  readonly received: TableUpdate[] = [];

  /**
   * humanSeats: the seats whose players' decisions count as undoable (pass and play holds
   * several; undo takes back the table's last human decision, whoever made it).
   */
  constructor(private readonly clients: Clients, readonly ref: SeatRef, private readonly humanSeats: readonly number[] = [ref.seat]) {
    this.seat = clients.seat(ref);
  }

  onChange(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  start(): void {
    void this.run();
  }

  stop(): void {
    this.stopped = true;
    this.stream?.close();
    this.listeners.clear();
  }

  /** Drops the stream as a lost connection would, then resumes it by after_seq (tests). */
  dropConnection(): void {
    this.stream?.close();
    this.stream = null;
    void this.run();
  }

  acknowledgeAway(): void {
    this.state.botMovesWhileAway = 0;
    this.changed();
  }

  private changed(): void {
    for (const fn of this.listeners) fn();
  }

  /** Follows the seat's stream (the library's TableStream resumes it by after_seq). */
  private async run(): Promise<void> {
    const stream = this.seat.stream({
      withView: true,
      afterSeq: this.state.seq >= 0n && !this.state.over ? this.state.seq : undefined,
      onStatus: (st) => {
        const next: ConnectionState = st.state === "open" ? "live" : st.state === "connecting" && this.state.seq < 0n ? "connecting" : "reconnecting";
        if (next !== this.state.connection && this.stream === stream) {
          this.state.connection = next;
          this.changed();
        }
      },
    });
    this.stream = stream;
    try {
      for await (const u of stream) {
        if (this.stream !== stream) return;
        this.apply(u);
        this.state.connection = "live";
        this.changed();
      }
      if (this.stream === stream && !this.stopped) {
        this.state.connection = "ended";
        this.changed();
      }
    } catch (e) {
      if (this.stream !== stream || this.stopped) return;
      this.state.connection = "failed";
      this.state.error = decodeError(e).message;
      this.changed();
    }
  }

  /** Applies one update; throws on a gap so the stream is resumed from the last seq applied. */
  private apply(u: TableUpdate): void {
    this.received.push(u);
    const s = this.state;
    const upd = u.update;
    if (upd.case === "snapshot") {
      const snap = upd.value;
      s.seq = snap.seq;
      s.view = snap.view ?? null;
      if (!s.firstView) s.firstView = snap.view ?? null;
      s.legal = [...snap.legalMoves];
      s.seats = [...snap.seats];
      s.options = snap.options ?? null;
      s.practice = snap.practice ?? null;
      s.over = snap.over;
      s.result = snap.result ?? null;
      s.reveal = snap.reveal ?? null;
      s.closed = snap.closed ?? null;
      if (snap.commitment) {
        if (!s.commitment) s.commitment = snap.commitment;
        else if (s.commitment.sha256 !== snap.commitment.sha256) s.commitmentChanged = true;
      }
      s.deadlines = new Map();
      for (const seat of snap.seats) {
        if (seat.turnDeadline) s.deadlines.set(seat.seat, Number(seat.turnDeadline.seconds) * 1000 + Math.floor(seat.turnDeadline.nanos / 1e6));
      }
      s.drawn = null;
      return;
    }
    s.seq = u.seq;
    const line: LogLine = { seq: u.seq, seat: null, byBot: false, botReason: "", events: [], note: "" };
    if (upd.case === "move") {
      const mv = upd.value;
      line.seat = mv.seat;
      line.byBot = mv.byBot;
      line.botReason = mv.botReason;
      line.events = [...mv.events];
      if (mv.seat === this.ref.seat && mv.byBot && (mv.botReason === "away" || mv.botReason === "timeout")) s.botMovesWhileAway++;
      // The stream carries practice state only with pauses, undos and redos; each decision of the
      // player's is one more to undo and forgets what could be redone (docs/practice.md).
      if (s.practice && this.humanSeats.includes(mv.seat) && !mv.byBot) {
        s.practice = { ...s.practice, undoable: s.practice.undoable + 1, redoable: 0 };
      }
      const drew = findDrawn(mv.events, this.ref.seat);
      if (drew) s.drawn = drew;
      else if (mv.seat === this.ref.seat && endsTurn(mv.events)) s.drawn = null;
      if (mv.result) {
        s.result = mv.result;
        s.over = true;
      }
      if (mv.reveal) s.reveal = mv.reveal;
      s.deadlines = new Map();
      const turn = s.options?.turnSeconds ?? 0;
      if (turn > 0 && u.at) {
        const at = Number(u.at.seconds) * 1000 + Math.floor(u.at.nanos / 1e6);
        for (const seat of mv.toAct) {
          const st = s.seats.find((x) => x.seat === seat);
          if (st && st.playerId && !st.away && !st.resigned) s.deadlines.set(seat, at + turn * 1000);
        }
      }
    } else if (upd.case === "seatChange") {
      const c = upd.value;
      const st = s.seats.find((x) => x.seat === c.seat);
      if (st) {
        if (c.kind === SeatChange_Kind.AWAY) { st.away = true; st.connected = false; }
        if (c.kind === SeatChange_Kind.BACK) { st.away = false; st.connected = true; }
        if (c.kind === SeatChange_Kind.RESIGNED) st.resigned = true;
      }
      line.seat = c.seat;
      line.note = c.kind === SeatChange_Kind.AWAY ? "is away: a bot plays for them"
        : c.kind === SeatChange_Kind.BACK ? "is back" : c.kind === SeatChange_Kind.RESIGNED ? "resigned" : "";
    } else if (upd.case === "practice") {
      const p = upd.value;
      if (p.state) s.practice = p.state;
      if (p.view) {
        s.view = p.view;
        s.drawn = null;
      }
      line.note = ["", "paused", "resumed", `took back ${p.moves} moves`, `played ${p.moves} moves again`][p.kind] ?? "";
    } else if (upd.case === "closed") {
      s.closed = upd.value;
      s.over = true;
      line.note = "the table closed";
    }
    if (u.view) {
      s.view = u.view;
      s.legal = [...u.legalMoves];
    } else if (upd.case === "move") {
      // Inside a resume batch only the last update carries the view; until it comes, nothing is legal.
      s.legal = [];
    }
    s.log.push(line);
    if (s.log.length > MAX_LOG) s.log.splice(0, s.log.length - MAX_LOG);
  }

  /** Plays a move at the seq the player saw; the library retries a lost answer with the same request id. */
  play(move: MoveInit): Promise<PlayResponse> {
    return this.seat.play(create(MoveSchema, move), { expectedSeq: this.state.seq >= 0n ? this.state.seq : undefined });
  }

  /** A dry run: the events the move would cause, or why it is refused (thrown). */
  async preview(move: MoveInit): Promise<PlayResponse> {
    const p = await this.seat.preview(create(MoveSchema, move));
    if (!p.legal) throw p.error.cause;
    return p.response;
  }

  async hints(): Promise<Hints | null> {
    return (await this.seat.hints()).hints ?? null;
  }

  async practice(action: "pause" | "resume" | "undo" | "redo"): Promise<void> {
    await this.seat.practice(action, this.state.seq >= 0n ? this.state.seq : undefined);
  }

  async resign(): Promise<void> {
    await this.seat.resign();
  }

  replay(): Promise<Replay> {
    return this.clients.table().getReplay({ tableId: this.ref.tableId });
  }
}

/** Words for a refused call: the rules' reason where there is one. */
export function explainError(e: unknown): string {
  const err = decodeError(e);
  const rej = err.details.playRejection?.rejection;
  if (rej) return rej.message || (err.reasonName ?? "").toLowerCase().replace(/_/g, " ");
  if (err.details.staleSeq) return "The table moved on meanwhile; try again.";
  if (err.code === Code.Unavailable) return "The server cannot be reached; try again.";
  return err.message || err.codeName;
}

function findDrawn(events: readonly Event[], seat: number): string | null {
  for (const ev of events) {
    if (ev.privateTo !== seat) continue;
    const r = ev.ruleset;
    if ((r.case === "okey" || r.case === "okey51" || r.case === "okey101" || r.case === "mexicanTrain") && r.value.event.case === "tileDrawn") {
      return r.value.event.value.tile;
    }
  }
  return null;
}

function endsTurn(events: readonly Event[]): boolean {
  return events.some((ev) => {
    const r = ev.ruleset;
    if (r.case === "okey" || r.case === "okey51" || r.case === "okey101") return r.value.event.case === "tileDiscarded" || r.value.event.case === "won";
    if (r.case === "mexicanTrain") return r.value.event.case === "tilePlayed" || r.value.event.case === "passed";
    return false;
  });
}

