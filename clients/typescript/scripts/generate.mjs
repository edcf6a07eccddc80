// Generates the TypeScript code of kahve.v1 into src/gen/ (messages and service descriptors,
// protobuf-es v2) from the repository's proto/kahve/v1/*.proto, with Debian's protoc and the
// protoc-gen-es plugin from node_modules. The output is never committed or edited: `npm run build`
// makes it again each time (src/gen/ is in .gitignore).
//
// Usage: node scripts/generate.mjs    (PROTOC=path to use another protoc)
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const pkg = resolve(here, "..");
const protoRoot = resolve(pkg, "../../proto");
const out = join(pkg, "src/gen");
const protoc = process.env.PROTOC || "protoc";
const plugin = createRequire(join(pkg, "package.json")).resolve("@bufbuild/protoc-gen-es/bin/protoc-gen-es");

const protos = readdirSync(join(protoRoot, "kahve/v1"))
  .filter((f) => f.endsWith(".proto"))
  .sort()
  .map((f) => `kahve/v1/${f}`);
if (protos.length === 0) throw new Error(`no .proto files under ${protoRoot}/kahve/v1`);

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
try {
  execFileSync(protoc, [
    `--proto_path=${protoRoot}`,
    `--plugin=protoc-gen-es=${plugin}`,
    `--es_out=${out}`,
    // TypeScript compiled with the library; imports end in .js as Node's ES modules require.
    "--es_opt=target=ts,import_extension=js",
    ...protos,
  ], { cwd: protoRoot, stdio: ["ignore", "inherit", "inherit"] });
} catch (err) {
  if (err.code === "ENOENT") {
    throw new Error(`${protoc} not found: install Debian's protobuf-compiler (scripts/install-deps.sh)`);
  }
  throw err;
}
console.log(`generate: ${protos.length} files of kahve.v1 -> ${out}`);
