#!/usr/bin/env bash
# Every test on a fresh Debian 12 machine: install, build everything, run ctest; then the services
# again under AddressSanitizer and UBSan (their service, e2e and abuse tests), then every fuzz
# target for a bounded time on its corpus.
#
# The services' own tests (unit and pg), the abuse suite and the e2e scripts of the service binaries
# run once, in the sanitize build, which checks more: the default build leaves them out
# (KAHVE_BUILD_SERVICE_TESTS=OFF, and ctest skips the e2e scripts the sanitize run repeats) and runs
# the engine, tools, web tier, browser, example and packaging tests. That halves what CI compiles
# and runs twice. `cmake --preset default` builds them again for a developer.
set -euo pipefail
source "$(dirname "$0")/common.sh"
kahve_install_deps
cd "$kahve_root"
cmake --preset default -DKAHVE_BUILD_SERVICE_TESTS=OFF >/dev/null
cmake --build --preset default
ctest --preset default -E '^(e2e/|monitoring/metric_names$)'
kahve_build sanitize
cd "$kahve_root"
ctest --preset sanitize
bash "$kahve_root/scripts/fuzz.sh"
