#!/usr/bin/env bash
# Part of k8s/check.sh: the --deploy check (check-deploy-values.js) must refuse each placeholder
# the prod overlay holds in git, naming it, and accept a copy of the overlay with every value
# filled in as k8s/README.md says. So a check that no longer tells them apart fails CI, not a
# deploy.
# Usage: deploy-values-selftest.sh K8S_DIR KUBECTL TOOLS_DIR
set -euo pipefail
k8s="$1" kubectl="$2" tools="$3"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
check() { node "$k8s/tools/check-deploy-values.js" --tools "$tools" "$@"; }
fail() {
  echo "deploy-values-selftest: FAILED: $*" >&2
  exit 1
}

# 1. The overlay as in git: refused, every placeholder named.
"$kubectl" kustomize "$k8s/overlays/prod" >"$work/git.yaml"
if check --overlay "$k8s/overlays/prod" "$work/git.yaml" >"$work/git.out"; then
  fail "the placeholders in git passed"
fi
for named in 'public_host is "kahve.example.com"' 'web_host is "play.kahve.example.com"' \
  'pod_cidr 192.0.2.0/24' 'jwt-hs256-secret' 'listener grpc: hostname' 'listener web: hostname' \
  'destinationPath is' 'endpointURL' 'Deployment/kahve-table container table: image' \
  'Job/kahve-migrate container migrate: image' 'Deployment/kahve-web container web: image' \
  'names your registry'; do
  grep -qF "$named" "$work/git.out" || { cat "$work/git.out" >&2; fail "no FAIL line names: $named"; }
done

# 2. A copy with every value set: accepted.
mkdir -p "$work/k8s/overlays"
cp -r "$k8s/base" "$k8s/monitoring" "$work/k8s/"
cp -r "$k8s/overlays/prod" "$work/k8s/overlays/"
prod="$work/k8s/overlays/prod"
cat >"$prod/site.env" <<'SITE'
public_host=tables.acme-games.com
web_host=play.acme-games.com
pod_cidr=10.244.0.0/16,fd00:10:244::/56
SITE
printf 'jwt-hs256-secret=%s\n' "$(head -c 48 /dev/urandom | base64 -w0)" >"$prod/secrets.env"
digest="sha256:$(printf 'kahve' | sha256sum | cut -d' ' -f1)"
sed -i -e "s|registry.example.com/|registry.acme-games.com/|" \
  -e "s|sha256:0\{64\}|$digest|" "$prod/kustomization.yaml"
sed -i -e 's|s3://REPLACE-bucket/kahve|s3://acme-kahve-backups/kahve|' \
  -e 's|https://REPLACE-object-store.example.com|https://s3.eu-central-1.amazonaws.com|' \
  "$prod/backup.yaml"
"$kubectl" kustomize "$prod" >"$work/filled.yaml"
check --overlay "$prod" "$work/filled.yaml" >"$work/filled.out" ||
  { cat "$work/filled.out" >&2; fail "a filled-in overlay was refused"; }
grep -q "tables.acme-games.com:443" "$work/filled.yaml" ||
  fail "public_host did not reach KAHVE_TABLE_CLIENT_ENDPOINT"
echo "deploy-values-selftest: placeholders refused ($(grep -c '^FAIL' "$work/git.out") named), filled-in values accepted"
