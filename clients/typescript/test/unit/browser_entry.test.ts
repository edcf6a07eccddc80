// The entries browsers load ("@kahve/client" and "@kahve/client/web") must not reach Node.js-only
// code: their compiled import graph is walked and no module of it may import a Node built-in or
// connect-node (the web client's bundler would fail, or worse, ship polyfills).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { builtinModules, createRequire } from "node:module";
import { dirname, resolve } from "node:path";
import { test } from "node:test";

const require = createRequire(import.meta.url);
const kImport = /(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

function graph(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const m of readFileSync(file, "utf8").matchAll(kImport)) {
      const spec = (m[1] ?? m[2])!;
      if (spec.startsWith(".")) visit(resolve(dirname(file), spec));
      else packages.add(spec);
    }
  };
  visit(entry);
  return { files, packages };
}

for (const entry of ["@kahve/client", "@kahve/client/web"]) {
  test(`${entry} reaches no Node.js-only module`, () => {
    const { files, packages } = graph(require.resolve(entry));
    assert.ok(files.size > 10, `walked ${files.size} files`);
    const nodeOnly = [...packages].filter((p) => p.startsWith("node:") || builtinModules.includes(p) || p.includes("connect-node"));
    assert.deepEqual(nodeOnly, []);
  });
}
