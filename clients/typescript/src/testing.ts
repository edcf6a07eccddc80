// "@kahve/client/testing" (Node.js only): a throwaway kahve stack for tests and benchmarks,
// started by scripts/serve-stack.sh: PostgreSQL, `kahve serve --all` and optionally the gateway,
// on free ports. The stack stops when stop() is called or this process ends.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

export * from "./testing_games.js";

export interface StackOptions {
  /** The C++ build folder (default: $KAHVE_BUILD, else the repository's build/). */
  build?: string;
  /**
   * A file holding a running PostgreSQL's admin URL: the stack gets a fresh database there instead
   * of a server of its own (default: $KAHVE_TEST_PG_URL_FILE, which ctest's `pg` fixture writes).
   */
  pgUrlFile?: string;
  /** Start the gateway too (with guest tokens on). */
  gateway?: boolean;
  /** The web client's files for the gateway. */
  staticDir?: string;
  serveFlags?: string[];
  gatewayFlags?: string[];
}

export interface Stack {
  matchmaking: string;
  table: string;
  rating: string;
  /** The gateway's origin, e.g. "http://127.0.0.1:41231" (with gateway: true). */
  gateway?: string;
  gatewayMetrics?: string;
  /** The HS256 secret the stack's services verify tokens with. */
  secret: string;
  /** The folder with the processes' logs (removed by stop()). */
  logs: string;
  /** A token signed for this stack by `kahve token` (role: player, service or admin). */
  token(player: string, role?: string): string;
  stop(): Promise<void>;
}

/** The repository's root (this file is clients/typescript/dist/testing.js). */
export const kRepoRoot = fileURLToPath(new URL("../../../", import.meta.url));

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const build = options.build ?? process.env["KAHVE_BUILD"] ?? `${kRepoRoot}build`;
  const args = ["--build", build];
  const pgUrlFile = options.pgUrlFile ?? process.env["KAHVE_TEST_PG_URL_FILE"];
  if (pgUrlFile) args.push("--pg-url-file", pgUrlFile);
  if (options.gateway) args.push("--gateway");
  if (options.staticDir) args.push("--static", options.staticDir);
  for (const f of options.serveFlags ?? []) args.push("--serve-flag", f);
  for (const f of options.gatewayFlags ?? []) args.push("--gateway-flag", f);
  const child: ChildProcess = spawn("bash", [`${kRepoRoot}scripts/serve-stack.sh`, ...args], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-20_000);
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const line = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once("line", resolve);
    void exited.then((code) => reject(new Error(`serve-stack.sh exited ${code} before it was ready:\n${stderr}`)));
  });
  const info = JSON.parse(line) as Record<string, string>;
  const kahve = `${build}/tools/kahve`;
  const stack: Stack = {
    matchmaking: info["matchmaking"]!,
    table: info["table"]!,
    rating: info["rating"]!,
    secret: info["secret"]!,
    logs: info["logs"]!,
    token(player, role = "player") {
      return execFileSync(kahve, ["token", "--player", player, "--role", role], {
        env: { ...process.env, KAHVE_JWT_HS256_SECRET: info["secret"]! },
        encoding: "utf8",
      }).trim();
    },
    async stop() {
      child.stdin!.end();
      await exited;
    },
  };
  if (info["gateway"]) stack.gateway = info["gateway"];
  if (info["gateway_metrics"]) stack.gatewayMetrics = info["gateway_metrics"];
  return stack;
}
