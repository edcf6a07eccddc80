#!/usr/bin/env node
// kahve-gateway: the browser entry (docs/web.md). Flags, wiring, run; SIGTERM drains and stops.
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { TrustedProxies } from "./client_address.js";
import { helpText, parseConfig, type Config } from "./config.js";
import { log, setLogLevel } from "./log.js";
import { Metrics } from "./metrics.js";
import { createFront, createHandler } from "./server.js";
import { StaticFiles } from "./static_files.js";
import { UpstreamPool } from "./upstream.js";
import type { Upstream } from "./routes.js";

function listen(server: { listen: (port: number, host: string, cb: () => void) => unknown; once: (e: string, cb: (err: Error) => void) => unknown }, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
}

async function main(config: Config): Promise<void> {
  setLogLevel(config.log_level);
  const upstream = {
    maxStreamsPerConnection: config.max_upstream_streams_per_connection,
    maxConnections: config.max_upstream_connections,
    readMaxBytes: config.max_message_bytes,
  };
  const pools: Record<Upstream, UpstreamPool> = {
    matchmaking: new UpstreamPool("matchmaking", config.matchmaking_target, upstream),
    table: new UpstreamPool("table", config.table_target, upstream),
    rating: new UpstreamPool("rating", config.rating_target, upstream),
  };
  const metrics = new Metrics(Object.values(pools));
  const staticFiles = new StaticFiles(config.static_dir);
  if (config.static_dir && staticFiles.size === 0) log("warning", "no web client files", { static_dir: config.static_dir });
  const shutdown = new AbortController();
  let draining = false;
  const handler = createHandler({
    config,
    pools,
    metrics,
    staticFiles,
    isDraining: () => draining,
    proxy: {
      unaryTimeoutMs: config.unary_timeout_seconds * 1000,
      streamMaxMs: config.stream_max_seconds * 1000,
      maxStreams: config.max_streams,
      shutdown: shutdown.signal,
    },
  });
  const front = createFront(handler, config);
  await listen(front.server, config.port, config.host);

  let metricsServer: http.Server | undefined;
  if (config.metrics_port >= 0) {
    metricsServer = http.createServer((req, res) => {
      const path = (req.url ?? "/").split("?", 1)[0];
      if (path === "/metrics") {
        metrics.registry.metrics().then((text) => {
          res.writeHead(200, { "content-type": metrics.registry.contentType });
          res.end(text);
        }, () => {
          res.writeHead(500);
          res.end();
        });
      } else if (path === "/healthz") {
        res.writeHead(draining ? 503 : 200, { "content-type": "text/plain" });
        res.end(draining ? "draining\n" : "ok\n");
      } else {
        res.writeHead(404);
        res.end();
      }
    });
    await listen(metricsServer, config.metrics_port, config.host);
  }
  log("info", "kahve-gateway serving", {
    port: (front.server.address() as AddressInfo).port,
    metrics_port: metricsServer ? (metricsServer.address() as AddressInfo).port : -1,
    static_files: staticFiles.size,
    rpc_prefix: config.rpc_prefix,
    guest_tokens: config.guest_tokens,
    trusted_proxies: TrustedProxies.parse(config.trusted_proxies).toString(),
    matchmaking: config.matchmaking_target,
    table: config.table_target,
    rating: config.rating_target,
  });

  process.on("SIGHUP", () => {
    try {
      staticFiles.reload();
      log("info", "web client files reloaded", { static_files: staticFiles.size });
    } catch (err) {
      log("error", "web client files not reloaded", { error: String(err) });
    }
  });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log("info", "shutting down", { signal, drain_seconds: config.drain_seconds });
    draining = true;
    await new Promise((r) => setTimeout(r, config.drain_seconds * 1000));
    front.server.close();
    shutdown.abort(); // streams end with UNAVAILABLE: clients reconnect elsewhere
    front.http1.closeIdleConnections();
    for (const session of front.sessions) session.close(); // GOAWAY: no new streams, these finish
    const deadline = setTimeout(() => {
      for (const s of front.sockets) s.destroy();
    }, config.shutdown_deadline_seconds * 1000);
    deadline.unref();
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        front.http1.closeIdleConnections();
        if (front.sockets.size === 0) {
          clearInterval(poll);
          resolve();
        }
      }, 50);
    });
    clearTimeout(deadline);
    for (const p of Object.values(pools)) p.close();
    metricsServer?.close();
    log("info", "kahve-gateway stopped");
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

let config: Config;
try {
  if (process.argv.includes("--help") || process.argv.includes("--helpfull")) {
    console.log(helpText());
    process.exit(0);
  }
  config = parseConfig(process.argv.slice(2), process.env);
} catch (err) {
  console.error(`kahve-gateway: ${(err as Error).message}`);
  process.exit(2);
}
main(config).catch((err: unknown) => {
  log("error", "kahve-gateway failed to start", { error: String(err) });
  process.exit(1);
});
