#!/usr/bin/env bash
# kahve.v1 through buf (README, "Compatibility"): `buf lint` with proto/buf.yaml's rules, and
# `buf breaking` against the contract of the last released version (proto/contract/released.txtpb,
# a buf image in text form). Every breaking finding must be acknowledged in CHANGELOG.md's entry
# for the version being built (changelog_acks.py says how); lint findings must be fixed.
#
# Installs the buf CLI (npm @bufbuild/buf, from the committed lock file in proto/contract/buf/)
# into proto/contract/.tools with `npm ci`, once per lock file; Node.js and npm come from
# scripts/install-deps.sh.
#
# Usage: buf_check.sh VERSION [--proto DIR] [--baseline FILE] [--changelog FILE]
#        buf_check.sh VERSION --write-baseline    (at a release: the current contract becomes the
#                                                  baseline, marked as VERSION's)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
tools="$here/.tools"

fail() {
  echo "buf_check.sh: FAILED: $*" >&2
  exit 1
}

[ "$#" -ge 1 ] || fail "usage: buf_check.sh VERSION [--proto DIR] [--baseline FILE] [--changelog FILE]"
version="$1"
shift
proto="$root/proto"
baseline="$here/released.txtpb"
changelog="$root/CHANGELOG.md"
write_baseline=0
while [ "$#" -gt 0 ]; do
  case "$1" in
    --proto) proto="$2"; shift 2 ;;
    --baseline) baseline="$2"; shift 2 ;;
    --changelog) changelog="$2"; shift 2 ;;
    --write-baseline) write_baseline=1; shift ;;
    *) fail "unknown argument $1" ;;
  esac
done

# --- Node.js and npm from Debian (scripts/install-deps.sh names them), buf from npm ------------
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  [ "$(id -u)" -eq 0 ] || fail "node or npm missing: run scripts/install-deps.sh as root"
  bash "$root/scripts/install-deps.sh"
fi
mkdir -p "$tools"
install_buf() {
  if [ ! -d "$tools/node_modules" ] || ! cmp -s "$here/buf/package-lock.json" "$tools/.installed-lock"; then
    cp "$here/buf/package.json" "$here/buf/package-lock.json" "$tools/"
    rm -f "$tools/.installed-lock"
    (cd "$tools" && npm ci --no-audit --no-fund --loglevel=error) || fail "npm ci in $tools"
    cp "$here/buf/package-lock.json" "$tools/.installed-lock"
  fi
}
# ctest may run two checks at once: one installs, the other waits for it.
exec 9>"$tools/.install.lock"
flock 9
install_buf
flock -u 9
# The platform's own binary, which the package's bin/buf (a Node.js wrapper) would start anyway.
buf="$(ls "$tools"/node_modules/@bufbuild/buf-*/bin/buf 2>/dev/null | head -n 1 || true)"
[ -n "$buf" ] || buf="$tools/node_modules/.bin/buf"
[ -x "$buf" ] || fail "no buf in $tools"

if [ "$write_baseline" -eq 1 ]; then
  {
    echo "# kahve.v1 as released in kahve $version: the baseline of buf breaking (buf_check.sh)."
    echo "# A buf image without source info; replace it only at a release:"
    echo "#   proto/contract/buf_check.sh VERSION --write-baseline"
    (cd "$proto" && "$buf" build --exclude-source-info -o -#format=txtpb)
  } >"$baseline.part" || fail "buf build"
  mv "$baseline.part" "$baseline"
  echo "buf_check.sh: $baseline is now kahve.v1 as of $version"
  exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# --- Lint ----------------------------------------------------------------------------------------
(cd "$proto" && "$buf" lint) || fail "buf lint (proto/buf.yaml lists the rules and why some are off)"

# --- Breaking changes since the last release, each named in CHANGELOG.md -------------------------
status=0
(cd "$proto" && "$buf" breaking --against "$baseline" --error-format=json) >"$work/findings" ||
  status=$?
# buf exits 100 for findings; anything else non-zero is buf failing to run.
[ "$status" -eq 0 ] || [ "$status" -eq 100 ] || fail "buf breaking exited $status: $(cat "$work/findings")"
python3 "$here/changelog_acks.py" "$changelog" "$version" "$work/findings" ||
  fail "breaking changes not named in $changelog (kahve $version); see above"
echo "buf_check.sh: lint clean; $(grep -c . "$work/findings" || true) breaking change(s) since the baseline, each in the changelog"
