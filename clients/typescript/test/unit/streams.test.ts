// TableStream, watchTicket and the interceptors against Connect's in-memory transport: a scripted
// TableService or MatchmakingService drops streams, repeats and skips updates, and refuses calls,
// which a real server does only under faults. (The integration tests run them against real ones.)
import assert from "node:assert/strict";
import { test } from "node:test";
import { create } from "@bufbuild/protobuf";
import { DurationSchema } from "@bufbuild/protobuf/wkt";
import { createRouterTransport, type HandlerContext } from "@connectrpc/connect";
import {
  Code,
  ConnectError,
  MatchmakingService,
  RetryAfterSchema,
  TableService,
  TableState,
  TableStream,
  TicketEndedError,
  TicketUpdate_State,
  bearerInterceptor,
  createClient,
  rateLimitRetryInterceptor,
  tableIdInterceptor,
  waitForAssignment,
  watchTicket,
  type ConnectRequest,
  type StreamStatus,
  type TableUpdate,
} from "@kahve/client";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { TableUpdateSchema } from "@kahve/client";

const fromInit = (init: UpdateInit) => create(TableUpdateSchema, init);

type UpdateInit = MessageInitShape<typeof TableUpdateSchema>;
const snapshot = (seq: bigint): UpdateInit => ({ seq, update: { case: "snapshot", value: { seq, view: { toAct: [0] } } } });
const move = (seq: bigint, over = false): UpdateInit => ({
  seq,
  update: { case: "move", value: { seat: 0, toAct: over ? [] : [1], ...(over ? { result: { ending: "done" } } : {}) } },
});

/** A TableService whose Connect plays `script[attempt]`: updates, then an error or the end. */
function scriptedTable(script: ((req: ConnectRequest, ctx: HandlerContext) => AsyncIterable<UpdateInit>)[]) {
  const requests: ConnectRequest[] = [];
  const transport = createRouterTransport((router) => {
    router.service(TableService, {
      connect(req, ctx) {
        requests.push(req);
        const step = script[requests.length - 1];
        if (!step) throw new ConnectError("script over", Code.Internal);
        return step(req, ctx);
      },
    });
  });
  return { client: createClient(TableService, transport), requests };
}

async function collect(stream: AsyncIterable<TableUpdate>): Promise<bigint[]> {
  const seqs: bigint[] = [];
  for await (const u of stream) seqs.push(u.seq);
  return seqs;
}

const fast = { initialMs: 1, maxMs: 5 };

test("a dropped stream reopens after its last seq; repeats are skipped and a gap reopens from the last good one", async () => {
  const { client, requests } = scriptedTable([
    async function* () {
      yield snapshot(0n);
      yield move(1n);
      yield move(2n);
      throw new ConnectError("host shutting down", Code.Unavailable);
    },
    async function* () {
      yield move(2n); // the server sent it before the drop too
      yield move(3n);
      yield move(5n); // 4 was lost
    },
    async function* () {
      yield move(4n);
      yield move(5n, true);
    },
  ]);
  const statuses: StreamStatus["state"][] = [];
  const stream = new TableStream({ client, tableId: "t-1", seatToken: "s", backoff: fast, onStatus: (s) => statuses.push(s.state) });
  assert.deepEqual(await collect(stream), [0n, 1n, 2n, 3n, 4n, 5n]);
  assert.deepEqual(requests.map((r) => r.afterSeq), [undefined, 2n, 3n]);
  assert.ok(statuses.includes("retrying") && statuses.includes("gap"));
  assert.equal(stream.lastSeq, 5n);
});

test("OUT_OF_RANGE asks again without after_seq; a permanent refusal ends the iteration with it", async () => {
  const { client, requests } = scriptedTable([
    async function* () {
      throw new ConnectError("after_seq is ahead of the table", Code.OutOfRange);
    },
    async function* () {
      yield snapshot(7n);
    },
  ]);
  assert.deepEqual(await collect(new TableStream({ client, tableId: "t", seatToken: "s", afterSeq: 99n, backoff: fast })), [7n]);
  assert.deepEqual(requests.map((r) => r.afterSeq), [99n, undefined]);

  const denied = scriptedTable([
    async function* () {
      throw new ConnectError("not your seat", Code.PermissionDenied);
    },
  ]);
  await assert.rejects(collect(new TableStream({ client: denied.client, tableId: "t", seatToken: "s", backoff: fast })),
    (e: unknown) => e instanceof ConnectError && e.code === Code.PermissionDenied);
  assert.equal(denied.requests.length, 1);

  const unauthenticated = scriptedTable([0, 1, 2].map(() => async function* () {
    throw new ConnectError("token expired", Code.Unauthenticated);
  }));
  await assert.rejects(collect(new TableStream({ client: unauthenticated.client, tableId: "t", seatToken: "s", backoff: fast })),
    (e: unknown) => e instanceof ConnectError && e.code === Code.Unauthenticated);
  assert.equal(unauthenticated.requests.length, 2, "tried once more, with a token fetched again");
});

test("close() ends the iteration without an error and cancels the call", async () => {
  let cancelled = false;
  const { client } = scriptedTable([
    async function* (_req, ctx) {
      yield snapshot(0n);
      await new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve()));
      cancelled = true;
    },
  ]);
  const stream = new TableStream({ client, tableId: "t", seatToken: "s" });
  const seqs: bigint[] = [];
  for await (const u of stream) {
    seqs.push(u.seq);
    setTimeout(() => stream.close(), 10);
  }
  assert.deepEqual(seqs, [0n]);
  await new Promise((r) => setTimeout(r, 20));
  assert.ok(cancelled, "the server saw the cancel");
});

test("watchTicket watches again after a drop, skips the repeated state and ends at the match", async () => {
  let watches = 0;
  const transport = createRouterTransport((router) => {
    router.service(MatchmakingService, {
      async *watchTicket(req) {
        watches++;
        yield { ticketId: req.ticketId, state: TicketUpdate_State.QUEUED, queueSize: 1 };
        if (watches === 1) throw new ConnectError("replica shutting down", Code.Unavailable);
        if (req.ticketId === "tk-gone") {
          yield { ticketId: req.ticketId, state: TicketUpdate_State.EXPIRED };
          return;
        }
        yield { ticketId: req.ticketId, state: TicketUpdate_State.MATCHED, assignment: { tableId: "t-9", seat: 1 } };
      },
    });
  });
  const client = createClient(MatchmakingService, transport);
  const states: TicketUpdate_State[] = [];
  for await (const u of watchTicket(client, "tk-1", { backoff: fast })) states.push(u.state);
  assert.deepEqual(states, [TicketUpdate_State.QUEUED, TicketUpdate_State.MATCHED]);
  assert.equal(watches, 2);
  assert.equal((await waitForAssignment(client, "tk-2", { backoff: fast })).tableId, "t-9");
  await assert.rejects(waitForAssignment(client, "tk-gone", { backoff: fast }), TicketEndedError);
});

test("rate-limit refusals with a hint are waited out; without one, or past maxWaitMs, they surface", async () => {
  let calls = 0;
  const refuseFirst = 2;
  const delayMs = 30;
  let hint = true;
  const transport = createRouterTransport((router) => {
    router.service(MatchmakingService, {
      getQueueStats() {
        calls++;
        if (calls <= refuseFirst) {
          const detail = { desc: RetryAfterSchema, value: { delay: create(DurationSchema, { nanos: delayMs * 1e6 }), limit: "max_calls_per_second" } };
          throw new ConnectError("rate limit", Code.ResourceExhausted, undefined, hint ? [detail] : []);
        }
        return {};
      },
    });
  }, { transport: { interceptors: [rateLimitRetryInterceptor({ maxWaitMs: 1_000 })] } });
  const client = createClient(MatchmakingService, transport);
  const started = Date.now();
  await client.getQueueStats({});
  assert.equal(calls, 3);
  assert.ok(Date.now() - started >= 60, "waited the hinted delays");

  calls = 0;
  hint = false;
  await assert.rejects(client.getQueueStats({}), (e: unknown) => e instanceof ConnectError && e.code === Code.ResourceExhausted);
  assert.equal(calls, 1, "a budget refusal without a hint is not retried");

  calls = 0;
  const tooLong = createClient(MatchmakingService, createRouterTransport((router) => {
    router.service(MatchmakingService, {
      getQueueStats() {
        calls++;
        throw new ConnectError("rate limit", Code.ResourceExhausted, undefined, [
          { desc: RetryAfterSchema, value: { delay: create(DurationSchema, { seconds: 9n }), limit: "max_calls_per_second" } }]);
      },
    });
  }, { transport: { interceptors: [rateLimitRetryInterceptor({ maxWaitMs: 1_000 })] } }));
  await assert.rejects(tooLong.getQueueStats({}));
  assert.equal(calls, 1, "a wait past maxWaitMs is left to the caller");
});

test("the bearer token goes on every call, and an expired one is fetched again once; table calls name their table", async () => {
  const seen: string[] = [];
  const tableIds: (string | null)[] = [];
  const transport = createRouterTransport((router) => {
    router.service(MatchmakingService, {
      getQueueStats(_req, ctx) {
        const auth = ctx.requestHeader.get("authorization") ?? "";
        seen.push(auth);
        if (auth === "Bearer old") throw new ConnectError("expired", Code.Unauthenticated);
        return {};
      },
    });
    router.service(TableService, {
      getView(_req, ctx) {
        tableIds.push(ctx.requestHeader.get("kahve-table-id"));
        return {};
      },
    });
  }, {
    transport: {
      interceptors: [bearerInterceptor({
        n: 0,
        async token() {
          return this.n === 0 ? "old" : "new";
        },
        invalidate() {
          this.n++;
        },
      } as { n: number; token(): Promise<string>; invalidate(): void }), tableIdInterceptor()],
    },
  });
  await createClient(MatchmakingService, transport).getQueueStats({});
  assert.deepEqual(seen, ["Bearer old", "Bearer new"]);
  await createClient(TableService, transport).getView({ tableId: "t-42", seatToken: "s" });
  await createClient(TableService, transport).getView({ tableId: "bad id\n", seatToken: "s" });
  assert.deepEqual(tableIds, ["t-42", null]);
});

test("TableState: a snapshot replaces all, moves move the turn, with_view updates replace view and moves", () => {
  const s = new TableState();
  s.apply(fromInit(snapshot(3n)));
  assert.deepEqual([s.seq, s.toAct, s.over], [3n, [0], false]);
  assert.ok(s.mayAct(0));
  s.apply(fromInit({ seq: 4n, update: { case: "move", value: { seat: 0, toAct: [1] } } }));
  assert.deepEqual([s.toAct, s.viewSeq], [[1], 3n], "no view on this update: the view is from seq 3");
  s.apply(fromInit({ seq: 5n, update: { case: "move", value: { seat: 1, toAct: [0] } }, view: { toAct: [0] }, legalMoves: [{}] }));
  assert.deepEqual([s.viewSeq, s.legalMoves.length], [5n, 1]);
  s.apply(fromInit({ seq: 6n, update: { case: "move", value: { seat: 0, result: { ending: "done" } } } }));
  assert.ok(s.over && !s.mayAct(0) && s.result?.ending === "done");
});
