// TableService.Connect as a client needs it (docs/api.md section 5): one ordered, gap-free
// sequence of a seat's updates across dropped streams. A stream that ends with a retryable status,
// or breaks, is opened again with after_seq = the last seq delivered, after a jittered, capped
// back-off (and never sooner than a rate limit's hint); updates already delivered are skipped and
// a gap (a lost update) reopens the stream from the last good seq. The iteration ends when the
// server ends the stream with OK (the game is over, or the table closed) or when close() is called.
import { Code, ConnectError, type Client } from "@connectrpc/connect";
import { Backoff, sleep, type BackoffOptions } from "./backoff.js";
import { retryDelayMs } from "./errors.js";
import { tableIdHeaders } from "./table_id.js";
import type { TableService, TableUpdate } from "./gen/kahve/v1/table_pb.js";

/** What the stream is doing, for a status line or a log. */
export type StreamStatus =
  | { state: "connecting"; afterSeq: bigint | undefined }
  | { state: "open" }
  | { state: "retrying"; error: ConnectError; delayMs: number; afterSeq: bigint | undefined }
  | { state: "gap"; expected: bigint; got: bigint };

export interface TableStreamOptions {
  client: Client<typeof TableService>;
  tableId: string;
  /** The seat token; empty to watch as a spectator. */
  seatToken: string;
  /** Ask for the view and legal moves with every update (ConnectRequest.with_view). */
  withView?: boolean;
  /** Resume after this seq (a client that kept its state, e.g. across a page reload). */
  afterSeq?: bigint;
  backoff?: BackoffOptions;
  /** Give up after this many failures in a row without an update between (default: never). */
  maxFailures?: number;
  /** Codes that end the iteration with the error instead of a reconnect. */
  permanentCodes?: Code[];
  onStatus?: (status: StreamStatus) => void;
}

/**
 * Refusals that a reconnect cannot fix: the request or the caller is wrong. UNAUTHENTICATED is
 * retried once (a token provider may have refreshed an expired token); OUT_OF_RANGE (after_seq
 * ahead of the table) drops the seq and reconnects for a snapshot.
 */
export const kPermanentStreamCodes: readonly Code[] = [
  Code.InvalidArgument,
  Code.NotFound,
  Code.AlreadyExists,
  Code.PermissionDenied,
  Code.FailedPrecondition,
  Code.Unimplemented,
];

export class TableStream implements AsyncIterable<TableUpdate> {
  private seq: bigint | undefined;
  private closed = false;
  private readonly closing = new AbortController();
  private readonly options: TableStreamOptions;

  constructor(options: TableStreamOptions) {
    this.options = options;
    this.seq = options.afterSeq;
  }

  /** The seq of the last update delivered (a snapshot's seq after a snapshot). */
  get lastSeq(): bigint | undefined {
    return this.seq;
  }

  /** Ends the stream: the call is cancelled and the iteration ends without an error. */
  close(): void {
    this.closed = true;
    this.closing.abort();
  }

  [Symbol.asyncIterator](): AsyncIterator<TableUpdate> {
    return this.run();
  }

  private async *run(): AsyncGenerator<TableUpdate> {
    const opts = this.options;
    const backoff = new Backoff(opts.backoff);
    const permanent = opts.permanentCodes ?? kPermanentStreamCodes;
    let lastCode: Code | undefined;
    try {
      while (!this.closed) {
        opts.onStatus?.({ state: "connecting", afterSeq: this.seq });
        const call = new AbortController();
        const stop = () => call.abort();
        this.closing.signal.addEventListener("abort", stop, { once: true });
        let reopen = false;
        try {
          const updates = opts.client.connect(
            { tableId: opts.tableId, seatToken: opts.seatToken, withView: opts.withView ?? false, afterSeq: this.seq },
            { signal: call.signal, headers: tableIdHeaders(opts.tableId) },
          );
          let opened = false;
          for await (const update of updates) {
            if (!opened) {
              opened = true;
              opts.onStatus?.({ state: "open" });
            }
            const isSnapshot = update.update.case === "snapshot";
            if (!isSnapshot && this.seq !== undefined) {
              if (update.seq <= this.seq) continue; // delivered before the reconnect
              if (update.seq !== this.seq + 1n) {
                opts.onStatus?.({ state: "gap", expected: this.seq + 1n, got: update.seq });
                reopen = true;
                break;
              }
            }
            this.seq = update.seq;
            backoff.reset();
            lastCode = undefined;
            yield update;
            if (this.closed) return;
          }
          if (!reopen) return; // ended with OK: nothing more will happen at this table
          await sleep(backoff.next(), this.closing.signal); // gaps in a row back off too
        } catch (err) {
          if (this.closed) return;
          const error = ConnectError.from(err);
          const once = error.code === Code.Unauthenticated && lastCode !== Code.Unauthenticated;
          if ((permanent.includes(error.code) || error.code === Code.Unauthenticated) && !once) throw error;
          lastCode = error.code;
          if (error.code === Code.OutOfRange) this.seq = undefined; // ask for a snapshot
          if (opts.maxFailures !== undefined && backoff.failures + 1 >= opts.maxFailures) throw error;
          const delayMs = Math.max(backoff.next(), retryDelayMs(error) ?? 0);
          opts.onStatus?.({ state: "retrying", error, delayMs, afterSeq: this.seq });
          await sleep(delayMs, this.closing.signal);
        } finally {
          this.closing.signal.removeEventListener("abort", stop);
          call.abort(); // a gap or an early return leaves the call open otherwise
        }
      }
    } finally {
      this.closed = true;
    }
  }
}
