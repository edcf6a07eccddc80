// The gateway's front door: connections per peer address and idle HTTP/2 sessions, on a real
// socket (the front without upstreams: its handler only answers or holds requests); and behind a
// trusted proxy, the client address of guest tokens and the x-forwarded-for a fake upstream gets.
// Clients call from 127.0.0.1 and 127.0.0.2 (both loopback on Linux): one a proxy, one not.
import assert from "node:assert/strict";
import * as http from "node:http";
import * as http2 from "node:http2";
import * as net from "node:net";
import { once } from "node:events";
import { test } from "node:test";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-node";
import { MatchmakingService, RatingService } from "@kahve/client";
import { parseConfig } from "../../src/config.js";
import { setLogLevel } from "../../src/log.js";
import { Metrics } from "../../src/metrics.js";
import { createFront, createHandler } from "../../src/server.js";
import { StaticFiles } from "../../src/static_files.js";
import { UpstreamPool } from "../../src/upstream.js";
import type { Upstream } from "../../src/routes.js";

setLogLevel("error"); // guest tokens are logged at info: keep the test's output to TAP

async function listen(argv: string[], handler: Parameters<typeof createFront>[0]) {
  const front = createFront(handler, parseConfig(["--port=0", ...argv], {}));
  front.server.listen(0, "127.0.0.1");
  await once(front.server, "listening");
  const port = (front.server.address() as net.AddressInfo).port;
  return { front, port };
}

/** Whether the server closes `socket` within `ms` (true) or leaves it open (false). */
function closedWithin(socket: net.Socket | http2.ClientHttp2Session, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    if (socket instanceof net.Socket && socket.closed) return void resolve(true); // closed already
    const timer = setTimeout(() => resolve(false), ms);
    socket.once("close", () => { clearTimeout(timer); resolve(true); });
  });
}

async function connect(port: number, localAddress = "127.0.0.1"): Promise<net.Socket> {
  const socket = net.connect({ port, host: "127.0.0.1", localAddress });
  socket.on("error", () => {});
  await once(socket, "connect");
  return socket;
}

test("one peer address holds at most --max_connections_per_peer connections; a slot frees when one closes", async () => {
  const { front, port } = await listen(["--max_connections_per_peer=2"], (_req, res) => res.end());
  try {
    const first = await connect(port);
    const second = await connect(port);
    const third = await connect(port);
    assert.equal(await closedWithin(third, 2_000), true, "the third is closed at accept");
    assert.equal(await closedWithin(second, 300), false, "the first two stay");
    first.destroy();
    await once(first, "close");
    await new Promise((r) => setTimeout(r, 100)); // the server sees the close
    const again = await connect(port);
    assert.equal(await closedWithin(again, 300), false, "a closed connection's slot is free again");
    second.destroy();
    again.destroy();
  } finally {
    for (const s of front.sockets) s.destroy();
    front.server.close();
  }
});

test("an HTTP/2 session without streams is closed once idle; one holding a stream stays", async () => {
  const held: http2.Http2ServerResponse[] = [];
  const { front, port } = await listen(["--connection_idle_timeout_seconds=1"], (req, res) => {
    if (req.url !== "/hold") return void res.end("ok");
    // A stream that stays open and quiet, as a table's Connect between moves.
    const stream = res as http2.Http2ServerResponse;
    stream.writeHead(200);
    stream.write("x");
    held.push(stream);
  });
  try {
    const idle = http2.connect(`http://127.0.0.1:${port}`);
    idle.on("error", () => {});
    const answered = idle.request({ ":path": "/quick" });
    answered.resume();
    await once(answered, "close");
    const busy = http2.connect(`http://127.0.0.1:${port}`);
    busy.on("error", () => {});
    const stream = busy.request({ ":path": "/hold" });
    stream.on("error", () => {});
    stream.resume();
    await once(stream, "response");
    const [idleClosed, busyClosed] = await Promise.all([closedWithin(idle, 4_000), closedWithin(busy, 2_500)]);
    assert.equal(idleClosed, true, "the session whose only request ended is closed");
    assert.equal(busyClosed, false, "the session with an open stream stays");
    for (const res of held) res.end();
    busy.close();
  } finally {
    for (const s of front.sockets) s.destroy();
    front.server.close();
  }
});

test("a trusted proxy's connections are exempt from the per-peer cap, not from --max_connections", async () => {
  const { front, port } = await listen(["--max_connections_per_peer=1", "--max_connections=4", "--trusted_proxies=127.0.0.2"],
    (_req, res) => res.end());
  try {
    const proxy = [await connect(port, "127.0.0.2"), await connect(port, "127.0.0.2"), await connect(port, "127.0.0.2")];
    const client = await connect(port, "127.0.0.1");
    const second = await connect(port, "127.0.0.1");
    assert.equal(await closedWithin(second, 2_000), true, "an untrusted peer still holds one");
    assert.deepEqual(await Promise.all([...proxy, client].map((s) => closedWithin(s, 300))), [false, false, false, false],
      "the proxy holds three, the client one");
    const overTotal = await connect(port, "127.0.0.2");
    assert.equal(await closedWithin(overTotal, 2_000), true, "the fifth connection is past --max_connections");
    for (const s of [...proxy, client]) s.destroy();
  } finally {
    for (const s of front.sockets) s.destroy();
    front.server.close();
  }
});

/** POST /auth/guest from `localAddress` with `xff` as x-forwarded-for; the status. */
function guestToken(port: number, localAddress: string, xff?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, localAddress, method: "POST", path: "/auth/guest", agent: false,
      headers: xff === undefined ? {} : { "x-forwarded-for": xff } }, (res) => {
      res.resume();
      res.once("end", () => resolve(res.statusCode ?? 0));
    });
    req.once("error", reject);
    req.end();
  });
}

test("behind a trusted proxy: guest tokens are limited per forwarded client, and the services get x-forwarded-for", { timeout: 30_000 }, async () => {
  // A fake service: it records each call's x-forwarded-for and answers NOT_FOUND (trailers only).
  const seen: (string | undefined)[] = [];
  const upstream = http2.createServer();
  upstream.on("stream", (stream, headers) => {
    seen.push(headers["x-forwarded-for"] as string | undefined);
    stream.respond({ ":status": 200, "content-type": "application/grpc", "grpc-status": String(Code.NotFound), "grpc-message": "none" },
      { endStream: true });
  });
  upstream.listen(0, "127.0.0.1");
  await once(upstream, "listening");
  const target = `127.0.0.1:${(upstream.address() as net.AddressInfo).port}`;
  const config = parseConfig(["--port=0", "--trusted_proxies=127.0.0.2", "--guest_tokens", "--guest_tokens_per_minute=1",
    "--jwt_hs256_secret=0123456789abcdef0123456789abcdef", `--matchmaking_target=${target}`, `--rating_target=${target}`,
    `--table_target=${target}`], {});
  const options = { maxStreamsPerConnection: 10, maxConnections: 2, readMaxBytes: 1 << 20 };
  const pools: Record<Upstream, UpstreamPool> = {
    matchmaking: new UpstreamPool("matchmaking", target, options),
    table: new UpstreamPool("table", target, options),
    rating: new UpstreamPool("rating", target, options),
  };
  const shutdown = new AbortController();
  const handler = createHandler({
    config, pools, metrics: new Metrics(Object.values(pools)), staticFiles: new StaticFiles(""), isDraining: () => false,
    proxy: { unaryTimeoutMs: 5_000, streamMaxMs: 0, maxStreams: 10, shutdown: shutdown.signal },
  });
  const front = createFront(handler, config);
  front.server.listen(0, "127.0.0.1");
  await once(front.server, "listening");
  const port = (front.server.address() as net.AddressInfo).port;
  try {
    // Guest tokens: the proxy's clients each have their own allowance; forged entries change nothing.
    assert.equal(await guestToken(port, "127.0.0.2", "203.0.113.7"), 200);
    assert.equal(await guestToken(port, "127.0.0.2", "203.0.113.7"), 429, "the same forwarded client");
    assert.equal(await guestToken(port, "127.0.0.2", "6.6.6.6, 203.0.113.7"), 429, "a forged entry left of it");
    assert.equal(await guestToken(port, "127.0.0.2", "203.0.113.8"), 200, "another client behind the proxy");
    assert.equal(await guestToken(port, "127.0.0.2", "127.0.0.2"), 200, "only proxies: the proxy's own address");
    // An untrusted peer's x-forwarded-for is its own writing: it is limited by its socket's address.
    assert.equal(await guestToken(port, "127.0.0.1", "198.51.100.1"), 200);
    assert.equal(await guestToken(port, "127.0.0.1", "198.51.100.2"), 429);

    // gRPC-Web calls over HTTP/1.1 (a browser) and HTTP/2 (Envoy's h2c), unary and a stream.
    const h1 = (localAddress: string) => createGrpcWebTransport({ baseUrl: `http://127.0.0.1:${port}/rpc`, httpVersion: "1.1",
      nodeOptions: { localAddress, agent: false } });
    const h2 = (localAddress: string) => createGrpcWebTransport({ baseUrl: `http://127.0.0.1:${port}/rpc`, httpVersion: "2",
      nodeOptions: { createConnection: () => net.connect({ port, host: "127.0.0.1", localAddress }) } });
    const xff = { "x-forwarded-for": "6.6.6.6, 198.51.100.1" };
    const refused = async (call: () => Promise<unknown>) => {
      const err = await call().then(() => undefined, (e: unknown) => ConnectError.from(e));
      assert.equal(err?.code, Code.NotFound, "the fake service's answer comes back");
    };
    await refused(() => createClient(RatingService, h1("127.0.0.1")).getRatings({}, { headers: xff }));
    await refused(() => createClient(RatingService, h1("127.0.0.2")).getRatings({}, { headers: xff }));
    await refused(() => createClient(RatingService, h2("127.0.0.2")).getRatings({}, { headers: xff }));
    await refused(async () => {
      for await (const _ of createClient(MatchmakingService, h2("127.0.0.2")).watchTicket({}, { headers: xff })) { /* none */ }
    });
    await refused(async () => {
      for await (const _ of createClient(MatchmakingService, h1("127.0.0.1")).watchTicket({}, { headers: xff })) { /* none */ }
    });
    assert.deepEqual(seen, [
      "127.0.0.1",
      "6.6.6.6, 198.51.100.1, 127.0.0.2",
      "6.6.6.6, 198.51.100.1, 127.0.0.2",
      "6.6.6.6, 198.51.100.1, 127.0.0.2",
      "127.0.0.1",
    ]);
  } finally {
    shutdown.abort();
    for (const p of Object.values(pools)) p.close();
    for (const s of front.sockets) s.destroy();
    front.server.close();
    upstream.close();
  }
});
