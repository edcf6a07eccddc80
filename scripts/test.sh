#!/usr/bin/env bash
# Every test on a fresh Debian 12 machine: install, build everything, run ctest; then the services
# again under AddressSanitizer and UBSan (their service, e2e and abuse tests), then every fuzz
# target for a bounded time on its corpus.
#
# The services' own tests (unit and pg) and the e2e scripts of the service binaries run once, in the
# sanitize build, which checks more: the default build leaves them out (KAHVE_BUILD_SERVICE_TESTS=OFF,
# and ctest skips the e2e scripts the sanitize run repeats) and runs the engine, tools, web tier,
# browser, example and packaging tests. The abuse suite runs in both: its memory bounds are checked
# only outside the sanitizers. `cmake --preset default` builds everything for a developer.
#
# Each ctest run leaves much of the machine idle (browsers, podman and PostgreSQL are mostly
# waited on), so the next build runs beside it at the lowest CPU priority, taking only what the
# tests leave: the sanitize build beside the default tests, the fuzz build beside the sanitize
# tests. Its output is printed when it ends. The sanitize tests run four at a time on the two
# cores: most of them wait on PostgreSQL, gRPC and their own timers (two at a time left the
# machine half idle for minutes).
set -euo pipefail
source "$(dirname "$0")/common.sh"
kahve_install_deps
cd "$kahve_root"
logs="$kahve_root/.kahve/test-logs"
mkdir -p "$logs"

# build_beside PRESET: starts `kahve_build PRESET` niced in the background, its output to a log, in
# a process group of its own (setsid) so that it can be stopped whole.
build_beside() {
  setsid nice -n 19 bash -c "source scripts/common.sh && kahve_build $1" >"$logs/$1-build.log" 2>&1 &
  beside_pid=$!
  beside_preset="$1"
}

# finish_beside: waits for the build started by build_beside, prints its output, fails with it.
finish_beside() {
  local status=0
  wait "$beside_pid" || status=$?
  echo "--- the $beside_preset build, run beside the tests (exit $status) ---"
  cat "$logs/$beside_preset-build.log"
  return "$status"
}

# run_tests_beside CTEST_ARGS...: ctest, then the build beside it; on failing tests the build
# is stopped, not waited for.
run_tests_beside() {
  local status=0
  ctest "$@" || status=$?
  if [ "$status" -ne 0 ]; then
    kill -- "-$beside_pid" 2>/dev/null || true
    return "$status"
  fi
  finish_beside
}

cmake --preset default -DKAHVE_BUILD_SERVICE_TESTS=OFF >/dev/null
cmake --build --preset default
build_beside sanitize
run_tests_beside --preset default -E '^(e2e/|monitoring/metric_names$)'
build_beside fuzz
run_tests_beside --preset sanitize
bash "$kahve_root/scripts/fuzz.sh"
