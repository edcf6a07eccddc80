// The gateway's settings: each a flag (--name=value or --name value; booleans also --name and
// --noname) and, as for the services, also read from the environment variable KAHVE_<NAME>; a flag
// on the command line wins. docs/configuration.md lists them all (`--help` prints them).
import { TrustedProxies } from "./client_address.js";

type Kind = "string" | "int" | "bool";

interface FlagSpec {
  kind: Kind;
  default: string | number | boolean;
  help: string;
  /** Throws, naming the flag and the bad part, when a string value does not parse. */
  check?: (value: string) => void;
}

export const kFlags = {
  host: { kind: "string", default: "0.0.0.0", help: "Address the gateway listens on." },
  port: { kind: "int", default: 8080, help: "Port of gRPC-Web, the web client's files, /auth/guest and /healthz; 0: any free port." },
  metrics_port: { kind: "int", default: 9094, help: "Port of /metrics (Prometheus) and /healthz; 0: any free port; -1: none." },
  matchmaking_target: { kind: "string", default: "127.0.0.1:50051", help: "The matchmaking service (host:port)." },
  table_target: { kind: "string", default: "127.0.0.1:50052", help: "Any table host (host:port): each forwards a call to the table's holder." },
  rating_target: { kind: "string", default: "127.0.0.1:50053", help: "The rating service (host:port)." },
  rpc_prefix: { kind: "string", default: "/rpc", help: "Path under which gRPC-Web calls are served (/rpc/kahve.v1.TableService/Play)." },
  static_dir: { kind: "string", default: "", help: "The web client's built files, served at /; empty: none." },
  allowed_origins: { kind: "string", default: "", help: "Other origins whose pages may call the gateway (CORS), comma-separated, e.g. https://play.example.com; empty: the gateway's own origin only." },
  content_security_policy: {
    kind: "string",
    default: "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    help: "Content-Security-Policy of the web client's pages; empty: none.",
  },
  guest_tokens: { kind: "bool", default: false, help: "Hand out guest tokens at POST /auth/guest (a local stack only: anyone gets a new player identity)." },
  guest_token_ttl_seconds: { kind: "int", default: 86400, help: "Lifetime of a guest token." },
  guest_tokens_per_minute: { kind: "int", default: 10, help: "Guest tokens one client address may get per minute (bursts of as many)." },
  jwt_hs256_secret: { kind: "string", default: "", help: "The services' HS256 secret: signs guest tokens (needed with --guest_tokens only)." },
  jwt_issuer: { kind: "string", default: "", help: "`iss` of guest tokens, as the services' --jwt_issuer." },
  jwt_audience: { kind: "string", default: "", help: "`aud` of guest tokens, as the services' --jwt_audience." },
  max_message_bytes: { kind: "int", default: 4 * 1024 * 1024, help: "Largest message in either direction, as the services' 4 MiB." },
  max_streams: { kind: "int", default: 20000, help: "Open server streams (Connect, WatchTicket) the gateway holds in all." },
  max_upstream_streams_per_connection: { kind: "int", default: 100, help: "Streams one upstream HTTP/2 connection carries; below the services' max_streams_per_connection (128)." },
  max_upstream_connections: { kind: "int", default: 200, help: "HTTP/2 connections to one service at most; below the services' max_connections_per_peer (256)." },
  stream_max_seconds: { kind: "int", default: 3600, help: "A server stream is ended after this long with UNAVAILABLE (clients resume by after_seq); 0: never." },
  unary_timeout_seconds: { kind: "int", default: 30, help: "Deadline of a unary call whose client sent none (or a longer one)." },
  max_connections: { kind: "int", default: 20000, help: "Open client connections the gateway accepts." },
  max_connections_per_peer: { kind: "int", default: 256, help: "Open client connections one peer address (IP) may hold; more are closed as they are accepted; 0: no cap. Connections from --trusted_proxies are exempt; a proxy not listed there is one peer per address: keep it above its connection pool." },
  trusted_proxies: {
    kind: "string",
    default: "",
    help: "Address ranges (CIDR, comma-separated, IPv4 and IPv6; a bare address is one host) of the proxies in front (Envoy). Their connections are exempt from --max_connections_per_peer; a request over one has as client address (guest-token limit, logs) the rightmost x-forwarded-for entry not in a range; only their x-forwarded-for entries pass to the services (the gateway appends its peer's address). Empty: none is trusted.",
    check: (value) => void TrustedProxies.parse(value),
  },
  connection_idle_timeout_seconds: { kind: "int", default: 300, help: "A client connection with no request in flight for this long is closed (HTTP/1.1 keep-alive, HTTP/2 sessions without streams); 0: never." },
  drain_seconds: { kind: "int", default: 5, help: "On SIGTERM, seconds /healthz answers 503 before the gateway stops accepting." },
  shutdown_deadline_seconds: { kind: "int", default: 10, help: "On SIGTERM, seconds unary calls get to finish after the drain (streams end at once with UNAVAILABLE)." },
  log_level: { kind: "string", default: "info", help: "Lowest log level written: debug, info, warning, error." },
} satisfies Record<string, FlagSpec>;

export type FlagName = keyof typeof kFlags;
export type Config = { [K in FlagName]: (typeof kFlags)[K]["default"] };

function parseValue(name: string, spec: FlagSpec, raw: string): string | number | boolean {
  if (spec.kind === "string") {
    spec.check?.(raw);
    return raw;
  }
  if (spec.kind === "int") {
    if (!/^-?\d{1,12}$/.test(raw)) throw new Error(`--${name}: an integer, not "${raw}"`);
    return Number(raw);
  }
  if (/^(1|true|yes)$/i.test(raw)) return true;
  if (/^(0|false|no)$/i.test(raw)) return false;
  throw new Error(`--${name}: true or false, not "${raw}"`);
}

/** The settings from `env` (KAHVE_<NAME>) and then `argv` (flags only, no positional arguments). */
export function parseConfig(argv: string[], env: Record<string, string | undefined>): Config {
  const specs = kFlags as Record<string, FlagSpec>;
  const values: Record<string, string | number | boolean> = {};
  for (const [name, spec] of Object.entries(specs)) {
    const fromEnv = env[`KAHVE_${name.toUpperCase()}`];
    values[name] = fromEnv === undefined ? spec.default : parseValue(name, spec, fromEnv);
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const m = /^--?([a-z0-9_]+)(?:=(.*))?$/s.exec(arg);
    if (!m) throw new Error(`unexpected argument "${arg}" (flags only; --help lists them)`);
    let name = m[1]!;
    let raw = m[2];
    if (!(name in specs) && name.startsWith("no") && specs[name.slice(2)]?.kind === "bool" && raw === undefined) {
      name = name.slice(2);
      raw = "false";
    }
    const spec = specs[name];
    if (!spec) throw new Error(`unknown flag --${name} (--help lists them)`);
    if (raw === undefined) raw = spec.kind === "bool" ? "true" : argv[++i];
    if (raw === undefined) throw new Error(`--${name} needs a value`);
    values[name] = parseValue(name, spec, raw);
  }
  return values as Config;
}

export function helpText(): string {
  const lines = ["kahve-gateway: gRPC-Web for kahve's public RPCs, and the web client's files.", "", "Flags (each also KAHVE_<NAME>):"];
  for (const [name, spec] of Object.entries(kFlags as Record<string, FlagSpec>)) {
    lines.push(`  --${name} (${spec.help}); default: ${JSON.stringify(spec.default)}`);
  }
  return lines.join("\n");
}
