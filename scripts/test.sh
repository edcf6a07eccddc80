#!/usr/bin/env bash
# Every test on a fresh Debian 12 machine: install, build everything, run ctest; then the services
# again under AddressSanitizer and UBSan (their service, e2e and abuse tests), then every fuzz
# target for a bounded time on its corpus.
set -euo pipefail
source "$(dirname "$0")/common.sh"
kahve_install_deps
kahve_build default
cd "$kahve_root"
ctest --preset default
kahve_build sanitize
cd "$kahve_root"
ctest --preset sanitize
bash "$kahve_root/scripts/fuzz.sh"
