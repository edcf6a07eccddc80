// The gateway's parts on their own: what is routed, settings, request metadata, errors, CORS,
// guest tokens and the static files.
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { gunzipSync, brotliDecompressSync } from "node:zlib";
import { Code, ConnectError, MatchmakingService, RatingService, TableService } from "@kahve/client";
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

test("only authorization and kahve-table-id reach the services", () => {
  const out = forwardedHeaders(new Headers({
    authorization: "Bearer abc",
    "kahve-table-id": "t-1",
    "kahve-forwarded-for": "10.0.0.1:5",
    "kahve-forwarded-mac": "00",
    cookie: "session=1",
    "x-forwarded-for": "1.2.3.4",
  }));
  assert.deepEqual([...out.keys()].sort(), ["authorization", "kahve-table-id", "user-agent"]);
  assert.equal(out.get("authorization"), "Bearer abc");
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
