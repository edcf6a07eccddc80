// Back-off, request ids, tokens and error decoding: pure functions and small objects.
import assert from "node:assert/strict";
import { test } from "node:test";
import { create, toBinary } from "@bufbuild/protobuf";
import { DurationSchema } from "@bufbuild/protobuf/wkt";
import {
  ActiveTicketSchema,
  Backoff,
  Code,
  ConnectError,
  PlayRejectionSchema,
  RejectionReason,
  RetryAfterSchema,
  codeName,
  decodeError,
  jwtExpiryMs,
  jwtSubject,
  newRequestId,
  refreshingToken,
  retryDelayMs,
  sleep,
} from "@kahve/client";

const jwt = (claims: object) => `e30.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.sig`;

test("back-off grows by its multiplier up to the cap, jittered below each ceiling, and resets", () => {
  const b = new Backoff({ initialMs: 100, maxMs: 1000, multiplier: 2, jitter: 0.5, random: () => 0 });
  assert.deepEqual([b.next(), b.next(), b.next(), b.next(), b.next(), b.next()], [100, 200, 400, 800, 1000, 1000]);
  assert.equal(b.failures, 6);
  b.reset();
  assert.equal(b.next(), 100);
  const jittered = new Backoff({ initialMs: 100, jitter: 0.5, random: () => 0.999 });
  assert.equal(jittered.next(), 50, "a full draw takes off half");
});

test("sleep ends early, without an error, when its signal aborts", async () => {
  const controller = new AbortController();
  const started = Date.now();
  setTimeout(() => controller.abort(), 20);
  await sleep(10_000, controller.signal);
  assert.ok(Date.now() - started < 5_000);
});

test("request ids are at most 128 characters of the services' id alphabet, and differ", () => {
  const ids = new Set(Array.from({ length: 1000 }, () => newRequestId("ana play/7 ünï")));
  assert.equal(ids.size, 1000);
  for (const id of ids) assert.match(id, /^[A-Za-z0-9._:-]{1,128}$/);
  assert.match(newRequestId(), /^[A-Za-z0-9]{22}$/);
  assert.ok(newRequestId("x".repeat(500)).length <= 128);
});

test("a JWT's sub and exp are read without verification; junk reads as undefined", () => {
  assert.equal(jwtSubject(jwt({ sub: "ana", exp: 100 })), "ana");
  assert.equal(jwtExpiryMs(jwt({ sub: "ana", exp: 100 })), 100_000);
  assert.equal(jwtSubject("not a jwt"), undefined);
  assert.equal(jwtExpiryMs("a.!!!.c"), undefined);
});

test("a refreshing token is kept until shortly before exp, shared by concurrent calls, dropped on invalidate", async () => {
  let now = 1_000_000;
  let fetched = 0;
  const source = refreshingToken(async () => jwt({ sub: "ana", exp: (now + 600_000) / 1000, n: ++fetched }), {
    earlyMs: 60_000,
    now: () => now,
  });
  const [a, b] = await Promise.all([source.token(), source.token()]);
  assert.equal(a, b);
  assert.equal(fetched, 1);
  now += 500_000; // 100 s before exp: still good
  assert.equal(await source.token(), a);
  now += 50_000; // 50 s before exp: within the minute
  assert.notEqual(await source.token(), a);
  assert.equal(fetched, 2);
  source.invalidate!();
  await source.token();
  assert.equal(fetched, 3);
});

test("codes are named as docs/api.md names them", () => {
  assert.equal(codeName(Code.FailedPrecondition), "FAILED_PRECONDITION");
  assert.equal(codeName(Code.ResourceExhausted), "RESOURCE_EXHAUSTED");
  assert.equal(codeName(Code.Canceled), "CANCELED");
});

test("details arriving as the wire has them (type name and bytes) decode into their types", () => {
  const rejection = create(PlayRejectionSchema, {
    seq: 41n,
    rejection: { reason: RejectionReason.LIARS_DICE_NOT_A_RAISE, message: "not a raise" },
  });
  const err = new ConnectError("not a raise", Code.FailedPrecondition);
  err.details = [
    { type: "kahve.v1.SomethingNewer", value: new Uint8Array([8, 1]) },
    { type: "kahve.v1.PlayRejection", value: toBinary(PlayRejectionSchema, rejection) },
  ];
  const decoded = decodeError(err);
  assert.equal(decoded.codeName, "FAILED_PRECONDITION");
  assert.equal(decoded.reasonName, "LIARS_DICE_NOT_A_RAISE");
  assert.equal(decoded.details.playRejection?.seq, 41n);
  assert.equal(decoded.details.staleSeq, undefined);
  assert.equal(decoded.retryAfterMs, undefined);

  const busy = new ConnectError("rate", Code.ResourceExhausted);
  busy.details = [{
    type: "kahve.v1.RetryAfter",
    value: toBinary(RetryAfterSchema, { $typeName: "kahve.v1.RetryAfter", delay: create(DurationSchema, { seconds: 1n, nanos: 250_000_000 }), limit: "max_calls_per_second" }),
  }];
  assert.equal(retryDelayMs(busy), 1250);
  assert.equal(decodeError(busy).details.retryAfter?.limit, "max_calls_per_second");

  const pushedBack = new ConnectError("rate", Code.ResourceExhausted, new Headers({ "grpc-retry-pushback-ms": "40" }));
  assert.equal(retryDelayMs(pushedBack), 40);
  const refuseRetry = new ConnectError("rate", Code.ResourceExhausted, new Headers({ "grpc-retry-pushback-ms": "-1" }));
  assert.equal(retryDelayMs(refuseRetry), undefined, "a negative pushback means do not retry");

  const taken = new ConnectError("exists", Code.AlreadyExists);
  taken.details = [{ type: "kahve.v1.ActiveTicket", value: toBinary(ActiveTicketSchema, create(ActiveTicketSchema, { playerId: "ana", ticketId: "tk-1" })) }];
  assert.deepEqual([decodeError(taken).details.activeTicket?.playerId, decodeError(taken).details.activeTicket?.ticketId], ["ana", "tk-1"]);
  assert.equal(decodeError(new Error("plain")).code, Code.Unknown);
});
