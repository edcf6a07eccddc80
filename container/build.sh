#!/usr/bin/env bash
# Builds the images kahve:latest (Dockerfile), kahve-web:latest (container/web.Containerfile: the
# gRPC-Web gateway and the web client) and kahve-postgres:15 (container/postgres.Containerfile),
# after making the base image when podman lacks it.
#
# Layers are reused between runs; the Dockerfile's build stage is tagged kahve-build:latest so
# its package layer stays cached. An image a tag named before and no longer names is removed,
# with the layers nothing else uses, so rebuilds do not pile up (about 1.4 GB each).
# The build stage compiles through ccache with a host folder mounted at /ccache: the host's own
# ccache folder, so what the host build of this tree compiled is a hit (same path, preset and
# locale: see Dockerfile), or ~/.cache/kahve-image-ccache on a host without ccache.
#
# Usage: container/build.sh [IMAGE]    IMAGE: the tag of the kahve image (default kahve:latest)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
# shellcheck source=container/common.sh
source "$here/common.sh"
podman=("${kahve_podman[@]}")
image="${1:-kahve:latest}"
stage="kahve-build:latest"
postgres="kahve-postgres:15"
web="kahve-web:latest"

bash "$here/base-image.sh"

image_id() { "${podman[@]}" image inspect --format '{{.Id}}' "$1" 2>/dev/null || true; }
tags=("$image" "$stage" "$postgres" "$web")
before=()
for tag in "${tags[@]}"; do before+=("$(image_id "$tag")"); done

if command -v ccache >/dev/null; then
  cache="$(ccache --get-config cache_dir)"
else
  cache="$HOME/.cache/kahve-image-ccache"
fi
mkdir -p "$cache"
# ccache's keys include these variables, set or not: the image build gets the ones this shell has.
locale=""
for var in LANG LC_ALL LC_CTYPE LC_MESSAGES; do
  if [ -n "${!var+set}" ]; then locale+="$var=${!var} "; fi
done

# So are ccache's settings that change its keys: the host's (its ccache.conf may set base_dir, for
# one), which the image build does not read, are passed as the same settings' variables; and its
# size limit, so that the image build never trims the host's cache to ccache's default.
ccache_settings=""
if command -v ccache >/dev/null; then
  for pair in base_dir:CCACHE_BASEDIR compiler_check:CCACHE_COMPILERCHECK \
              sloppiness:CCACHE_SLOPPINESS namespace:CCACHE_NAMESPACE max_size:CCACHE_MAXSIZE; do
    value="$(ccache --get-config "${pair%%:*}")"
    if [ -n "$value" ]; then ccache_settings+="${pair#*:}=$value "; fi
  done
  if [ "$(ccache --get-config hash_dir)" = false ]; then ccache_settings+="CCACHE_NOHASHDIR=1 "; fi
fi

build=("${podman[@]}" build "${kahve_limits[@]}" --network host --pull=never)
kahve=("${build[@]}" --volume "$cache:/ccache" --build-arg KAHVE_SRC="$root"
  --build-arg KAHVE_BUILD_LOCALE="$locale" --build-arg KAHVE_CCACHE_SETTINGS="$ccache_settings"
  --file "$root/Dockerfile")
"${kahve[@]}" --target build --tag "$stage" "$root"
"${kahve[@]}" --tag "$image" "$root"
"${build[@]}" --tag "$postgres" --file "$root/container/postgres.Containerfile" "$root"
# The web tier, built on the host with its npm setup and cache (web.Containerfile says why), then
# what runs staged in .kahve/web-image: the production packages from the committed lock file
# (the workspaces' manifests beside it) and the built library, gateway and client.
bash "$root/scripts/web-build.sh" --app
web_stage="$root/.kahve/web-image"
rm -rf "$web_stage"
mkdir -p "$web_stage/clients/typescript" "$web_stage/web/gateway" "$web_stage/web/app" \
  "$web_stage/examples/node"
cp "$root/package.json" "$root/package-lock.json" "$web_stage/"
for workspace in clients/typescript web/gateway examples/node; do
  cp "$root/$workspace/package.json" "$web_stage/$workspace/"
done
(cd "$web_stage" && npm ci --omit=dev --ignore-scripts --prefer-offline --no-audit --no-fund \
  --loglevel=error)
rm -rf "$web_stage/examples" "$web_stage/node_modules/kahve-example-node"
cp -a "$root/clients/typescript/dist" "$web_stage/clients/typescript/"
cp -a "$root/web/gateway/dist" "$web_stage/web/gateway/"
rm -rf "$web_stage/web/gateway/dist/test"
cp -a "$root/web/app/dist" "$web_stage/web/app/"
# The compressed forms beside the client's files, which the gateway serves instead of making them
# at every start (brotli at quality 11 of the 1.2 MB source map alone takes it about 3 s): the
# extensions of the types it compresses, its settings.
node -e '
const fs = require("fs"), path = require("path"), zlib = require("zlib");
const walk = (dir) => {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) { walk(file); continue; }
    if (!/\.(html|css|js|mjs|json|map|webmanifest|txt|svg|wasm)$/.test(entry.name)) continue;
    const body = fs.readFileSync(file);
    if (body.length < 256) continue;
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(body, { level: 9 }));
    fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(body, { params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } }));
  }
};
walk(process.argv[1]);' "$web_stage/web/app/dist"
"${build[@]}" --tag "$web" --file "$root/container/web.Containerfile" \
  --ignorefile "$root/container/web.containerignore" "$root"

for i in "${!tags[@]}"; do
  if [ -n "${before[$i]}" ] && [ "${before[$i]}" != "$(image_id "${tags[$i]}")" ]; then
    # Kept when a container or another tag still uses it.
    "${podman[@]}" rmi "${before[$i]}" >/dev/null 2>&1 || true
  fi
done
"${podman[@]}" image ls --filter reference="$image" --filter reference="$web" \
  --filter reference="$postgres"
