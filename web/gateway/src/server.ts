// The gateway's HTTP front: one port that takes HTTP/1.1 (browsers on a local stack) and HTTP/2
// without TLS (h2c: a proxy such as Envoy in front), told apart by the first bytes of each
// connection. Requests go, by path, to gRPC-Web (under --rpc_prefix), the guest endpoint, /healthz,
// or the web client's files. Behind a proxy in --trusted_proxies, a request's client address is
// the one the proxy forwarded (client_address.ts), and the proxy's connections have no per-peer cap.
import { createContextValues } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import type { DescMethodServerStreaming, DescMethodUnary } from "@bufbuild/protobuf";
import * as http from "node:http";
import * as http2 from "node:http2";
import * as net from "node:net";
import { TrustedProxies, clientAddress as resolveClientAddress, normalizeAddress, peerOf } from "./client_address.js";
import type { Config } from "./config.js";
import { CorsPolicy } from "./cors.js";
import { GuestTokens } from "./guest.js";
import { log } from "./log.js";
import type { HttpKind, Metrics } from "./metrics.js";
import { kPeer, streamHandler, unaryHandler, type ProxySettings } from "./proxy.js";
import { routedMethods, type Upstream } from "./routes.js";
import { StaticFiles, chooseEncoding } from "./static_files.js";
import type { UpstreamPool } from "./upstream.js";

type Request = http.IncomingMessage | http2.Http2ServerRequest;
type Response = http.ServerResponse | http2.Http2ServerResponse;

export interface Front {
  server: net.Server;
  /** Every open client socket, to close at shutdown. */
  sockets: Set<net.Socket>;
  /** Every HTTP/2 session (a proxy's connection), to send GOAWAY at shutdown. */
  sessions: Set<http2.ServerHttp2Session>;
  http1: http.Server;
  http2: http2.Http2Server;
}

export interface GatewayParts {
  config: Config;
  pools: Record<Upstream, UpstreamPool>;
  metrics: Metrics;
  proxy: ProxySettings;
  staticFiles: StaticFiles;
  isDraining: () => boolean;
}

function send(res: Response, status: number, headers: Record<string, string>, body?: Buffer | string): void {
  res.writeHead(status, headers);
  if (body === undefined) res.end();
  else res.end(body);
}

export function createHandler(parts: GatewayParts): (req: Request, res: Response) => void {
  const { config, metrics, staticFiles } = parts;
  const proxies = TrustedProxies.parse(config.trusted_proxies);
  // The socket's address, or behind a trusted proxy the client's it forwarded.
  const clientAddress = (req: Request) =>
    resolveClientAddress(req.socket.remoteAddress, req.headers["x-forwarded-for"], proxies);
  const cors = new CorsPolicy(config.allowed_origins);
  const guest = config.guest_tokens
    ? new GuestTokens({
      secret: config.jwt_hs256_secret,
      ttlSeconds: config.guest_token_ttl_seconds,
      issuer: config.jwt_issuer,
      audience: config.jwt_audience,
      perMinute: config.guest_tokens_per_minute,
    })
    : undefined;
  const prefix = config.rpc_prefix.replace(/\/$/, "");
  const rpc = connectNodeAdapter({
    grpcWeb: true,
    grpc: false,
    connect: false,
    requestPathPrefix: prefix,
    readMaxBytes: config.max_message_bytes,
    writeMaxBytes: config.max_message_bytes,
    // The services take no compressed requests; browsers send none over gRPC-Web anyway.
    acceptCompression: [],
    shutdownSignal: parts.proxy.shutdown,
    // The connection's peer, for the x-forwarded-for the upstream call carries (proxy.ts).
    contextValues: (req) => createContextValues().set(kPeer, peerOf(req.socket.remoteAddress, proxies)),
    routes(router) {
      for (const { method, upstream } of routedMethods()) {
        const pool = parts.pools[upstream];
        if (method.methodKind === "unary") {
          router.rpc(method as DescMethodUnary, unaryHandler(method as DescMethodUnary, pool, parts.proxy, metrics) as never);
        } else if (method.methodKind === "server_streaming") {
          router.rpc(method as DescMethodServerStreaming,
            streamHandler(method as DescMethodServerStreaming, pool, parts.proxy, metrics) as never);
        }
      }
    },
    fallback(_req, res) {
      // A method that is not routed (service or admin only, or unknown): as gRPC-Web answers a
      // method nobody serves.
      metrics.httpRequest("refused", 200);
      res.writeHead(200, { "content-type": "application/grpc-web+proto", "grpc-status": "12", "grpc-message": "not routed by the gateway" });
      res.end();
    },
  });

  const securityHeaders: Record<string, string> = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cross-origin-opener-policy": "same-origin",
    "x-frame-options": "DENY",
  };
  if (config.content_security_policy) securityHeaders["content-security-policy"] = config.content_security_policy;

  const plain = (res: Response, kind: HttpKind, status: number, text: string, extra: Record<string, string> = {}) => {
    metrics.httpRequest(kind, status);
    send(res, status, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", ...securityHeaders, ...extra }, `${text}\n`);
  };

  // Answers a preflight, or refuses an origin that may not call; true when the request goes on.
  const passesCors = (req: Request, res: Response, method: string): boolean => {
    if (method === "OPTIONS") {
      const answer = cors.preflight(req.headers);
      metrics.httpRequest("preflight", answer.status);
      send(res, answer.status, answer.headers);
      return false;
    }
    if (!cors.permits(req.headers)) {
      plain(res, "refused", 403, "this origin may not call the gateway (--allowed_origins)");
      return false;
    }
    return true;
  };

  return (req, res) => {
    const url = req.url ?? "/";
    const pathname = url.split("?", 1)[0]!;
    const method = req.method ?? "GET";

    if (pathname.startsWith(`${prefix}/`)) {
      if (!passesCors(req, res, method)) return;
      for (const [k, v] of Object.entries(cors.responseHeaders(req.headers))) res.setHeader(k, v);
      rpc(req as never, res as never);
      return;
    }
    if (pathname === "/healthz") {
      const status = parts.isDraining() ? 503 : 200;
      plain(res, "health", status, status === 200 ? "ok" : "draining");
      return;
    }
    if (pathname === "/auth/guest") {
      if (!guest) {
        plain(res, "guest", 404, "guest tokens are off (--guest_tokens)");
        return;
      }
      if (!passesCors(req, res, method)) return;
      const headers = { "content-type": "application/json", "cache-control": "no-store", ...cors.responseHeaders(req.headers) };
      if (method === "GET") {
        metrics.httpRequest("guest", 200);
        send(res, 200, headers, JSON.stringify({ enabled: true }));
        return;
      }
      if (method !== "POST") {
        plain(res, "guest", 405, "POST for a token", { allow: "GET, POST" });
        return;
      }
      req.resume(); // no body is read
      const address = clientAddress(req);
      if (!guest.allow(address)) {
        metrics.guestTokens.inc({ result: "refused" });
        log("debug", "guest token refused", { address });
        plain(res, "guest", 429, "too many guest tokens from this address; retry in a minute", { "retry-after": "60" });
        return;
      }
      metrics.guestTokens.inc({ result: "issued" });
      metrics.httpRequest("guest", 200);
      const issued = guest.issue();
      log("info", "guest token issued", { player_id: issued.player_id, address });
      send(res, 200, headers, JSON.stringify(issued));
      return;
    }
    if (method !== "GET" && method !== "HEAD") {
      plain(res, "static", 405, "method not allowed", { allow: "GET, HEAD" });
      return;
    }
    const file = staticFiles.lookup(pathname);
    if (!file) {
      plain(res, "static", 404, "not found");
      return;
    }
    const common = { ...securityHeaders, "cache-control": file.cacheControl, etag: file.etag, vary: "Accept-Encoding" };
    if (req.headers["if-none-match"] === file.etag) {
      metrics.httpRequest("static", 304);
      send(res, 304, common);
      return;
    }
    const encoding = chooseEncoding(req.headers["accept-encoding"] as string | undefined, file);
    const body = encoding === "br" ? file.br! : encoding === "gzip" ? file.gzip! : file.body;
    const headers: Record<string, string> = { ...common, "content-type": file.type, "content-length": String(body.length) };
    if (encoding) headers["content-encoding"] = encoding;
    metrics.httpRequest("static", 200);
    send(res, 200, headers, method === "HEAD" ? undefined : body);
  };
}

/**
 * Open connections per peer address, so that one address cannot take every slot of
 * --max_connections. A socket admitted is counted until it closes. A trusted proxy's connections
 * carry many clients: they are not counted here (--max_connections still bounds them).
 */
export class PeerCounts {
  private readonly counts = new Map<string, number>();
  constructor(private readonly limit: number, private readonly proxies: TrustedProxies = TrustedProxies.parse("")) {}

  admit(socket: net.Socket): boolean {
    const peer = normalizeAddress(socket.remoteAddress);
    if (this.proxies.contains(peer)) return true;
    const held = this.counts.get(peer) ?? 0;
    if (this.limit > 0 && held >= this.limit) return false;
    this.counts.set(peer, held + 1);
    socket.once("close", () => {
      const left = (this.counts.get(peer) ?? 1) - 1;
      if (left === 0) this.counts.delete(peer);
      else this.counts.set(peer, left);
    });
    return true;
  }

  /** Peers holding connections (bounded by --max_connections). */
  get peers(): number {
    return this.counts.size;
  }
}

/**
 * One listening socket for both protocols: HTTP/2's client preface starts with "PRI * HTTP/2.0",
 * anything else is HTTP/1.x. The socket goes to the matching server with its first bytes put back.
 */
export function createFront(handler: (req: Request, res: Response) => void, config: Config): Front {
  const http1 = http.createServer({ maxHeaderSize: 16 * 1024 }, handler);
  http1.headersTimeout = 20_000;
  http1.requestTimeout = 60_000; // the whole request; a stream's request is one small message
  http1.keepAliveTimeout = 75_000;
  const h2 = http2.createServer({
    maxSessionMemory: 64,
    settings: { maxConcurrentStreams: 1000, maxHeaderListSize: 16 * 1024 },
  }, handler);
  const sockets = new Set<net.Socket>();
  const sessions = new Set<http2.ServerHttp2Session>();
  const idleMs = config.connection_idle_timeout_seconds * 1000;
  h2.on("session", (session) => {
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
    // A session without streams holds a connection slot for nothing: close it once idle. One with
    // an open stream (a table's Connect may be quiet for minutes) stays.
    let streams = 0;
    session.on("stream", (stream) => {
      streams += 1;
      stream.once("close", () => { streams -= 1; });
    });
    if (idleMs > 0) session.setTimeout(idleMs, () => { if (streams === 0) session.close(); });
  });
  // Before HTTP/1.1's keep-alive timeout takes over, a connection with no request yet.
  if (idleMs > 0) http1.keepAliveTimeout = Math.min(http1.keepAliveTimeout, idleMs);
  const perPeer = new PeerCounts(config.max_connections_per_peer, TrustedProxies.parse(config.trusted_proxies));
  // Nagle's algorithm off, as http.Server has it: gRPC-Web answers are several small writes
  // (headers, the message, the trailers) that would otherwise wait for the client's delayed ACK.
  const server = net.createServer({ noDelay: true, keepAlive: true, keepAliveInitialDelay: 60_000 }, (socket) => {
    if (!perPeer.admit(socket)) {
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    socket.setTimeout(20_000, () => socket.destroy()); // until the first bytes
    socket.once("data", (first: Buffer) => {
      socket.setTimeout(0);
      socket.pause();
      socket.unshift(first);
      if (first.subarray(0, 3).toString("latin1") === "PRI") {
        // The HTTP/2 session takes the buffered bytes and then reads the socket itself.
        h2.emit("connection", socket);
      } else {
        // The HTTP/1 parser is fed 'data' events: flowing again, the put-back bytes come first.
        http1.emit("connection", socket);
        socket.resume();
      }
    });
  });
  server.maxConnections = config.max_connections;
  return { server, sockets, sessions, http1, http2: h2 };
}
