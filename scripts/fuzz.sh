#!/usr/bin/env bash
# Builds the libFuzzer targets (the fuzz preset) and runs each on its seed corpus
# (tests/fuzz/corpus/<target>/) for a bounded time; exits non-zero on any finding, whose input is
# kept in build-fuzz/fuzz-findings/. Inputs the fuzzer adds go to a scratch folder, never into the
# repository's corpus. docs/operations.md, "Fuzzing".
#
# Usage: fuzz.sh [SECONDS_PER_TARGET [TARGET...]]
#   SECONDS_PER_TARGET  default: $KAHVE_FUZZ_SECONDS, else 20
#   TARGET...           default: every target the build lists
#   KAHVE_FUZZ_JOBS     targets run at once (default 2, the machine's cores)
set -euo pipefail
source "$(dirname "$0")/common.sh"

seconds="${1:-${KAHVE_FUZZ_SECONDS:-20}}"
[ "$#" -gt 0 ] && shift
jobs="${KAHVE_FUZZ_JOBS:-2}"

kahve_build fuzz
build="$kahve_root/build-fuzz/tests/fuzz"
if [ "$#" -gt 0 ]; then
  targets=("$@")
else
  mapfile -t targets <"$build/fuzz_targets.txt"
fi

findings="$kahve_root/build-fuzz/fuzz-findings"
mkdir -p "$findings"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
# Stack traces for UBSan too; any report ends the run, so libFuzzer keeps the input.
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
# ASan holds freed memory back for 10 MB of later frees, as OSS-Fuzz runs every fuzzer, not the
# default 256 MB: cycling through 256 MB made most allocations fault in fresh pages (a third of
# each run). 10 MB is many moves' worth, so a use after free is still caught.
export ASAN_OPTIONS="quarantine_size_mb=10${ASAN_OPTIONS:+:$ASAN_OPTIONS}"

# run_target TARGET: fuzzes into a scratch folder (first: libFuzzer writes new inputs there),
# reading the repository's corpus; its log and exit status stay in the scratch folder.
# -entropic=0: the entropic schedule's per-feature bookkeeping took half of each run of an engine
# target (tens of thousands of features an input); in runs this short the plain schedule tried
# up to 5 times more inputs for the same coverage. Runs by hand keep libFuzzer's default.
run_target() {
  local target="$1" status=0
  mkdir -p "$scratch/$target"
  "$build/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
    -entropic=0 -print_final_stats=1 -artifact_prefix="$findings/$target-" \
    "$scratch/$target" "$kahve_root/tests/fuzz/corpus/$target" >"$scratch/$target.log" 2>&1 ||
    status=$?
  echo "$status" >"$scratch/$target.status"
}

# summarize TARGET: one line; on a finding also the report, and the log kept beside the input.
summarize() {
  local target="$1" log="$scratch/$1.log" status
  status="$(cat "$scratch/$target.status")"
  if [ "$status" -eq 0 ]; then
    local runs rate seeds cov ft
    runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")"
    rate="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")"
    # Runs until the seed corpus was read (INITED); the rest are mutated inputs.
    seeds="$(sed -n 's/^#\([0-9]*\)[[:space:]]*INITED.*/\1/p' "$log")"
    read -r cov ft < <(sed -n 's/.*DONE .*cov: \([0-9]*\) ft: \([0-9]*\).*/\1 \2/p' "$log")
    printf 'fuzz: %-22s ok  %8s runs (%s/s), %s mutated  cov %s  ft %s\n' "$target" "$runs" \
      "$rate" "$((runs - ${seeds:-$runs}))" "$cov" "$ft"
    return 0
  fi
  cp "$log" "$findings/$target.log"
  printf 'fuzz: %-22s FINDING (exit %s); input and log in %s\n' "$target" "$status" "$findings"
  grep -E -A30 'ERROR|runtime error|check failed|deadly signal' "$log" | head -60 >&2 || true
  return 1
}

echo "fuzz: ${#targets[@]} targets, ${seconds} s each, ${jobs} at a time"
# At most $jobs targets at once.
for target in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  run_target "$target" &
done
wait

failed=0
for target in "${targets[@]}"; do summarize "$target" || failed=1; done
exit "$failed"
