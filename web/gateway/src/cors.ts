// Who may call from a page: by default only the gateway's own pages (same origin: the browser asks
// nothing and sends no CORS headers are needed). --allowed_origins names other origins (exact
// matches); their preflights are answered and their answers readable, with the headers gRPC-Web
// needs. A request whose Origin is neither is refused before it reaches a service, so another
// site's page cannot act with a player's token even if it holds one.
import { cors as connectCors } from "@connectrpc/connect";
import type { IncomingHttpHeaders } from "node:http";

export class CorsPolicy {
  private readonly allowed: Set<string>;

  constructor(allowedOrigins: string) {
    this.allowed = new Set(allowedOrigins.split(",").map((o) => o.trim().replace(/\/$/, "")).filter(Boolean));
    for (const origin of this.allowed) {
      if (!/^https?:\/\/[^/\s]+$/.test(origin)) throw new Error(`--allowed_origins: "${origin}" is not an origin (scheme://host[:port])`);
    }
  }

  /** Whether a request from `origin` may proceed (no Origin: not a browser's cross-site call). */
  permits(headers: IncomingHttpHeaders): boolean {
    const origin = headers.origin;
    if (origin === undefined) return true;
    return this.sameOrigin(origin, headers) || this.allowed.has(origin);
  }

  private sameOrigin(origin: string, headers: IncomingHttpHeaders): boolean {
    // Behind a TLS proxy the scheme the browser used is not ours: compare host and port only.
    const host = headers[":authority"] ?? headers.host;
    try {
      return typeof host === "string" && new URL(origin).host === host.toLowerCase();
    } catch {
      return false;
    }
  }

  /** Headers for the answer to an allowed other origin's request; none otherwise. */
  responseHeaders(headers: IncomingHttpHeaders): Record<string, string> {
    const origin = headers.origin;
    if (origin === undefined || !this.allowed.has(origin)) return {};
    return {
      "access-control-allow-origin": origin,
      "access-control-expose-headers": [...connectCors.exposedHeaders, "grpc-retry-pushback-ms"].join(", "),
      vary: "Origin",
    };
  }

  /** The answer to a preflight (OPTIONS): its status and headers. */
  preflight(headers: IncomingHttpHeaders): { status: number; headers: Record<string, string> } {
    const origin = headers.origin;
    if (origin === undefined || !this.allowed.has(origin)) return { status: 403, headers: { vary: "Origin" } };
    return {
      status: 204,
      headers: {
        "access-control-allow-origin": origin,
        "access-control-allow-methods": "POST, GET",
        "access-control-allow-headers": [...connectCors.allowedHeaders, "authorization", "kahve-table-id"].join(", "),
        "access-control-max-age": "7200",
        vary: "Origin",
      },
    };
  }
}
