// Rate limits: a player identity may make max_calls_per_second calls per service (50 by default,
// bursts of 100); past it a call is refused with RESOURCE_EXHAUSTED, a RetryAfter detail and the
// grpc-retry-pushback-ms trailer (docs/operations.md section 8). A refused call did nothing, so it
// is safe to send again once the delay has passed, whatever the method.
import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import { sleep } from "./backoff.js";
import { retryDelayMs } from "./errors.js";

const kMarginMs = 5;

export interface RateLimitRetryOptions {
  /** Send a refused call again at most this many times (default 3). */
  maxRetries?: number;
  /** Give up at once when the server asks to wait longer than this (default 5 s). */
  maxWaitMs?: number;
  /** Called before each wait, e.g. to tell the user. */
  onRetry?: (delayMs: number, error: ConnectError) => void;
}

/**
 * Waits out rate-limit refusals of unary calls: RESOURCE_EXHAUSTED with a server hint (RetryAfter
 * or grpc-retry-pushback-ms) is sent again after that delay. Other RESOURCE_EXHAUSTED refusals (a
 * budget such as max_active_tickets) carry no hint and are passed on, as are streams (TableStream
 * and watchTicket honour the hint themselves).
 *
 * Once a call is refused, this client's calls take turns until none is waiting: the hint says when
 * the identity's next call is allowed, so calls refused together would otherwise all return at
 * that moment and all but one be refused again, and new calls would take the allowance the waiting
 * ones waited for. Taking turns, they go at the rate the server allows.
 */
export function rateLimitRetryInterceptor(options: RateLimitRetryOptions = {}): Interceptor {
  const maxRetries = options.maxRetries ?? 3;
  const maxWaitMs = options.maxWaitMs ?? 5_000;
  let waiting = 0;
  let turn: Promise<void> = Promise.resolve();
  const inTurn = async <T>(fn: () => Promise<T>): Promise<T> => {
    waiting++;
    const previous = turn;
    let done!: () => void;
    turn = new Promise<void>((resolve) => (done = resolve));
    try {
      await previous;
      return await fn();
    } finally {
      waiting--;
      done();
    }
  };
  return (next) => async (req) => {
    if (req.stream) return next(req);
    let refusal: ConnectError;
    try {
      return waiting > 0 ? await inTurn(() => next(req)) : await next(req);
    } catch (err) {
      refusal = rateLimited(err);
    }
    // The call keeps its turn across its own retries: sent to the back of the line after each
    // refusal, its hint would be stale again by the time its turn came, and it could run out of
    // retries while the calls ahead of it took the allowance.
    return inTurn(async () => {
      for (let attempt = 1; ; attempt++) {
        const delay = retryDelayMs(refusal) ?? 0;
        if (delay > maxWaitMs || attempt > maxRetries || req.signal.aborted) throw refusal;
        // A few ms more (the hint is rounded, and timers fire early by a fraction of one), and up
        // to 10% more, so that other clients refused together do not return in step.
        const wait = delay + kMarginMs + Math.round(Math.random() * delay * 0.1);
        options.onRetry?.(wait, refusal);
        await sleep(wait, req.signal);
        if (req.signal.aborted) throw refusal;
        try {
          return await next(req);
        } catch (err) {
          refusal = rateLimited(err);
        }
      }
    });
  };
}

/** `err` when it is a rate-limit refusal (RESOURCE_EXHAUSTED with a hint); otherwise throws it. */
function rateLimited(err: unknown): ConnectError {
  if (err instanceof ConnectError && err.code === Code.ResourceExhausted && retryDelayMs(err) !== undefined) return err;
  throw err;
}
