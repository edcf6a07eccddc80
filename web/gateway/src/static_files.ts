// The web client's files (web/app's build output), served from memory. The folder is read once at
// start (and again on SIGHUP): only files found then are served, looked up by their exact path, so
// no request path ever reaches the file system (no traversal, no symlink escapes, no stat per
// request). Each file is kept with its strong ETag and, when compressible, gzip and brotli forms
// (or the .gz/.br files the build wrote beside it).
//
// Caching: a file whose name carries a content hash (app-3F9A2C1B.js) never changes under that
// name: a year, immutable. Any other (index.html, app.js) is revalidated on every use (no-cache
// with the ETag: a 304 costs a round trip, never a stale page after a deploy).
import { createHash } from "node:crypto";
import { lstatSync, readFileSync, readdirSync } from "node:fs";
import { extname, join, relative, sep } from "node:path";
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";

const kContentTypes: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".map": "application/json",
  ".webmanifest": "application/manifest+json",
  ".txt": "text/plain; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".ttf": "font/ttf",
  ".wasm": "application/wasm",
};
const kCompressible = /^(text\/|application\/(json|manifest\+json|wasm)|image\/svg\+xml)/;
// A hash segment of 8 or more characters with a digit, before the extension: app-3F9A2C1B.js,
// chunk.a1b2c3d4.css.
const kHashed = /[.-](?=[A-Za-z0-9_]*\d)[A-Za-z0-9_]{8,}\.[a-z0-9]+$/;
const kMaxFiles = 5_000;
const kMaxBytes = 200 * 1024 * 1024;

export interface StaticFile {
  type: string;
  etag: string;
  cacheControl: string;
  body: Buffer;
  gzip?: Buffer;
  br?: Buffer;
}

export class StaticFiles {
  private files = new Map<string, StaticFile>();

  constructor(private readonly root: string) {
    if (root) this.reload();
  }

  get size(): number {
    return this.files.size;
  }

  /** Reads the folder again; the previous files stay served if reading fails. */
  reload(): void {
    const files = new Map<string, StaticFile>();
    let bytes = 0;
    const walk = (dir: string) => {
      for (const name of readdirSync(dir).sort()) {
        const path = join(dir, name);
        const st = lstatSync(path); // symlinks are skipped, not followed
        if (st.isDirectory()) {
          walk(path);
          continue;
        }
        if (!st.isFile() || name.endsWith(".gz") || name.endsWith(".br")) continue;
        if (files.size >= kMaxFiles || (bytes += st.size) > kMaxBytes) {
          throw new Error(`${this.root}: more than ${kMaxFiles} files or ${kMaxBytes} bytes`);
        }
        const urlPath = `/${relative(this.root, path).split(sep).join("/")}`;
        files.set(urlPath, this.load(path, name));
      }
    };
    walk(this.root);
    this.files = files;
  }

  private load(path: string, name: string): StaticFile {
    const body = readFileSync(path);
    const type = kContentTypes[extname(name).toLowerCase()] ?? "application/octet-stream";
    const file: StaticFile = {
      type,
      body,
      etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`,
      cacheControl: kHashed.test(name) && name !== "index.html" ? "public, max-age=31536000, immutable" : "no-cache",
    };
    if (kCompressible.test(type) && body.length >= 256) {
      file.gzip = sibling(`${path}.gz`) ?? gzipSync(body, { level: 9 });
      file.br = sibling(`${path}.br`) ?? brotliCompressSync(body, {
        params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length },
      });
    }
    return file;
  }

  /**
   * The file for a request path (already stripped of its query): the exact file, `index.html` for
   * "/" and for page routes (a path with no extension), or undefined.
   */
  lookup(pathname: string): StaticFile | undefined {
    let path: string;
    try {
      path = decodeURIComponent(pathname);
    } catch {
      return undefined;
    }
    const file = this.files.get(path);
    if (file) return file;
    if (path === "/" || path.endsWith("/") || !/\.[A-Za-z0-9]+$/.test(path)) return this.files.get("/index.html");
    return undefined;
  }
}

function sibling(path: string): Buffer | undefined {
  try {
    return lstatSync(path).isFile() ? readFileSync(path) : undefined;
  } catch {
    return undefined;
  }
}

/** The encoding to send: brotli, then gzip, as the client accepts them (q=0 refuses one). */
export function chooseEncoding(acceptEncoding: string | undefined, file: StaticFile): "br" | "gzip" | undefined {
  if (!acceptEncoding) return undefined;
  const accepted = new Set<string>();
  for (const part of acceptEncoding.toLowerCase().split(",")) {
    const [coding, ...params] = part.trim().split(";");
    const q = params.map((p) => /^\s*q=([0-9.]+)/.exec(p)).find(Boolean);
    if (coding && (!q || Number(q[1]) > 0)) accepted.add(coding.trim());
  }
  if (file.br && accepted.has("br")) return "br";
  if (file.gzip && (accepted.has("gzip") || accepted.has("*"))) return "gzip";
  return undefined;
}
