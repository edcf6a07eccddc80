#!/usr/bin/env node
// The gateway's cost per Play call: the same moves played on practice tables directly over gRPC
// (HTTP/2, @kahve/client/node) and through the gateway as browsers do (gRPC-Web over fetch,
// @kahve/client/web), in one run on one stack (scripts/serve-stack.sh: PostgreSQL, `kahve serve
// --all`, the gateway). The two paths alternate call by call, so load on the machine falls on
// both alike. Only the Play call is timed (the view that picks a legal move is not). Prints
// p50/p99 of each path, their ratio and the difference, one JSON line last. A benchmark, not a
// test: nothing is asserted about the figures (docs/operations.md, "Web tier figures").
//
// Usage: node web/gateway/bench/play_cost.mjs [--plays N] [--warmup N]
//   after scripts/web-build.sh, with the C++ build in build/ (or KAHVE_BUILD=DIR)
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import { createNodeClient } from "@kahve/client/node";
import { startStack } from "@kahve/client/testing";
import { createWebClient } from "@kahve/client/web";

const { values } = parseArgs({
  options: { plays: { type: "string", default: "400" }, warmup: { type: "string", default: "40" } },
});
const plays = Number(values.plays);
const warmup = Number(values.warmup);
if (!(plays > 0 && warmup >= 0)) throw new Error("--plays and --warmup take counts");

// A practice table's seat whose turn it is, with a legal move; a new table once a game ends.
class Player {
  constructor(client) {
    this.client = client;
    this.seat = null;
  }

  async nextMove() {
    for (;;) {
      if (!this.seat) {
        this.seat = await this.client.practiceTable({ ruleset: { case: "liarsDice", value: { players: 2 } } });
      }
      const v = await this.seat.view();
      if (v.view?.over) {
        this.seat = null;
        continue;
      }
      if (v.view?.toAct.includes(this.seat.ref.seat) && v.legalMoves.length > 0) {
        return { move: v.legalMoves[0], seq: v.seq };
      }
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  // The Play call alone, in milliseconds.
  async timedPlay() {
    const { move, seq } = await this.nextMove();
    const start = performance.now();
    await this.seat.play(move, { expectedSeq: seq });
    return performance.now() - start;
  }
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];

const stack = await startStack({ gateway: true });
try {
  const direct = new Player(createNodeClient({
    matchmaking: stack.matchmaking, rating: stack.rating, table: stack.table, token: stack.token("bench-direct"),
  }));
  const gateway = new Player(createWebClient({ baseUrl: `${stack.gateway}/rpc`, token: stack.token("bench-web") }));
  const samples = { direct: [], gateway: [] };
  for (let i = 0; i < warmup + plays; i++) {
    // Alternate which path goes first, so neither always follows the other's bot replies.
    const order = i % 2 === 0 ? ["direct", "gateway"] : ["gateway", "direct"];
    for (const path of order) {
      const ms = await (path === "direct" ? direct : gateway).timedPlay();
      if (i >= warmup) samples[path].push(ms);
    }
  }
  const figures = {};
  for (const [path, list] of Object.entries(samples)) {
    list.sort((a, b) => a - b);
    figures[path] = { p50_ms: quantile(list, 0.5), p99_ms: quantile(list, 0.99), n: list.length };
  }
  const ratio = (q) => figures.gateway[q] / figures.direct[q];
  const added = (q) => figures.gateway[q] - figures.direct[q];
  const f = (x) => x.toFixed(2);
  console.log(`Play, direct gRPC:        p50 ${f(figures.direct.p50_ms)} ms, p99 ${f(figures.direct.p99_ms)} ms (${plays} calls)`);
  console.log(`Play, gRPC-Web (gateway): p50 ${f(figures.gateway.p50_ms)} ms, p99 ${f(figures.gateway.p99_ms)} ms (${plays} calls)`);
  console.log(`gateway / direct:         p50 x${f(ratio("p50_ms"))} (+${f(added("p50_ms"))} ms), p99 x${f(ratio("p99_ms"))} (+${f(added("p99_ms"))} ms)`);
  console.log(JSON.stringify({ ...figures, ratio_p50: ratio("p50_ms"), ratio_p99: ratio("p99_ms") }));
} finally {
  await stack.stop();
}
