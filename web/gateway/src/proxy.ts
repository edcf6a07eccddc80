// One handler per routed method: the browser's call, decoded by Connect's gRPC-Web protocol, is
// made again as gRPC to the service, and the answer, or the refusal, goes back as it came:
// - request metadata: only `authorization` (unchanged), `kahve-table-id` and `x-request-id` (the
//   entry proxy's; the services keep it only when it is a plain token); nothing else a client
//   sends reaches the services (kahve-forwarded-* least of all: the table hosts trust it), but for
//   `x-forwarded-for`, which the gateway writes itself: the entries the request brought, only when
//   its connection is from a --trusted_proxies proxy (a client's own are dropped), then the
//   connection's peer address; the services (the gateway's pods in their --trusted_proxies) take
//   the client address from it as the gateway does (client_address.ts);
// - the deadline (grpc-timeout) passes on; a unary call without one gets --unary_timeout_seconds;
// - a refusal keeps its code, its message and its grpc-status-details-bin bytes verbatim (the
//   structured details) and grpc-retry-pushback-ms; every answer keeps the call's x-request-id; a failure to reach the service becomes
//   UNAVAILABLE with a message that names no address.
import type { DescMethod, DescMethodServerStreaming, DescMethodUnary } from "@bufbuild/protobuf";
import { Code, ConnectError, createContextKey, type HandlerContext } from "@connectrpc/connect";
import { createAsyncIterable } from "@connectrpc/connect/protocol";
import type { Peer } from "./client_address.js";
import { log } from "./log.js";
import type { Metrics } from "./metrics.js";
import type { UpstreamPool } from "./upstream.js";

/** Request headers passed to the services; every other one stays at the gateway. */
export const kForwardedRequestHeaders = ["authorization", "kahve-table-id", "x-request-id"] as const;
/** Response metadata passed back besides the status: the rate-limit hint and kahve's own. */
const kPassedResponseMetadata = ["grpc-retry-pushback-ms", "grpc-status-details-bin", "x-request-id"];
const isPassed = (key: string) =>
  kPassedResponseMetadata.includes(key) || (key.startsWith("kahve-") && !key.startsWith("kahve-forwarded"));

export interface ProxySettings {
  unaryTimeoutMs: number;
  streamMaxMs: number;
  maxStreams: number;
  /** Aborted when the gateway shuts down: streams end with UNAVAILABLE. */
  shutdown: AbortSignal;
}

/** The connection a call came over; server.ts sets it for each request (Connect's contextValues). */
export const kPeer = createContextKey<Peer>({ address: "", trusted: false }, { description: "kahve-gateway peer" });

/**
 * The metadata of the upstream call for a request with headers `from` over a connection from
 * `peer`: kForwardedRequestHeaders as they came, and x-forwarded-for with `peer` appended.
 */
export function forwardedHeaders(from: Headers, peer: Peer): Headers {
  const out = new Headers();
  for (const name of kForwardedRequestHeaders) {
    const value = from.get(name);
    if (value !== null) out.set(name, value);
  }
  // Headers joins repeated x-forwarded-for values with ", ": one list, in the order received.
  const hops: string[] = [];
  const incoming = peer.trusted ? from.get("x-forwarded-for")?.trim() : undefined;
  if (incoming) hops.push(incoming);
  if (peer.address) hops.push(peer.address);
  if (hops.length > 0) out.set("x-forwarded-for", hops.join(", "));
  out.set("user-agent", "kahve-gateway");
  return out;
}

function copyPassed(from: Headers, to: Headers): void {
  from.forEach((value, key) => {
    if (isPassed(key)) to.set(key, value);
  });
}

/**
 * The error the browser gets for a failed upstream call. A status from the service (its trailers
 * carry grpc-status) keeps everything; anything else is the gateway's own failure to reach it.
 */
export function clientError(err: unknown, method: DescMethod): ConnectError {
  const error = ConnectError.from(err);
  if (error.metadata.has("grpc-status")) {
    const metadata = new Headers();
    copyPassed(error.metadata, metadata);
    // The raw grpc-status-details-bin rides in the metadata; with no details of its own the error
    // is written with those bytes untouched (Connect re-encodes only details it holds itself).
    return new ConnectError(error.rawMessage, error.code, metadata);
  }
  if (error.code === Code.DeadlineExceeded || error.code === Code.Canceled) return new ConnectError(error.rawMessage, error.code);
  log("warning", "upstream call failed", { method: method.name, code: Code[error.code], error: error.rawMessage });
  return new ConnectError(
    "the service is unavailable; retry shortly (streams: reconnect with after_seq)",
    Code.Unavailable,
  );
}

/** The timeout for the upstream call: the client's remaining deadline, or `fallbackMs`. */
function timeoutFor(ctx: HandlerContext, fallbackMs: number | undefined): number | undefined {
  const remaining = ctx.timeoutMs();
  if (remaining === undefined) return fallbackMs;
  if (remaining <= 0) throw new ConnectError("the deadline passed", Code.DeadlineExceeded);
  return fallbackMs === undefined ? remaining : Math.min(remaining, fallbackMs);
}

export function unaryHandler(method: DescMethodUnary, pool: UpstreamPool, settings: ProxySettings, metrics: Metrics) {
  return async (request: unknown, ctx: HandlerContext) => {
    const stop = metrics.startCall(method);
    const lease = pool.leaseUnary();
    try {
      const timeoutMs = timeoutFor(ctx, settings.unaryTimeoutMs);
      const header = forwardedHeaders(ctx.requestHeader, ctx.values.get(kPeer));
      const response = await lease.transport.unary(method, ctx.signal, timeoutMs, header, request as never);
      copyPassed(response.header, ctx.responseHeader);
      copyPassed(response.trailer, ctx.responseTrailer);
      stop("OK");
      return response.message;
    } catch (err) {
      const error = clientError(err, method);
      stop(error.code);
      throw error;
    } finally {
      lease.release();
    }
  };
}

export function streamHandler(
  method: DescMethodServerStreaming,
  pool: UpstreamPool,
  settings: ProxySettings,
  metrics: Metrics,
) {
  return async function* (request: unknown, ctx: HandlerContext) {
    const stop = metrics.startCall(method);
    if (metrics.streamsOpen() >= settings.maxStreams) {
      stop(Code.ResourceExhausted);
      throw new ConnectError(`the gateway holds --max_streams (${settings.maxStreams}) streams; retry later`,
        Code.ResourceExhausted);
    }
    const lease = pool.leaseStream();
    if (!lease) {
      stop(Code.ResourceExhausted);
      throw new ConnectError("the gateway holds every stream its connections to the service allow; retry later",
        Code.ResourceExhausted);
    }
    const endStream = metrics.streamOpened(method);
    // The upstream call ends when the browser leaves, at the stream's lifetime, or at shutdown.
    const call = new AbortController();
    let ending: "lifetime" | "shutdown" | undefined;
    const onClientGone = () => call.abort();
    const onShutdown = () => {
      ending = "shutdown";
      call.abort();
    };
    ctx.signal.addEventListener("abort", onClientGone, { once: true });
    settings.shutdown.addEventListener("abort", onShutdown, { once: true });
    const lifetime = settings.streamMaxMs > 0
      ? setTimeout(() => {
        ending = "lifetime";
        call.abort();
      }, settings.streamMaxMs)
      : undefined;
    let code: Code | "OK" = "OK";
    try {
      if (settings.shutdown.aborted) onShutdown();
      const response = await lease.transport.stream(method, call.signal, timeoutFor(ctx, undefined),
        forwardedHeaders(ctx.requestHeader, ctx.values.get(kPeer)), createAsyncIterable([request as never]));
      copyPassed(response.header, ctx.responseHeader);
      for await (const message of response.message) yield message;
      copyPassed(response.trailer, ctx.responseTrailer);
    } catch (err) {
      const error = ending === "lifetime"
        ? new ConnectError("the gateway ends streams after --stream_max_seconds; reconnect (Connect: with after_seq)", Code.Unavailable)
        : ending === "shutdown"
          ? new ConnectError("the gateway is shutting down; reconnect (Connect: with after_seq)", Code.Unavailable)
          : clientError(err, method);
      code = error.code;
      throw error;
    } finally {
      clearTimeout(lifetime);
      ctx.signal.removeEventListener("abort", onClientGone);
      settings.shutdown.removeEventListener("abort", onShutdown);
      call.abort();
      lease.release();
      endStream();
      stop(code);
    }
  };
}
