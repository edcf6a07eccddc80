// What both transports add to every call: the bearer token, kahve-table-id on table calls, and
// waiting out rate limits (in this order: a rate-limit retry re-sends with the same headers).
import type { Interceptor } from "@connectrpc/connect";
import { bearerInterceptor, type TokenProvider } from "./auth.js";
import { rateLimitRetryInterceptor, type RateLimitRetryOptions } from "./rate_limit.js";
import { tableIdInterceptor } from "./table_id.js";

export interface KahveTransportOptions {
  /** The player's JWT, or how to get it. */
  token: TokenProvider;
  /** Rate-limit waiting for unary calls; false turns it off. */
  rateLimitRetry?: RateLimitRetryOptions | false;
  /** More interceptors, run after kahve's (closest to the network last). */
  interceptors?: Interceptor[];
}

export function kahveInterceptors(options: KahveTransportOptions): Interceptor[] {
  const list: Interceptor[] = [bearerInterceptor(options.token), tableIdInterceptor()];
  if (options.rateLimitRetry !== false) list.push(rateLimitRetryInterceptor(options.rateLimitRetry || {}));
  return [...list, ...(options.interceptors ?? [])];
}
