#!/usr/bin/env bash
# Installs and builds kahve's TypeScript parts: one `npm ci` at the repository's root from the
# committed package-lock.json (the npm workspaces: clients/typescript, web/gateway, examples/node),
# then `npm run build` (the client library's code generated from proto/kahve/v1 by protoc-gen-es
# through Debian's protoc, then compiled; the gateway), and with --app the web client (web/app).
# Run by scripts/run.sh, ctest (web/setup), the example and the benchmark; safe to run
# concurrently (one at a time, under a lock), and cheap when nothing changed (the install once per
# lock file, the build once per change of its inputs).
#
# Usage: scripts/web-build.sh [--app] [--force]
#   --app     also install and build the web client (web/app), when it is there
#   --force   build even when the inputs did not change
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
force=""
with_app=""
for arg in "$@"; do
  case "$arg" in
    --force) force=1 ;;
    --app) with_app=1 ;;
    *) echo "web-build.sh: unknown argument $arg" >&2; exit 2 ;;
  esac
done

fail() {
  echo "web-build.sh: FAILED: $*" >&2
  exit 1
}

# --- Node.js and npm from Debian (Node.js 18 on Debian 12; 18.14.1 or newer is needed) -----------
if ! command -v node >/dev/null || ! command -v npm >/dev/null || ! command -v protoc >/dev/null; then
  [ "$(id -u)" -eq 0 ] || fail "node, npm or protoc missing: run scripts/install-deps.sh as root"
  bash "$root/scripts/install-deps.sh"
fi
node -e 'const [a, b, c] = process.versions.node.split(".").map(Number);
  process.exit(a > 18 || (a === 18 && (b > 14 || (b === 14 && c >= 1))) ? 0 : 1)' ||
  fail "Node.js $(node --version) is older than 18.14.1 (what @connectrpc/connect-node 2.0 needs)"

mkdir -p "$root/.kahve"
exec 9>"$root/.kahve/web-build.lock"
flock 9

# --- npm packages, from the committed lock file --------------------------------------------------
# npm ci starts from an empty node_modules, so it runs only when the lock file changed since the
# last install (the copy in node_modules marks a finished one).
marker="$root/node_modules/.kahve-installed-lock"
if ! cmp -s "$root/package-lock.json" "$marker"; then
  (cd "$root" && npm ci --no-audit --no-fund --loglevel=error) || fail "npm ci"
  cp "$root/package-lock.json" "$marker"
fi

# --- The library and the gateway -----------------------------------------------------------------
# The inputs' digest: the protos, the sources and tests, the package and compiler settings.
inputs() {
  (cd "$root" && find proto/kahve/v1 clients/typescript web/gateway \
    \( -name node_modules -o -name dist -o -name dist-test -o -name gen \) -prune -o -type f -print |
    LC_ALL=C sort | xargs sha256sum; sha256sum package-lock.json) | sha256sum | cut -d' ' -f1
}
stamp="$root/.kahve/web-build.stamp"
digest="$(inputs)"
if [ -n "$force" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$digest" ]; then
  rm -f "$stamp"
  (cd "$root" && npm run build --silent) || fail "npm run build"
  echo "$digest" >"$stamp"
fi

# --- The web client (web/app), when asked for and present ---------------------------------------
# A workspace of the root once it is listed there (then `npm ci` above installed it); until then
# its own lock file. Installed and built only here, under the lock, and only when its inputs
# changed: tests in browsers serve web/app/dist while other tests (container/smoke) run this, so
# a needless `npm ci` or rebuild under them would pull files from beneath a running test.
app="$root/web/app"
if [ -n "$with_app" ] && [ -f "$app/package.json" ]; then
  if ! grep -q '"web/app"' "$root/package.json" && [ -f "$app/package-lock.json" ]; then
    if ! cmp -s "$app/package-lock.json" "$app/node_modules/.kahve-installed-lock"; then
      (cd "$app" && npm ci --no-audit --no-fund --loglevel=error) || fail "npm ci in web/app"
      cp "$app/package-lock.json" "$app/node_modules/.kahve-installed-lock"
    fi
  fi
  # The library is bundled into the app: its digest is one of the app's inputs.
  app_digest="$( (echo "$digest"; cd "$app" && find src public build.mjs tsconfig.json package.json \
    package-lock.json -type f -print 2>/dev/null | LC_ALL=C sort | xargs sha256sum) | sha256sum |
    cut -d' ' -f1)"
  app_stamp="$root/.kahve/web-app-build.stamp"
  if [ -n "$force" ] || [ ! -f "$app/dist/app.js" ] ||
     [ "$(cat "$app_stamp" 2>/dev/null)" != "$app_digest" ]; then
    rm -f "$app_stamp"
    (cd "$app" && npm run build --silent) || fail "npm run build in web/app"
    echo "$app_digest" >"$app_stamp"
  fi
fi
echo "web-build.sh: ok"
