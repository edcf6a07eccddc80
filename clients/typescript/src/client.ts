// A small facade over the three services: typed clients sharing one token and one set of
// interceptors, plus the steps every game client repeats (queue and wait, follow the table, play
// with request ids and expected seqs, wait for the recorded match). Transports come from
// "@kahve/client/node" (gRPC) or "@kahve/client/web" (gRPC-Web); the code here is the same for both.
import type { MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient, type Client, type Transport } from "@connectrpc/connect";
import { Backoff, sleep } from "./backoff.js";
import { decodeError, type KahveError } from "./errors.js";
import type { GameSettingsSchema, Move } from "./gen/kahve/v1/engine_pb.js";
import { MatchmakingService, type Assignment } from "./gen/kahve/v1/matchmaking_pb.js";
import { RatingService, type MatchRecord } from "./gen/kahve/v1/rating_pb.js";
import {
  TableService,
  type GetViewResponse,
  type PlayResponse,
  type PracticeResponse,
} from "./gen/kahve/v1/table_pb.js";
import { newRequestId } from "./request_id.js";
import { TableStream, type TableStreamOptions } from "./table_stream.js";
import { waitForAssignment, watchTicket, type WatchTicketOptions } from "./ticket_watch.js";

export interface KahveClientOptions {
  /** The transport for matchmaking and rating (and tables, without tableTransport). */
  transport: Transport;
  /** The rating service, when it has its own address (Node.js against the services directly). */
  ratingTransport?: Transport;
  /** Table calls that name no host (practice tables, replays), when they have their own address. */
  defaultTableTransport?: Transport;
  /**
   * The transport for a table host named by an assignment's table_endpoint. Browsers leave it out:
   * the gateway routes every table call (an endpoint inside the cluster is no use to them).
   */
  tableTransport?: (endpoint: string) => Transport;
}

/** Where a seat sits: an assignment, or a practice table's answer. */
export interface SeatRef {
  tableId: string;
  seatToken: string;
  seat: number;
  tableEndpoint?: string;
}

/** A unary call sent again while it fails with a transient code, for calls safe to repeat. */
async function retrying<T>(call: () => Promise<T>, attempts = 6): Promise<T> {
  const backoff = new Backoff({ initialMs: 100, maxMs: 2_000 });
  for (;;) {
    try {
      return await call();
    } catch (err) {
      const code = ConnectError.from(err).code;
      const transient = code === Code.Unavailable || code === Code.DeadlineExceeded;
      if (!transient || backoff.failures + 1 >= attempts) throw err;
      await sleep(backoff.next());
    }
  }
}

/** The outcome of a dry run: the events the move would cause, or why it is refused. */
export type Preview =
  | { legal: true; response: PlayResponse }
  | { legal: false; error: KahveError };

/** One seat of one table: every call that needs the seat token. */
export class Seat {
  constructor(readonly table: Client<typeof TableService>, readonly ref: SeatRef) {}

  /** The seat's stream (see TableStream). */
  stream(options: Partial<TableStreamOptions> = {}): TableStream {
    return new TableStream({ client: this.table, tableId: this.ref.tableId, seatToken: this.ref.seatToken, ...options });
  }

  view(): Promise<GetViewResponse> {
    return retrying(() => this.table.getView({ tableId: this.ref.tableId, seatToken: this.ref.seatToken }));
  }

  hints() {
    return retrying(() => this.table.getHints({ tableId: this.ref.tableId, seatToken: this.ref.seatToken }));
  }

  /**
   * Plays `move` once the table is at `expectedSeq` (when given), under a fresh request id that a
   * retry after a lost answer reuses, so the move is never played twice.
   */
  play(move: Move, options: { expectedSeq?: bigint; requestId?: string } = {}): Promise<PlayResponse> {
    const request = {
      tableId: this.ref.tableId,
      seatToken: this.ref.seatToken,
      move,
      requestId: options.requestId ?? newRequestId("play"),
      expectedSeq: options.expectedSeq,
    };
    return retrying(() => this.table.play(request));
  }

  /** Asks the server whether `move` is legal now and what it would cause; changes nothing. */
  async preview(move: Move): Promise<Preview> {
    try {
      const response = await retrying(() =>
        this.table.play({ tableId: this.ref.tableId, seatToken: this.ref.seatToken, move, dryRun: true }));
      return { legal: true, response };
    } catch (err) {
      const error = decodeError(err);
      if (error.details.playRejection === undefined) throw err;
      return { legal: false, error };
    }
  }

  resign(): Promise<{ seq: bigint }> {
    const request = { tableId: this.ref.tableId, seatToken: this.ref.seatToken, requestId: newRequestId("resign") };
    return retrying(() => this.table.resign(request));
  }

  /** Practice tables: pause, resume, undo, redo (with expectedSeq, a retry never acts twice). */
  practice(action: "pause" | "resume" | "undo" | "redo", expectedSeq?: bigint): Promise<PracticeResponse> {
    const request = { tableId: this.ref.tableId, seatToken: this.ref.seatToken, expectedSeq };
    return retrying(() => this.table[action](request));
  }
}

export class KahveClient {
  readonly matchmaking: Client<typeof MatchmakingService>;
  readonly rating: Client<typeof RatingService>;
  private readonly defaultTable: Client<typeof TableService>;
  private readonly tables = new Map<string, Client<typeof TableService>>();
  private readonly tableTransport: ((endpoint: string) => Transport) | undefined;

  constructor(options: KahveClientOptions) {
    this.matchmaking = createClient(MatchmakingService, options.transport);
    this.rating = createClient(RatingService, options.ratingTransport ?? options.transport);
    this.defaultTable = createClient(TableService, options.defaultTableTransport ?? options.transport);
    this.tableTransport = options.tableTransport;
  }

  /** The table service at `endpoint` (an assignment's table_endpoint), or the default one. */
  table(endpoint?: string): Client<typeof TableService> {
    if (!endpoint || !this.tableTransport) return this.defaultTable;
    let client = this.tables.get(endpoint);
    if (!client) {
      client = createClient(TableService, this.tableTransport(endpoint));
      this.tables.set(endpoint, client);
    }
    return client;
  }

  /** A seat of a table (from an assignment or a practice table). */
  seat(ref: SeatRef): Seat {
    return new Seat(this.table(ref.tableEndpoint), ref);
  }

  /** Queues the caller (or its party) with a fresh request id; returns the ticket id. */
  async enqueue(
    settings: MessageInitShape<typeof GameSettingsSchema>,
    options: { partyId?: string; teams?: boolean; longestWaitSeconds?: number; requestId?: string; players?: string[] } = {},
  ): Promise<string> {
    const request = { requestId: newRequestId("enqueue"), ...options, settings };
    const { ticketId } = await retrying(() => this.matchmaking.enqueue(request));
    return ticketId;
  }

  watchTicket(ticketId: string, options?: WatchTicketOptions) {
    return watchTicket(this.matchmaking, ticketId, options);
  }

  waitForAssignment(ticketId: string, options?: Parameters<typeof waitForAssignment>[2]): Promise<Assignment> {
    return waitForAssignment(this.matchmaking, ticketId, options);
  }

  /** Opens a practice table against bots and returns its seat. */
  async practiceTable(
    settings: MessageInitShape<typeof GameSettingsSchema>,
    options: { seat?: number; botKind?: string; seed?: bigint; botDelayMs?: number } = {},
  ): Promise<Seat> {
    const request = {
      settings,
      seat: options.seat ?? 0,
      botKind: options.botKind ?? "",
      seed: options.seed,
      options: { botDelayMs: options.botDelayMs ?? 0 },
      requestId: newRequestId("practice"),
    };
    const r = await retrying(() => this.defaultTable.createPracticeTable(request));
    return this.seat({ tableId: r.tableId, seatToken: r.seatToken, seat: r.seat, tableEndpoint: r.tableEndpoint });
  }

  /**
   * The match record once the table's outbox has delivered it: GetMatch answers NOT_FOUND for a
   * moment after the game ends (docs/api.md section 2, step 8).
   */
  async recordedMatch(matchId: string, timeoutMs = 30_000): Promise<MatchRecord> {
    const deadline = Date.now() + timeoutMs;
    const backoff = new Backoff({ initialMs: 50, maxMs: 1_000, jitter: 0.2 });
    for (;;) {
      try {
        return await this.rating.getMatch({ matchId });
      } catch (err) {
        if (ConnectError.from(err).code !== Code.NotFound || Date.now() > deadline) throw err;
      }
      await sleep(backoff.next());
    }
  }
}
