// "@kahve/client/web": gRPC-Web over fetch, for browsers (and Node.js 18+, which has fetch), to
// kahve's gateway: one address for every service.
import { createGrpcWebTransport } from "@connectrpc/connect-web";
import type { Transport } from "@connectrpc/connect";
import { KahveClient } from "./client.js";
import { kahveInterceptors, type KahveTransportOptions } from "./transport_options.js";

export interface WebTransportOptions extends KahveTransportOptions {
  /**
   * The gateway's RPC address: origin and path prefix, e.g. "/rpc" on the page's own origin or
   * "https://play.example.com/rpc".
   */
  baseUrl: string;
  defaultTimeoutMs?: number;
  /** fetch to use (tests, or a wrapped fetch); globalThis.fetch by default. */
  fetch?: typeof globalThis.fetch;
}

export function createWebTransport(options: WebTransportOptions): Transport {
  return createGrpcWebTransport({
    baseUrl: options.baseUrl,
    interceptors: kahveInterceptors(options),
    defaultTimeoutMs: options.defaultTimeoutMs,
    fetch: options.fetch,
  });
}

/** A KahveClient over gRPC-Web: every service, tables included, through the one gateway address. */
export function createWebClient(options: WebTransportOptions): KahveClient {
  return new KahveClient({ transport: createWebTransport(options) });
}

export { KahveClient };
