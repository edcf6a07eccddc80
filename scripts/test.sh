#!/usr/bin/env bash
# Every test on a fresh Debian 12 machine: install, build everything, run ctest.
set -euo pipefail
source "$(dirname "$0")/common.sh"
kahve_install_deps
kahve_build default
cd "$kahve_root"
ctest --preset default
