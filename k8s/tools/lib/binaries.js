'use strict';
// What the kahve binaries accept, read from the binaries themselves and from the documents the
// project keeps beside them: flags (--helpfull), environment variables (docs/configuration.md),
// default ports, kahve's subcommands and the gRPC service names (proto/).

const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

// The binaries an image holds, by the name the manifests run them under.
const kServiceBinaries = ['kahve-matchmaking', 'kahve-table', 'kahve-rating'];
const kAllBinaries = [...kServiceBinaries, 'kahve'];

// Files whose flags are kahve's own (the rest are Abseil's), as tests/docs/ decides it.
const kOwnFlagFile = /(^|\/)(services|tools\/kahve|engine)\//;

function findBinary(buildDir, name) {
  const walk = (dir, depth) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isFile() && entry.name === name) {
        try {
          fs.accessSync(full, fs.constants.X_OK);
          return full;
        } catch (e) { /* not executable: keep looking */ }
      }
      if (entry.isDirectory() && depth > 0 && entry.name !== 'CMakeFiles') {
        const found = walk(full, depth - 1);
        if (found) return found;
      }
    }
    return null;
  };
  return walk(buildDir, 3);
}

// Runs `binary args... --helpfull` with exactly `env` (plus a PATH) and parses what it prints:
// { status, output, flags: Map(name -> { file, own, defaultValue, current }) }.
function helpfull(binary, args = [], env = {}) {
  const run = spawnSync(binary, [...args, '--helpfull'], {
    env: { PATH: '/usr/bin:/bin', ...env },
    encoding: 'utf8',
    timeout: 30000,
  });
  const output = `${run.stdout || ''}${run.stderr || ''}`;
  const flags = new Map();
  let file = null;
  let entry = null;
  const finish = () => {
    if (!entry) return;
    const m = entry.text.match(/default: (.*?);(?: currently: (.*?);)?\s*$/);
    flags.set(entry.name, {
      file,
      own: kOwnFlagFile.test(file),
      defaultValue: m ? unquote(m[1]) : null,
      current: m && m[2] !== undefined ? unquote(m[2]) : null,
    });
    entry = null;
  };
  for (const line of output.split('\n')) {
    const from = line.match(/^ {2}Flags from (.*):$/);
    const start = line.match(/^ {4}--([A-Za-z0-9_]+) /);
    if (from) {
      finish();
      file = from[1];
    } else if (start) {
      finish();
      entry = { name: start[1], text: line.trim() };
    } else if (entry && /^ {6}\S/.test(line)) {
      entry.text += ` ${line.trim()}`;
    } else {
      finish();
    }
  }
  finish();
  return { status: run.status, output, flags };
}

function unquote(s) {
  const t = s.trim();
  return t.length >= 2 && t.startsWith('"') && t.endsWith('"') ? t.slice(1, -1) : t;
}

// docs/configuration.md: { env: Map(KAHVE_X -> flag), defaults: { port, metrics_port } by
// service short name (matchmaking, table, rating) }.
function readConfigurationDoc(file) {
  const text = fs.readFileSync(file, 'utf8');
  const env = new Map();
  for (const m of text.matchAll(/^\| `--([a-z0-9_]+)` \| `(KAHVE_[A-Z0-9_]+)` \|/gm)) {
    env.set(m[2], m[1]);
  }
  const defaults = {};
  for (const flag of ['port', 'metrics_port']) {
    const row = text.match(new RegExp(`^\\| \`--${flag}\` \\|.*$`, 'm'));
    if (!row) throw new Error(`${file}: no row for --${flag}`);
    for (const m of row[0].matchAll(/(matchmaking|table|rating) (\d+)/g)) {
      defaults[m[1]] = defaults[m[1]] || {};
      defaults[m[1]][flag] = Number(m[2]);
    }
  }
  return { env, defaults };
}

// The fully qualified gRPC service each service binary serves, from proto/kahve/v1/<short>.proto.
function readServiceNames(protoDir) {
  const names = {};
  for (const short of ['matchmaking', 'table', 'rating']) {
    const text = fs.readFileSync(path.join(protoDir, `${short}.proto`), 'utf8');
    const pkg = text.match(/^package ([\w.]+);/m);
    const svc = text.match(/^service (\w+) \{/m);
    if (!pkg || !svc) throw new Error(`${short}.proto: no package or service`);
    names[`kahve-${short}`] = `${pkg[1]}.${svc[1]}`;
  }
  return names;
}

// `kahve help`: the subcommands, each listed as "  NAME ..." in its usage.
function kahveCommands(binary) {
  const run = spawnSync(binary, ['help'], { encoding: 'utf8', env: { PATH: '/usr/bin:/bin' } });
  if (run.status !== 0) throw new Error(`${binary} help exited ${run.status}`);
  return new Set([...run.stdout.matchAll(/^ {2}([a-z]+)\b/gm)].map((m) => m[1]));
}

module.exports = {
  kServiceBinaries, kAllBinaries, findBinary, helpfull, readConfigurationDoc, readServiceNames,
  kahveCommands,
};
