#!/usr/bin/env bash
# Every test of the build carries one of the five labels (tests/CMakeLists.txt; `browser` is the
# web client's suite in a real browser, web/app), so `ctest -L` with the five together selects the
# whole suite: names each test that carries none.
# Usage: check_labels.sh BUILD_DIR
set -euo pipefail
listing="$(ctest --test-dir "$1" -N -LE '^(unit|pg|e2e|packaging|browser)$')"
unlabelled="$(sed -n 's/^ *Test *#[0-9]*: //p' <<<"$listing")"
if [ -n "$unlabelled" ]; then
  echo "tests without a unit, pg, e2e, packaging or browser label:"
  echo "$unlabelled"
  exit 1
fi
total="$(ctest --test-dir "$1" -N | sed -n 's/^Total Tests: //p')"
[ "${total:-0}" -gt 0 ] || { echo "ctest lists no test in $1"; exit 1; }
echo "all $total tests carry a label"
