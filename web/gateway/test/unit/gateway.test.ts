// The gateway's parts on their own: what is routed, settings, trusted proxies and client
// addresses, request metadata, errors, CORS, guest tokens and the static files.
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { gunzipSync, brotliDecompressSync } from "node:zlib";
import { Code, ConnectError, MatchmakingService, RatingService, TableService } from "@kahve/client";
import { TrustedProxies, clientAddress, parseIp, peerOf } from "../../src/client_address.js";
import { parseConfig } from "../../src/config.js";
import { CorsPolicy } from "../../src/cors.js";
import { GuestTokens } from "../../src/guest.js";
import { clientError, forwardedHeaders } from "../../src/proxy.js";
import { kServices, routedMethods } from "../../src/routes.js";
import { StaticFiles, chooseEncoding } from "../../src/static_files.js";
import { UpstreamPool } from "../../src/upstream.js";

test("every method of the three services is either routed or refused, never both, never forgotten", () => {
  for (const service of [MatchmakingService, TableService, RatingService]) {
    const entry = kServices.find((s) => s.service.typeName === service.typeName);
    assert.ok(entry, `${service.typeName} is listed`);
    for (const method of service.methods) {
      const routed = entry.routed.includes(method.name);
      const refused = method.name in entry.refused;
      assert.ok(routed !== refused, `${service.typeName}.${method.name}: routed or refused, exactly one`);
    }
  }
  const names = routedMethods().map((r) => `${r.method.parent.name}.${r.method.name}`);
  for (const adminOnly of ["TableService.CreateTable", "TableService.ListTables", "TableService.ListHosts",
    "TableService.GetMatchStates", "RatingService.RecordMatch"]) {
    assert.ok(!names.includes(adminOnly), `${adminOnly} is not routed`);
  }
  assert.ok(names.includes("TableService.Connect") && names.includes("MatchmakingService.WatchTicket"));
});

test("settings: defaults, KAHVE_ variables, then flags; mistakes are named", () => {
  const c = parseConfig(["--port=0", "--guest_tokens", "--noguest_tokens", "--allowed_origins", "https://a.example"],
    { KAHVE_PORT: "9999", KAHVE_MAX_STREAMS: "7", KAHVE_JWT_HS256_SECRET: "s" });
  assert.equal(c.port, 0);
  assert.equal(c.max_streams, 7);
  assert.equal(c.guest_tokens, false);
  assert.equal(c.allowed_origins, "https://a.example");
  assert.equal(c.jwt_hs256_secret, "s");
  assert.equal(c.rpc_prefix, "/rpc");
  assert.throws(() => parseConfig(["--prot=1"], {}), /unknown flag --prot/);
  assert.throws(() => parseConfig(["--port=x"], {}), /--port: an integer/);
  assert.throws(() => parseConfig(["serve"], {}), /unexpected argument/);
});

test("--trusted_proxies: CIDR ranges and bare addresses, IPv4 and IPv6; a bad range is named at start", () => {
  assert.equal(parseConfig([], {}).trusted_proxies, "", "none by default");
  const c = parseConfig([], { KAHVE_TRUSTED_PROXIES: " 10.0.0.0/8, fd00::/8 ,192.0.2.7,, 2001:DB8::1, ::ffff:172.16.0.0/12,[::1]" });
  const proxies = TrustedProxies.parse(c.trusted_proxies);
  assert.equal(proxies.toString(), "10.0.0.0/8,fd00::/8,192.0.2.7/32,2001:db8::1/128,172.16.0.0/12,::1/128");
  for (const inside of ["10.255.0.1", "::ffff:10.1.2.3", "fd12:3456::1", "192.0.2.7", "2001:db8:0::1", "172.31.255.255", "::1", "[::1]"]) {
    assert.ok(proxies.contains(inside), `${inside} is trusted`);
  }
  for (const outside of ["11.0.0.1", "192.0.2.8", "fe80::1", "2001:db8::2", "172.32.0.1", "localhost", "", "10.0.0.1:80", "fd00::1%eth0"]) {
    assert.ok(!proxies.contains(outside), `${outside} is not trusted`);
  }
  assert.ok(!TrustedProxies.parse("::/0").contains("10.0.0.1"), "an IPv6 range holds no IPv4 address");
  assert.ok(TrustedProxies.parse("0.0.0.0/0").contains("::ffff:8.8.8.8"), "a mapped address is IPv4");
  assert.ok(TrustedProxies.parse("").empty);
  assert.equal(parseConfig(["--trusted_proxies=10.0.0.0/8"], { KAHVE_TRUSTED_PROXIES: "fd00::/8" }).trusted_proxies, "10.0.0.0/8");
  for (const [bad, message] of [
    ["10.0.0.0/8,10.0.0.300/32", /--trusted_proxies: "10\.0\.0\.300\/32" is not an address or CIDR range/],
    ["envoy.internal", /"envoy\.internal" is not an address/],
    ["10.0.0.0/33", /"10\.0\.0\.0\/33" needs a prefix length 0-32/],
    ["fd00::/129", /"fd00::\/129" needs a prefix length 0-128/],
    ["10.0.0.0/", /"10\.0\.0\.0\/" needs a prefix length/],
    ["10.0.0.0/-1", /needs a prefix length/],
    ["10.0.0.0/8/8", /needs a prefix length/],
    ["::ffff:10.0.0.0/104", /needs a prefix length 0-32/],
    ["10.0.0.1:8080", /is not an address/],
    ["fe80::1%eth0/64", /is not an address/],
  ] as const) {
    assert.throws(() => parseConfig([`--trusted_proxies=${bad}`], {}), message, bad);
  }
  assert.throws(() => parseConfig([], { KAHVE_TRUSTED_PROXIES: "10.0.0.0/40" }), /--trusted_proxies: "10\.0\.0\.0\/40"/);
});

test("IP literals are spelled one way: IPv6 canonically, IPv4-mapped as IPv4; anything else is none", () => {
  assert.deepEqual(parseIp("203.0.113.7"), { address: "203.0.113.7", family: "ipv4" });
  assert.deepEqual(parseIp("::FFFF:CB00:7107"), { address: "203.0.113.7", family: "ipv4" });
  assert.deepEqual(parseIp("[2001:DB8:0:0::1]"), { address: "2001:db8::1", family: "ipv6" });
  for (const none of ["", "unknown", "203.0.113.7:443", "01.2.3.4", "1.2.3", "fe80::1%eth0", "[::1]:80", "_hidden"]) {
    assert.equal(parseIp(none), undefined, none);
  }
});

test("client address: the socket's, unless a trusted proxy forwarded one; forged and malformed entries fall back", () => {
  const proxies = TrustedProxies.parse("10.0.0.0/8, fd00::/8");
  const none = TrustedProxies.parse("");
  // A peer not in a range: its x-forwarded-for is the client's own writing.
  assert.equal(clientAddress("203.0.113.7", "198.51.100.1", proxies), "203.0.113.7");
  assert.equal(clientAddress("::ffff:203.0.113.7", "198.51.100.1", none), "203.0.113.7");
  assert.equal(clientAddress("10.1.1.1", "198.51.100.1", none), "10.1.1.1", "no ranges: no proxy");
  assert.equal(clientAddress(undefined, "198.51.100.1", proxies), "unknown");
  // A trusted peer: the rightmost entry that is no trusted proxy.
  assert.equal(clientAddress("10.1.1.1", "198.51.100.1", proxies), "198.51.100.1");
  assert.equal(clientAddress("::ffff:10.1.1.1", "198.51.100.1, 10.2.2.2,10.3.3.3", proxies), "198.51.100.1", "proxies in a chain");
  assert.equal(clientAddress("fd00::5", ["198.51.100.1, 10.9.9.9", "10.2.2.2"], proxies), "198.51.100.1", "repeated headers");
  assert.equal(clientAddress("10.1.1.1", "2001:DB8::7", proxies), "2001:db8::7", "canonical spelling");
  assert.equal(clientAddress("10.1.1.1", "::ffff:198.51.100.1", proxies), "198.51.100.1", "mapped: IPv4");
  // Whatever the client wrote left of the address the proxy appended counts for nothing.
  assert.equal(clientAddress("10.1.1.1", "1.1.1.1, 2.2.2.2, 198.51.100.1", proxies), "198.51.100.1");
  assert.equal(clientAddress("10.1.1.1", "10.5.5.5, 198.51.100.1", proxies), "198.51.100.1", "a forged trusted entry too");
  assert.equal(clientAddress("10.1.1.1", "unknown, 198.51.100.1", proxies), "198.51.100.1", "a malformed forged entry too");
  // Nothing usable: the socket's address.
  assert.equal(clientAddress("10.1.1.1", undefined, proxies), "10.1.1.1", "no header");
  assert.equal(clientAddress("10.1.1.1", "", proxies), "10.1.1.1", "an empty header");
  assert.equal(clientAddress("10.1.1.1", "10.2.2.2, 10.3.3.3", proxies), "10.1.1.1", "proxies only");
  assert.equal(clientAddress("10.1.1.1", "198.51.100.1, evil.example", proxies), "10.1.1.1", "malformed nearest entry");
  assert.equal(clientAddress("10.1.1.1", "198.51.100.1:5555", proxies), "10.1.1.1", "with a port");
  assert.equal(clientAddress("10.1.1.1", "198.51.100.1,, 10.2.2.2", proxies), "10.1.1.1", "an empty entry ends the walk");
});

test("only authorization, kahve-table-id, x-request-id and the gateway's own x-forwarded-for reach the services", () => {
  const from = new Headers({
    authorization: "Bearer abc",
    "kahve-table-id": "t-1",
    "x-request-id": "edge-1",
    "kahve-forwarded-for": "10.0.0.1:5",
    "kahve-forwarded-mac": "00",
    cookie: "session=1",
    "x-forwarded-for": "1.2.3.4",
    "x-real-ip": "1.2.3.4",
    forwarded: "for=1.2.3.4",
  });
  const out = forwardedHeaders(from, { address: "203.0.113.7", trusted: false });
  assert.deepEqual([...out.keys()].sort(), ["authorization", "kahve-table-id", "user-agent", "x-forwarded-for", "x-request-id"]);
  assert.equal(out.get("authorization"), "Bearer abc");
  assert.equal(out.get("x-request-id"), "edge-1");
  assert.equal(out.get("x-forwarded-for"), "203.0.113.7", "a client's own x-forwarded-for is dropped");
  assert.equal(forwardedHeaders(new Headers(), { address: "", trusted: false }).get("x-forwarded-for"), null,
    "no peer address, nothing to forward");
});

test("x-forwarded-for upstream: a trusted proxy's entries, then the peer, mapped addresses as IPv4", () => {
  const proxies = TrustedProxies.parse("10.0.0.0/8");
  const envoy = peerOf("::ffff:10.1.1.1", proxies);
  assert.deepEqual(envoy, { address: "10.1.1.1", trusted: true });
  const browser = peerOf("::ffff:203.0.113.7", proxies);
  assert.deepEqual(browser, { address: "203.0.113.7", trusted: false });
  const header = (xff?: string | string[]) => {
    const from = new Headers();
    for (const v of typeof xff === "string" ? [xff] : xff ?? []) from.append("x-forwarded-for", v);
    return from;
  };
  assert.equal(forwardedHeaders(header("198.51.100.1"), envoy).get("x-forwarded-for"), "198.51.100.1, 10.1.1.1");
  assert.equal(forwardedHeaders(header(["6.6.6.6, 198.51.100.1", "10.2.2.2"]), envoy).get("x-forwarded-for"),
    "6.6.6.6, 198.51.100.1, 10.2.2.2, 10.1.1.1", "every value, in order");
  assert.equal(forwardedHeaders(header(), envoy).get("x-forwarded-for"), "10.1.1.1");
  assert.equal(forwardedHeaders(header(" "), envoy).get("x-forwarded-for"), "10.1.1.1");
  assert.equal(forwardedHeaders(header("6.6.6.6"), browser).get("x-forwarded-for"), "203.0.113.7");
  // What a service with the gateway in its --trusted_proxies finds there: the browser, not the forgery.
  const gatewayPods = TrustedProxies.parse("10.0.0.0/8,192.168.0.0/16");
  const upstream = forwardedHeaders(header("6.6.6.6, 198.51.100.1"), envoy).get("x-forwarded-for");
  assert.equal(clientAddress("192.168.3.4", upstream, gatewayPods), "198.51.100.1");
});

test("a service's refusal keeps code, message, details bytes and pushback; a transport failure names no address", () => {
  const method = TableService.methods.find((m) => m.name === "Play")!;
  const upstream = new ConnectError("quantity 9 exceeds the 8 dice", Code.FailedPrecondition, new Headers({
    "grpc-status": "9",
    "grpc-message": "quantity%209",
    "grpc-status-details-bin": "CAkSHnF1YW50aXR5",
    "grpc-retry-pushback-ms": "20",
    "kahve-forwarded-for": "10.0.0.1:5",
    "content-type": "application/grpc",
  }));
  const err = clientError(upstream, method);
  assert.equal(err.code, Code.FailedPrecondition);
  assert.equal(err.rawMessage, "quantity 9 exceeds the 8 dice");
  assert.equal(err.metadata.get("grpc-status-details-bin"), "CAkSHnF1YW50aXR5");
  assert.equal(err.metadata.get("grpc-retry-pushback-ms"), "20");
  assert.equal(err.metadata.get("kahve-forwarded-for"), null);
  assert.equal(err.metadata.get("content-type"), null);
  assert.equal(err.details.length, 0, "the details travel as the service's own bytes");

  const down = clientError(new ConnectError("connect ECONNREFUSED 10.1.2.3:50052", Code.Unavailable), method);
  assert.equal(down.code, Code.Unavailable);
  assert.doesNotMatch(down.rawMessage, /10\.1\.2\.3|ECONNREFUSED/);
  assert.equal(clientError(new ConnectError("internal: stream reset", Code.Internal), method).code, Code.Unavailable);
});

test("CORS: the own origin and listed ones pass; others are refused, and get no CORS headers", () => {
  const cors = new CorsPolicy("https://play.example.com, http://localhost:5173/");
  const own = { host: "kahve.example.com", origin: "https://kahve.example.com" };
  assert.ok(cors.permits(own));
  assert.ok(cors.permits({ host: "gw" }), "no Origin: not a browser's cross-site call");
  assert.ok(cors.permits({ host: "gw", origin: "http://localhost:5173" }));
  assert.ok(!cors.permits({ host: "gw", origin: "https://evil.example" }));
  assert.ok(!cors.permits({ host: "gw", origin: "null" }));
  assert.deepEqual(cors.responseHeaders({ host: "gw", origin: "https://evil.example" }), {});
  const pre = cors.preflight({ host: "gw", origin: "https://play.example.com" });
  assert.equal(pre.status, 204);
  assert.match(pre.headers["access-control-allow-headers"]!, /authorization/);
  assert.match(pre.headers["access-control-allow-headers"]!, /x-grpc-web/i);
  assert.equal(cors.preflight({ host: "gw", origin: "https://evil.example" }).status, 403);
  assert.match(cors.responseHeaders({ origin: "https://play.example.com" })["access-control-expose-headers"]!, /grpc-status-details-bin/i);
  assert.throws(() => new CorsPolicy("play.example.com"), /not an origin/);
});

test("guest tokens: HS256 over a fresh guest identity with the configured claims, rate-limited per address", () => {
  let now = 1_000_000_000;
  const guests = new GuestTokens({ secret: "0123456789abcdef0123", ttlSeconds: 3600, issuer: "kahve-local", audience: "kahve", perMinute: 2 }, () => now);
  const a = guests.issue();
  const b = guests.issue();
  assert.notEqual(a.player_id, b.player_id);
  assert.match(a.player_id, /^guest-[a-z0-9]{10}$/);
  const [head, body, sig] = a.token.split(".");
  assert.equal(createHmac("sha256", "0123456789abcdef0123").update(`${head}.${body}`).digest("base64url"), sig);
  const claims = JSON.parse(Buffer.from(body!, "base64url").toString());
  assert.deepEqual([claims.sub, claims.role, claims.iss, claims.aud, claims.exp - claims.iat], [a.player_id, "player", "kahve-local", "kahve", 3600]);
  assert.ok(guests.allow("1.2.3.4") && guests.allow("1.2.3.4"));
  assert.ok(!guests.allow("1.2.3.4"), "a third within the minute");
  assert.ok(guests.allow("5.6.7.8"), "another address has its own");
  now += 30_000;
  assert.ok(guests.allow("1.2.3.4"), "one more after half a minute");
  assert.throws(() => new GuestTokens({ secret: "", ttlSeconds: 1, issuer: "", audience: "", perMinute: 1 }), /jwt_hs256_secret/);
});

test("static files: only files found at start, by exact path; types, caching, compression; nothing outside", () => {
  const root = mkdtempSync(join(tmpdir(), "kahve-static-"));
  const outside = mkdtempSync(join(tmpdir(), "kahve-secret-"));
  try {
    writeFileSync(join(outside, "secret.txt"), "secret");
    writeFileSync(join(root, "index.html"), `<!doctype html><title>kahve</title>${" ".repeat(400)}`);
    writeFileSync(join(root, "app-3f9a2c1b.js"), `console.log("kahve");${"/* pad */".repeat(50)}`);
    writeFileSync(join(root, "app.css"), "body{}");
    mkdirSync(join(root, "img"));
    writeFileSync(join(root, "img", "tile.svg"), "<svg/>");
    symlinkSync(join(outside, "secret.txt"), join(root, "link.txt"));
    const files = new StaticFiles(root);
    assert.equal(files.size, 4);
    const index = files.lookup("/")!;
    assert.equal(index.type, "text/html; charset=utf-8");
    assert.equal(index.cacheControl, "no-cache");
    assert.equal(files.lookup("/table/t-123"), index, "a page route gets the app");
    const app = files.lookup("/app-3f9a2c1b.js")!;
    assert.equal(app.type, "text/javascript; charset=utf-8");
    assert.equal(app.cacheControl, "public, max-age=31536000, immutable");
    assert.equal(files.lookup("/app.css")!.cacheControl, "no-cache");
    assert.equal(files.lookup("/img/tile.svg")!.type, "image/svg+xml");
    assert.equal(gunzipSync(app.gzip!).toString(), app.body.toString());
    assert.equal(brotliDecompressSync(app.br!).toString(), app.body.toString());
    assert.equal(chooseEncoding("gzip, deflate, br", app), "br");
    assert.equal(chooseEncoding("gzip;q=1.0, br;q=0", app), "gzip");
    assert.equal(chooseEncoding(undefined, app), undefined);
    for (const hostile of ["/link.txt", "/../secret.txt", "/%2e%2e/secret.txt", "/img/../../secret.txt", "/%00", "/%E0%A4%A", "/app.css/"]) {
      const found = files.lookup(hostile);
      assert.ok(found === undefined || found === index, `${hostile}: not served from outside`);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  }
});

test("upstream streams fill a connection up to the limit, then open another, up to the cap", () => {
  const pool = new UpstreamPool("table", "127.0.0.1:1", { maxStreamsPerConnection: 2, maxConnections: 2, readMaxBytes: 1024 });
  const leases = [pool.leaseStream(), pool.leaseStream(), pool.leaseStream(), pool.leaseStream()];
  assert.ok(leases.every(Boolean));
  assert.deepEqual(pool.stats(), { connections: 2, streams: 4 });
  assert.equal(pool.leaseStream(), undefined, "every allowed connection is full");
  leases[0]!.release();
  leases[0]!.release();
  assert.deepEqual(pool.stats(), { connections: 2, streams: 3 }, "a lease is released once");
  assert.ok(pool.leaseStream());
  pool.close();
});
