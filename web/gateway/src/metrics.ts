// The gateway's Prometheus metrics, in one place, named as the services name theirs: gRPC calls
// by service, method and code (labels only from the routed methods and gRPC's codes, never from a
// client), open streams, upstream connections, HTTP requests by kind, guest tokens.
import type { DescMethod } from "@bufbuild/protobuf";
import { Code } from "@connectrpc/connect";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { UpstreamPool } from "./upstream.js";

/** gRPC's code names as the services' grpc_code label spells them ("InvalidArgument"). */
const codeLabel = (code: Code | "OK") => {
  if (code === "OK" || (code as number) === 0) return "OK";
  return Code[code] ?? "Unknown";
};

export type HttpKind = "static" | "guest" | "health" | "preflight" | "refused";

export class Metrics {
  readonly registry = new Registry();
  private readonly handled = new Counter({
    name: "grpc_server_handled_total",
    help: "gRPC-Web calls completed by the gateway, by method and status code.",
    labelNames: ["grpc_service", "grpc_method", "grpc_code"],
    registers: [this.registry],
  });
  private readonly handling = new Histogram({
    name: "grpc_server_handling_seconds",
    help: "Time the gateway took for unary calls, the service's share included.",
    labelNames: ["grpc_service", "grpc_method"],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  private readonly streams = new Gauge({
    name: "kahve_gateway_streams_active",
    help: "Server streams (Connect, WatchTicket) open through the gateway.",
    labelNames: ["grpc_method"],
    registers: [this.registry],
  });
  private readonly http = new Counter({
    name: "kahve_gateway_http_requests_total",
    help: "Requests other than gRPC-Web calls, by kind and status code.",
    labelNames: ["kind", "code"],
    registers: [this.registry],
  });
  readonly guestTokens = new Counter({
    name: "kahve_gateway_guest_tokens_total",
    help: "Guest tokens handed out (result=issued) or refused for the rate (result=refused).",
    labelNames: ["result"],
    registers: [this.registry],
  });
  private open = 0;

  constructor(pools: UpstreamPool[]) {
    collectDefaultMetrics({ register: this.registry });
    new Gauge({
      name: "kahve_gateway_upstream_connections",
      help: "HTTP/2 connections the gateway made to each service.",
      labelNames: ["service"],
      registers: [this.registry],
      collect() {
        for (const p of pools) this.set({ service: p.name }, p.stats().connections);
      },
    });
    new Gauge({
      name: "kahve_gateway_upstream_streams",
      help: "Server streams open to each service.",
      labelNames: ["service"],
      registers: [this.registry],
      collect() {
        for (const p of pools) this.set({ service: p.name }, p.stats().streams);
      },
    });
  }

  /** Starts timing a call; the returned function records its end with its code. */
  startCall(method: DescMethod): (code: Code | "OK") => void {
    const labels = { grpc_service: method.parent.typeName, grpc_method: method.name };
    const end = method.methodKind === "unary" ? this.handling.startTimer(labels) : () => 0;
    let done = false;
    return (code) => {
      if (done) return;
      done = true;
      end();
      this.handled.inc({ ...labels, grpc_code: codeLabel(code) });
    };
  }

  streamOpened(method: DescMethod): () => void {
    this.open++;
    this.streams.inc({ grpc_method: method.name });
    let closed = false;
    return () => {
      if (closed) return;
      closed = true;
      this.open--;
      this.streams.dec({ grpc_method: method.name });
    };
  }

  streamsOpen(): number {
    return this.open;
  }

  httpRequest(kind: HttpKind, code: number): void {
    this.http.inc({ kind, code: String(code) });
  }
}
