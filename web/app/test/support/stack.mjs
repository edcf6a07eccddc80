// The local stack for the browser tests: a throwaway PostgreSQL, `kahve serve --all` on free ports
// and the gateway serving web/app/dist with guest tokens on (scripts/serve-stack.sh --gateway).
// Everything is stopped and removed by stop(). Used by the test files (each starts its own, so
// files may run in parallel) and by bench/figures.mjs.
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, chmodSync, chownSync, readFileSync, existsSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
export const appDir = resolve(here, "../..");
export const repoDir = resolve(appDir, "../..");
const pgBin = "/usr/lib/postgresql/15/bin";

/** The build folder holding tools/kahve: KAHVE_BUILD, else the repository's build/. */
export function buildDir() {
  return process.env.KAHVE_BUILD ?? join(repoDir, "build");
}

/** Why the browser suite cannot run here, or "" when it can. */
export function missingPrerequisite() {
  if (!existsSync("/usr/bin/chromium")) return "no /usr/bin/chromium (apt-get install chromium)";
  if (!existsSync(join(buildDir(), "tools/kahve"))) return `no ${join(buildDir(), "tools/kahve")} (build first, or set KAHVE_BUILD)`;
  if (!existsSync(join(pgBin, "initdb"))) return "no PostgreSQL 15";
  if (!existsSync(join(appDir, "dist/index.html"))) return "web/app is not built (npm run build)";
  if (!process.env.KAHVE_GATEWAY_CMD && !existsSync(join(repoDir, "web/gateway/dist/src/main.js"))) return "the gateway is not built (scripts/web-build.sh)";
  return "";
}

export function freePort() {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
    s.on("error", fail);
  });
}

const asPostgres = process.getuid?.() === 0 ? (cmd, args) => ["runuser", ["-u", "postgres", "--", cmd, ...args]] : (cmd, args) => [cmd, args];

function runPg(cmd, args) {
  const [c, a] = asPostgres(cmd, args);
  execFileSync(c, a, { stdio: "ignore" });
}

async function waitFor(what, check, ms = 15000) {
  const until = Date.now() + ms;
  for (;;) {
    const r = await check();
    if (r) return r;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r2) => setTimeout(r2, 50));
  }
}

/** KAHVE_GATEWAY_CMD's command line: PORT MATCHMAKING TABLE RATING STATIC_DIR SECRET appended. */
function gatewayCommand({ port, mm, table, rating, secret }) {
  const custom = process.env.KAHVE_GATEWAY_CMD;
  return ["bash", ["-c", `${custom} ${port} ${mm} ${table} ${rating} ${join(appDir, "dist")} ${secret}`]];
}

const SERVE_FLAGS = ["--away_grace_seconds", "2", "--turn_seconds", "90"];

/**
 * The whole stack: scripts/serve-stack.sh --gateway (the project's one way to start it), or,
 * with KAHVE_GATEWAY_CMD set, PostgreSQL and `kahve serve --all` started here and that command
 * as the gateway (a stand-in while developing).
 */
export async function startStack(options = {}) {
  if (process.env.KAHVE_GATEWAY_CMD) return startOwnStack(options);
  const args = [join(repoDir, "scripts/serve-stack.sh"), "--build", buildDir(), "--gateway", "--static", join(appDir, "dist"),
    ...SERVE_FLAGS.flatMap((f) => ["--serve-flag", f])];
  const child = spawn("bash", args, { stdio: ["pipe", "pipe", options.log ? "inherit" : "ignore"] });
  const line = await new Promise((ok, fail) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const nl = out.indexOf("\n");
      if (nl >= 0) ok(out.slice(0, nl));
    });
    child.once("exit", (code) => fail(new Error(`serve-stack.sh exited (${code}) before it printed its addresses`)));
  });
  const info = JSON.parse(line);
  const env = { ...process.env, KAHVE_JWT_HS256_SECRET: info.secret };
  const port = (hp) => Number(hp.split(":").pop());
  return {
    url: info.gateway, work: info.logs, secret: info.secret,
    ports: { mm: port(info.matchmaking), table: port(info.table), rating: port(info.rating) },
    token(player) {
      return execFileSync(join(buildDir(), "tools/kahve"), ["token", "--player", player], { env }).toString().trim();
    },
    async stop() {
      child.stdin.end();
      child.kill("SIGTERM");
      await new Promise((ok) => (child.exitCode !== null ? ok() : child.once("exit", ok)));
    },
  };
}

async function startOwnStack({ log = false } = {}) {
  const work = mkdtempSync(join(tmpdir(), "kahve-web-"));
  chmodSync(work, 0o755);
  if (process.getuid?.() === 0) chownSync(work, Number(execFileSync("id", ["-u", "postgres"]).toString()), 0);
  const pgPort = await freePort();
  const procs = [];
  const secret = `web-test-${Math.random().toString(36).slice(2)}`;
  runPg(join(pgBin, "initdb"), ["-D", join(work, "data"), "-U", "postgres", "-A", "trust"]);
  runPg(join(pgBin, "pg_ctl"), ["-D", join(work, "data"), "-l", join(work, "pg.log"), "-w", "-o",
    `-p ${pgPort} -k ${work} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off`, "start"]);
  runPg(join(pgBin, "createdb"), ["-h", "127.0.0.1", "-p", String(pgPort), "-U", "postgres", "kahve"]);
  const env = { ...process.env, KAHVE_DATABASE: `postgresql://postgres@127.0.0.1:${pgPort}/kahve`, KAHVE_JWT_HS256_SECRET: secret };
  const kahve = join(buildDir(), "tools/kahve");
  execFileSync(kahve, ["migrate"], { env, stdio: "ignore" });
  const serveLog = join(work, "serve.log");
  const out = (name) => (log ? "inherit" : ["ignore", "ignore", "ignore"]);
  const serve = spawn("bash", ["-c", `exec "${kahve}" serve --all --port 0 --metrics_port 0 --host 127.0.0.1 --drain_seconds 0 --host_id web --pass_interval_ms 100 ${SERVE_FLAGS.join(" ")} > "${serveLog}" 2>&1`], { env, stdio: out("serve") });
  procs.push(serve);
  const portOf = (svc) => {
    const m = new RegExp(`"msg":"${svc} serving".*?"port":(\\d+)`).exec(existsSync(serveLog) ? readFileSync(serveLog, "utf8") : "");
    return m ? Number(m[1]) : 0;
  };
  await waitFor("kahve serve", () => /"msg":"kahve serve ready"/.test(existsSync(serveLog) ? readFileSync(serveLog, "utf8") : ""));
  const ports = { mm: portOf("kahve-matchmaking"), table: portOf("kahve-table"), rating: portOf("kahve-rating") };
  const port = await freePort();
  const [cmd, args] = gatewayCommand({ port, ...ports, secret });
  const gw = spawn(cmd, args, { env, stdio: out("gateway") });
  procs.push(gw);
  const url = `http://127.0.0.1:${port}`;
  await waitFor("the gateway", async () => {
    try {
      return (await fetch(`${url}/`)).ok;
    } catch {
      return false;
    }
  });
  return {
    url, work, secret, ports,
    /** A token for a player, minted with the stack's secret (as `kahve token`). */
    token(player) {
      return execFileSync(kahve, ["token", "--player", player], { env }).toString().trim();
    },
    async stop() {
      for (const p of procs.reverse()) {
        p.kill("SIGTERM");
        await new Promise((ok) => (p.exitCode !== null ? ok() : p.once("exit", ok)));
      }
      try {
        runPg(join(pgBin, "pg_ctl"), ["-D", join(work, "data"), "-m", "immediate", "stop"]);
      } catch {
        // Already stopped.
      }
      rmSync(work, { recursive: true, force: true });
    },
  };
}
