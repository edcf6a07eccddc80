// Logs as the services write them: one JSON object per line on stdout, {"ts","level","msg",...}.

export type Level = "debug" | "info" | "warning" | "error";
const kRank: Record<Level, number> = { debug: 0, info: 1, warning: 2, error: 3 };

let minimum: Level = "info";

export function setLogLevel(level: string): void {
  if (!(level in kRank)) throw new Error(`--log_level: debug, info, warning or error, not "${level}"`);
  minimum = level as Level;
}

export function log(level: Level, msg: string, fields: Record<string, string | number | boolean | undefined> = {}): void {
  if (kRank[level] < kRank[minimum]) return;
  const line: Record<string, unknown> = { ts: new Date().toISOString(), level, msg };
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) line[k] = v;
  process.stdout.write(`${JSON.stringify(line)}\n`);
}
