// The local stack for the browser tests: a throwaway PostgreSQL (as the postgres user when run
// as root), migrated; `kahve serve --all` on free ports; the gateway serving web/app/dist with
// guest tokens on. Everything is stopped and removed by stop(). Used by the test files (each
// starts its own, so files run in parallel) and by bench/figures.mjs.
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

/** The gateway's command line, for web/gateway as built, or KAHVE_GATEWAY_CMD (a dev stand-in). */
function gatewayCommand({ port, mm, table, rating, secret }) {
  const custom = process.env.KAHVE_GATEWAY_CMD;
  if (custom) return ["bash", ["-c", `${custom} ${port} ${mm} ${table} ${rating} ${join(appDir, "dist")} ${secret}`]];
  const main = join(repoDir, "web/gateway/dist/src/main.js");
  return [process.execPath, [main, "--port", String(port), "--host", "127.0.0.1",
    "--matchmaking_target", `127.0.0.1:${mm}`, "--table_target", `127.0.0.1:${table}`, "--rating_target", `127.0.0.1:${rating}`,
    "--static_dir", join(appDir, "dist"), "--guest_tokens", "--metrics_port", "0", "--drain_seconds", "0"]];
}

export async function startStack({ log = false } = {}) {
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
  const serve = spawn("bash", ["-c", `exec "${kahve}" serve --all --port 0 --metrics_port 0 --host 127.0.0.1 --drain_seconds 0 --host_id web --pass_interval_ms 100 --away_grace_seconds 2 --turn_seconds 90 > "${serveLog}" 2>&1`], { env, stdio: out("serve") });
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
