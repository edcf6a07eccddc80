// "@kahve/client/node": gRPC over HTTP/2 from Node.js, to the services directly (or to any gRPC
// load balancer in front of them).
import { createGrpcTransport } from "@connectrpc/connect-node";
import type { Transport } from "@connectrpc/connect";
import { KahveClient } from "./client.js";
import { kahveInterceptors, type KahveTransportOptions } from "./transport_options.js";

export interface NodeTransportOptions extends KahveTransportOptions {
  /** "host:port" (plaintext, as the services speak) or a URL ("https://host:443"). */
  target: string;
  /** Default deadline of every call in ms (none by default; streams should keep none). */
  defaultTimeoutMs?: number;
}

const baseUrl = (target: string) => (/^https?:\/\//.test(target) ? target : `http://${target}`);

export function createNodeTransport(options: NodeTransportOptions): Transport {
  return createGrpcTransport({
    baseUrl: baseUrl(options.target),
    interceptors: kahveInterceptors(options),
    defaultTimeoutMs: options.defaultTimeoutMs,
    // The services' own limit (4 MiB per message), so a larger answer fails the same way here.
    readMaxBytes: 4 * 1024 * 1024,
    // The servers ping idle connections; pinging them more often than every 10 s gets a client
    // sent away (docs/operations.md section 8).
    pingIntervalMs: 30_000,
  });
}

export interface NodeClientOptions extends KahveTransportOptions {
  matchmaking: string;
  rating?: string;
  /** Any table host: where practice tables are opened and replays fetched. */
  table?: string;
  defaultTimeoutMs?: number;
}

/**
 * A KahveClient over gRPC: matchmaking, rating and a table host at their addresses, and each table
 * host at the endpoint its assignment names (one connection per endpoint).
 */
export function createNodeClient(options: NodeClientOptions): KahveClient {
  const transport = (target: string) => createNodeTransport({ ...options, target });
  return new KahveClient({
    transport: transport(options.matchmaking),
    ratingTransport: options.rating ? transport(options.rating) : undefined,
    defaultTableTransport: options.table ? transport(options.table) : undefined,
    tableTransport: transport,
  });
}

export { KahveClient };
