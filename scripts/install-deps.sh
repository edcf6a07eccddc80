#!/usr/bin/env bash
# Installs every Debian 12 package kahve needs to build, test and run.
# Idempotent: packages already present are skipped, so a warm machine pays almost nothing.
# Used by the README commands, .ci/run and (later) the Dockerfile's build stage.
set -euo pipefail

packages=(
  # toolchain
  g++ cmake ninja-build ccache pkg-config git
  # engine
  libprotobuf-dev protobuf-compiler libabsl-dev
  # services
  libgrpc++-dev protobuf-compiler-grpc libpqxx-dev prometheus-cpp-dev libssl-dev
  postgresql-15
  # tests and benchmarks (promtool, from prometheus, lints /metrics)
  libgtest-dev libgmock-dev libbenchmark-dev prometheus
  # k8s/check.sh: YAML lint; python3 unpacks its fallback kubectl
  yamllint python3
)
# k8s/check.sh runs its npm packages on Node.js. Debian's nodejs and npm only where no node and npm
# are installed: Debian's npm conflicts with a Node.js that bundles its own.
command -v node >/dev/null || packages+=(nodejs)
command -v npm >/dev/null || packages+=(npm)

missing=()
for pkg in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if [ "${#missing[@]}" -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: missing ${missing[*]}; run as root (or install them) first" >&2
  exit 1
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done"
