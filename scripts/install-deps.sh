#!/usr/bin/env bash
# Installs the Debian 12 packages kahve needs. This is the only place packages are named.
# Idempotent: packages already present are skipped, so a warm machine pays almost nothing.
#
# Usage: install-deps.sh [--build | --runtime | --postgres]
#   (none)      everything: build, test, fuzz, benchmark, k8s/check and the container smoke test
#               (the README commands and .ci/run)
#   --build     only what building the four binaries needs (the Dockerfile's build stage)
#   --runtime   only the shared libraries the four binaries load (the Dockerfile's runtime stage)
#   --postgres  only PostgreSQL 15 (container/postgres.Containerfile)
set -euo pipefail

# Building kahve-matchmaking, kahve-table, kahve-rating and kahve.
build_packages=(
  # toolchain
  g++ cmake ninja-build ccache pkg-config
  # engine
  libprotobuf-dev protobuf-compiler libabsl-dev
  # services
  libgrpc++-dev protobuf-compiler-grpc libpqxx-dev prometheus-cpp-dev libssl-dev
)
# What those binaries load (`objdump -p BINARY | grep NEEDED`); the -dev packages above pull the
# same. libstdc++6, libgcc-s1 and libc6 are in every Debian system already.
runtime_packages=(
  libabsl20220623 libgrpc++1.51 libgrpc29 libprotobuf32 libpqxx-6.4 libpq5
  libprometheus-cpp-core1.0 libprometheus-cpp-pull1.0 libssl3
)
postgres_packages=(postgresql-15)
# Everything else the tests, benchmarks and checks use.
test_packages=(
  git
  # tests and benchmarks (promtool, from prometheus, lints /metrics)
  libgtest-dev libgmock-dev libbenchmark-dev prometheus
  # scripts/fuzz.sh: clang, with libFuzzer and the sanitizer runtimes
  clang libclang-rt-14-dev
  # k8s/check.sh: YAML lint; python3 unpacks its fallback kubectl
  yamllint python3
  # container/smoke.sh: podman with runc (Debian's default crun is not what we test with),
  # mmdebstrap for the base image (no registry needed); uidmap, slirp4netns and fuse-overlayfs
  # are what podman needs when run by a user other than root
  podman runc mmdebstrap uidmap slirp4netns fuse-overlayfs
)

case "${1:-}" in
  "")
    packages=("${build_packages[@]}" "${postgres_packages[@]}" "${test_packages[@]}")
    # k8s/check.sh and examples/node run on Node.js. Debian's nodejs and npm only where no node and
    # npm are installed: Debian's npm conflicts with a Node.js that bundles its own.
    command -v node >/dev/null || packages+=(nodejs)
    command -v npm >/dev/null || packages+=(npm)
    ;;
  --build) packages=("${build_packages[@]}") ;;
  --runtime) packages=("${runtime_packages[@]}") ;;
  --postgres) packages=("${postgres_packages[@]}") ;;
  *)
    echo "usage: install-deps.sh [--build | --runtime | --postgres]" >&2
    exit 2
    ;;
esac

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
