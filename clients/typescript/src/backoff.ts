// Jittered, capped exponential back-off for reconnecting streams and retrying calls, and a sleep
// that an AbortSignal cuts short.

export interface BackoffOptions {
  /** The first delay, before jitter (default 250 ms). */
  initialMs?: number;
  /** The cap (default 10 s): a long outage is retried at this pace, never slower. */
  maxMs?: number;
  /** Growth per attempt (default 2). */
  multiplier?: number;
  /**
   * The share of each delay drawn at random (default 0.5: a delay d becomes a uniform draw in
   * [d/2, d]), so that clients dropped together do not come back together.
   */
  jitter?: number;
  /** The random source, in [0, 1) (tests pass a fixed one). */
  random?: () => number;
}

export class Backoff {
  private attempt = 0;
  private readonly initialMs: number;
  private readonly maxMs: number;
  private readonly multiplier: number;
  private readonly jitter: number;
  private readonly random: () => number;

  constructor(options: BackoffOptions = {}) {
    this.initialMs = options.initialMs ?? 250;
    this.maxMs = options.maxMs ?? 10_000;
    this.multiplier = options.multiplier ?? 2;
    this.jitter = Math.min(Math.max(options.jitter ?? 0.5, 0), 1);
    this.random = options.random ?? Math.random;
  }

  /** The delay before the next attempt; each call counts one more failure. */
  next(): number {
    // The exponent stops growing long before a double overflows; the cap rules by then anyway.
    const ceiling = Math.min(this.maxMs, this.initialMs * this.multiplier ** Math.min(this.attempt, 60));
    this.attempt++;
    return Math.round(ceiling * (1 - this.jitter * this.random()));
  }

  /** Failures since the last reset. */
  get failures(): number {
    return this.attempt;
  }

  /** After a success: the next failure waits the initial delay again. */
  reset(): void {
    this.attempt = 0;
  }
}

/** Resolves after `ms`, or at once (without rejecting) when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) {
      resolve();
      return;
    }
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}
