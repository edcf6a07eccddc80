#!/usr/bin/env bash
# A release's images: builds kahve and kahve-web (container/build.sh), tags both with the
# release's version (CMakeLists.txt's project VERSION, which CHANGELOG.md and `--version` show),
# writes an SPDX 2.3 SBOM of each (Debian's own package database in the image, read with
# dpkg-query, and for kahve-web the npm packages of the committed lock file), pushes them, and
# pins the prod overlay on what the registry stored: `images:` gets the name, the version tag and
# the digest (k8s/README.md, Images).
#
# Usage: container/release.sh [--no-build] [--allow-untagged] [--overlay DIR] [--out DIR]
#                             [--push-to-dir DIR] REPOSITORY
#   REPOSITORY      where the images go: REPOSITORY/kahve:VERSION, REPOSITORY/kahve-web:VERSION
#                   (e.g. registry.acme.example/games); podman must be logged in to it
#   --no-build      release the images kahve:latest and kahve-web:latest as they are
#   --allow-untagged  release from a commit that is not tagged vVERSION (a test, a preview)
#   --overlay DIR   the overlay whose images: to pin (default k8s/overlays/prod)
#   --out DIR       where the SBOMs and digests go (default .kahve/release/VERSION)
#   --push-to-dir DIR  write OCI layouts under DIR instead of pushing (air gaps, tests)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
# shellcheck source=container/common.sh
source "$here/common.sh"
podman=("${kahve_podman[@]}")

fail() {
  echo "container/release.sh: FAILED: $*" >&2
  exit 1
}

build=true untagged=false overlay="$root/k8s/overlays/prod" out="" push_dir="" repository=""
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) build=false ;;
    --allow-untagged) untagged=true ;;
    --overlay) overlay="$2"; shift ;;
    --out) out="$2"; shift ;;
    --push-to-dir) push_dir="$2"; shift ;;
    -*) fail "unknown option $1" ;;
    *) repository="$1" ;;
  esac
  shift
done
[ -n "$repository" ] || fail "name the repository the images go to (e.g. registry.acme.example/games)"
[ -f "$overlay/kustomization.yaml" ] || fail "no kustomization.yaml in $overlay"

version="$(sed -n 's/^project(kahve VERSION \([0-9][0-9.]*\).*/\1/p' "$root/CMakeLists.txt")"
[ -n "$version" ] || fail "no project(kahve VERSION ...) in CMakeLists.txt"
if ! $untagged; then
  tag="$(git -C "$root" describe --tags --exact-match 2>/dev/null || true)"
  [ "$tag" = "v$version" ] || fail "HEAD is not tagged v$version (CHANGELOG.md, Releasing); --allow-untagged for a preview"
  [ -z "$(git -C "$root" status --porcelain)" ] || fail "the working tree has changes: a release is built from its tag alone"
fi
out="${out:-$root/.kahve/release/$version}"
mkdir -p "$out"

if $build; then bash "$here/build.sh" kahve:latest; fi
commit="$(git -C "$root" rev-parse HEAD)"

# sbom IMAGE NAME: the SPDX document of IMAGE, as NAME-VERSION.spdx.json in $out.
sbom() {
  local image="$1" name="$2"
  "${podman[@]}" run --rm "${kahve_limits[@]}" --network none --entrypoint dpkg-query "$image" \
    -W -f '${Package}\t${Version}\t${Architecture}\t${source:Package}\n' >"$out/$name.dpkg.tsv"
  local npm_lock=""
  if [ "$name" = kahve-web ]; then npm_lock="$root/package-lock.json"; fi
  python3 "$here/spdx_sbom.py" --name "$name" --version "$version" --commit "$commit" \
    --dpkg "$out/$name.dpkg.tsv" ${npm_lock:+--npm-lock "$npm_lock"} >"$out/$name-$version.spdx.json"
  rm -f "$out/$name.dpkg.tsv"
}

# publish LOCAL NAME: tags LOCAL as REPOSITORY/NAME:VERSION, pushes it, prints the stored digest.
publish() {
  local local_image="$1" name="$2" target="$repository/$2:$version"
  "${podman[@]}" tag "$local_image" "$target"
  local destination="docker://$target"
  if [ -n "$push_dir" ]; then
    mkdir -p "$push_dir"
    rm -rf "${push_dir:?}/$name"
    destination="oci:$push_dir/$name:$version"
  fi
  "${podman[@]}" push --quiet --digestfile "$out/$name.digest" "$target" "$destination" >&2
  cat "$out/$name.digest"
}

declare -A digests
for pair in kahve:latest=kahve kahve-web:latest=kahve-web; do
  image="${pair%%=*}" name="${pair#*=}"
  sbom "$image" "$name"
  digests[$name]="$(publish "$image" "$name")"
  [[ "${digests[$name]}" =~ ^sha256:[0-9a-f]{64}$ ]] || fail "no digest for $name: ${digests[$name]}"
  echo "container/release.sh: $repository/$name:$version@${digests[$name]} ($out/$name-$version.spdx.json)"
done

# The overlay's images: entries, rewritten in place (their comments and order kept).
python3 - "$overlay/kustomization.yaml" "$repository" "$version" "${digests[kahve]}" \
  "${digests[kahve-web]}" <<'PY'
import re, sys
path, repository, version, kahve, web = sys.argv[1:]
text = open(path).read()
def pin(text, name, digest):
    entry = re.compile(r"(  - name: %s\n    newName: )[^\n]*(\n    newTag: )[^\n]*(\n    digest: )[^\n]*" % re.escape(name))
    text, n = entry.subn(lambda m: m.group(1) + f"{repository}/{name}" + m.group(2) + version + m.group(3) + digest, text)
    if n != 1:
        sys.exit(f"{path}: no images: entry for {name} (name, newName, newTag, digest in that order)")
    return text
text = pin(pin(text, "kahve", kahve), "kahve-web", web)
open(path, "w").write(text)
PY
echo "container/release.sh: pinned $overlay/kustomization.yaml on $version; next: k8s/check.sh --deploy"
