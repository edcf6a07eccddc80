// MatchmakingService.WatchTicket until the ticket's final state (docs/api.md section 2, step 4).
// Watching again, on any replica, starts with the ticket's current state, assignment included, so
// a dropped watch is simply opened again after a jittered, capped back-off; an update equal to the
// previous one (the current state repeated by a new watch) is not delivered twice.
import { equals } from "@bufbuild/protobuf";
import { Code, ConnectError, type Client } from "@connectrpc/connect";
import { Backoff, sleep, type BackoffOptions } from "./backoff.js";
import { retryDelayMs } from "./errors.js";
import {
  TicketUpdateSchema,
  TicketUpdate_State,
  type Assignment,
  type MatchmakingService,
  type TicketUpdate,
} from "./gen/kahve/v1/matchmaking_pb.js";
import { kPermanentStreamCodes, type StreamStatus } from "./table_stream.js";

export interface WatchTicketOptions {
  backoff?: BackoffOptions;
  /** Give up after this many failures in a row (default: never). */
  maxFailures?: number;
  /** Ends the watch (the iteration ends without an error). */
  signal?: AbortSignal;
  onStatus?: (status: StreamStatus) => void;
}

const isFinal = (u: TicketUpdate) =>
  u.state === TicketUpdate_State.MATCHED ||
  u.state === TicketUpdate_State.EXPIRED ||
  u.state === TicketUpdate_State.CANCELLED;

/** The ticket's updates until its final state (MATCHED, EXPIRED or CANCELLED), which is the last. */
export async function* watchTicket(
  client: Client<typeof MatchmakingService>,
  ticketId: string,
  options: WatchTicketOptions = {},
): AsyncGenerator<TicketUpdate> {
  const backoff = new Backoff(options.backoff);
  let previous: TicketUpdate | undefined;
  while (!options.signal?.aborted) {
    options.onStatus?.({ state: "connecting", afterSeq: undefined });
    try {
      for await (const update of client.watchTicket({ ticketId }, { signal: options.signal })) {
        backoff.reset();
        if (previous && equals(TicketUpdateSchema, previous, update)) continue;
        previous = update;
        yield update;
        if (isFinal(update)) return;
      }
      // A watch that ends with OK before a final state is a server going away politely.
    } catch (err) {
      if (options.signal?.aborted) return;
      const error = ConnectError.from(err);
      if (kPermanentStreamCodes.includes(error.code) || error.code === Code.Unauthenticated) throw error;
      if (options.maxFailures !== undefined && backoff.failures + 1 >= options.maxFailures) throw error;
      const delayMs = Math.max(backoff.next(), retryDelayMs(error) ?? 0);
      options.onStatus?.({ state: "retrying", error, delayMs, afterSeq: undefined });
      await sleep(delayMs, options.signal);
      continue;
    }
    await sleep(backoff.next(), options.signal);
  }
}

/** Thrown by waitForAssignment when the ticket ends without a match. */
export class TicketEndedError extends Error {
  constructor(readonly update: TicketUpdate) {
    super(`ticket ${update.ticketId} ended ${TicketUpdate_State[update.state]}`);
    this.name = "TicketEndedError";
  }
}

/** Watches the ticket until it is matched and returns the caller's assignment. */
export async function waitForAssignment(
  client: Client<typeof MatchmakingService>,
  ticketId: string,
  options: WatchTicketOptions & { onUpdate?: (update: TicketUpdate) => void } = {},
): Promise<Assignment> {
  for await (const update of watchTicket(client, ticketId, options)) {
    options.onUpdate?.(update);
    if (update.state === TicketUpdate_State.MATCHED && update.assignment) return update.assignment;
    if (isFinal(update)) throw new TicketEndedError(update);
  }
  throw new ConnectError("the watch was cancelled", Code.Canceled);
}
