// Builds the web client into dist/: one bundle (app.js), one stylesheet (app.css) and
// index.html, minified, no CDN. `node build.mjs --watch` rebuilds on change.
import { build, context } from "esbuild";
import { copyFile, mkdir, readdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "dist");
// --tests-only: the unit tests alone; dist/ stays as it is (it may be served while this runs).
const testsOnly = process.argv.includes("--tests-only");
if (!testsOnly) {
  await mkdir(out, { recursive: true });
  await copyFile(join(here, "public/index.html"), join(out, "index.html"));
}

const options = {
  entryPoints: { app: join(here, "src/main.ts") },
  outdir: out,
  bundle: true,
  format: "esm",
  target: ["es2022"],
  minify: true,
  sourcemap: "linked",
  legalComments: "none",
  logLevel: "warning",
  metafile: true,
};

// Unit tests (test/unit/*.test.ts) bundled for Node's test runner into dist-test/.
if (testsOnly || process.argv.includes("--tests")) {
  const tests = (await readdir(join(here, "test/unit"))).filter((f) => f.endsWith(".test.ts"));
  await build({
    entryPoints: tests.map((f) => join(here, "test/unit", f)),
    outdir: join(here, "dist-test"),
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: ["node18"],
    logLevel: "warning",
  });
}

if (testsOnly) {
  console.log("web/app unit tests built");
} else if (process.argv.includes("--watch")) {
  const ctx = await context(options);
  await ctx.watch();
  console.log("watching src/ …");
} else {
  const result = await build(options);
  const bytes = Object.entries(result.metafile.outputs)
    .filter(([f]) => !f.endsWith(".map"))
    .map(([f, o]) => `${f.split("/").pop()} ${(o.bytes / 1024).toFixed(1)} KB`);
  console.log(`web/app built: ${bytes.join(", ")}`);
}
