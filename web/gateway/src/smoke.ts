#!/usr/bin/env node
// A check of a running gateway from outside, as a browser would reach it (used by
// scripts/local-stack.sh and container/smoke.sh): /healthz answers, a guest token (or --token)
// works for a gRPC-Web call, a service-only method is refused as not routed, and the web
// client's page is served when --page is given; --guest_off: the gateway hands out no guest
// tokens (as in production). Prints one line; exits 1 on the first failure.
//
// Usage: node dist/src/smoke.js --url http://HOST:PORT [--token JWT] [--page] [--guest_off]
import { parseArgs } from "node:util";
import { Code, ConnectError, MatchmakingService, TableService, createClient } from "@kahve/client";
import { createWebTransport } from "@kahve/client/web";

const { values: args } = parseArgs({
  options: {
    url: { type: "string" },
    token: { type: "string" },
    page: { type: "boolean", default: false },
    guest_off: { type: "boolean", default: false },
  },
});

async function main(): Promise<string> {
  const url = args.url?.replace(/\/$/, "");
  if (!url) throw new Error("--url is required");
  const health = await fetch(`${url}/healthz`);
  if (health.status !== 200) throw new Error(`/healthz answered ${health.status}`);
  let token = args.token;
  let guest = "";
  if (args.guest_off) {
    const refused = await fetch(`${url}/auth/guest`, { method: "POST" });
    if (refused.status !== 404) throw new Error(`POST /auth/guest answered ${refused.status}, not 404: guest tokens are on`);
    guest = ", no guest tokens";
  }
  if (!token) {
    const guest = await fetch(`${url}/auth/guest`, { method: "POST" });
    if (guest.status !== 200) throw new Error(`POST /auth/guest answered ${guest.status} (give --token, or run with --guest_tokens)`);
    token = ((await guest.json()) as { token: string }).token;
  }
  const transport = createWebTransport({ baseUrl: `${url}/rpc`, token, defaultTimeoutMs: 10_000 });
  const stats = await createClient(MatchmakingService, transport).getQueueStats({});
  try {
    await createClient(TableService, transport).listTables({});
    throw new Error("ListTables was answered: admin methods must not be routed");
  } catch (err) {
    if (!(err instanceof ConnectError) || err.code !== Code.Unimplemented) throw err;
  }
  let page = "";
  if (args.page) {
    const index = await fetch(`${url}/`);
    if (index.status !== 200 || !(index.headers.get("content-type") ?? "").startsWith("text/html")) {
      throw new Error(`GET / answered ${index.status} ${index.headers.get("content-type")}: is the web client built?`);
    }
    page = ", the web client's page";
  }
  return `gateway ok at ${url}: /healthz, a gRPC-Web call (${stats.queues.length} queues), ListTables not routed${page}${guest}`;
}

main().then((line) => console.log(line), (err: unknown) => {
  console.error(`gateway smoke: FAILED: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
