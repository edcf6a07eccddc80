// The gateway's front door: connections per peer address and idle HTTP/2 sessions, on a real
// socket (the front without upstreams: its handler only answers or holds requests).
import assert from "node:assert/strict";
import * as http2 from "node:http2";
import * as net from "node:net";
import { once } from "node:events";
import { test } from "node:test";
import { parseConfig } from "../../src/config.js";
import { createFront } from "../../src/server.js";

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
    const timer = setTimeout(() => resolve(false), ms);
    socket.once("close", () => { clearTimeout(timer); resolve(true); });
  });
}

async function connect(port: number): Promise<net.Socket> {
  const socket = net.connect(port, "127.0.0.1");
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
