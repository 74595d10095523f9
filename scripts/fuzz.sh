#!/usr/bin/env bash
# Runs every fuzz target of a build configured with -DEJ_FUZZ=ON for a bounded time, on its seed
# corpus (tests/fuzz/corpus/<target>/, left unchanged: new inputs go to a scratch directory).
# Fails when any target finds a crash, a hang or a sanitizer report; the input that did it is
# left in BUILD/fuzz-artifacts/ (add it to the corpus with the fix).
# Usage: scripts/fuzz.sh BUILD_DIR [SECONDS_EACH] [PARALLEL]
set -euo pipefail
cd "$(dirname "$0")/.."
build=$1
seconds=${2:-20}
parallel=${3:-1}
artifacts="$build/fuzz-artifacts"
scratch="$build/fuzz-scratch"
mkdir -p "$artifacts"
rm -rf "$scratch"

run_one() {
  local target=$1
  mkdir -p "$scratch/$target"
  if ! ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$build/fuzz_$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
      -print_final_stats=1 -artifact_prefix="$artifacts/$target-" \
      "$scratch/$target" "tests/fuzz/corpus/$target" >"$scratch/$target.log" 2>&1; then
    tail -n 60 "$scratch/$target.log"
    echo "fuzz: $target FAILED; the input is in $artifacts/" >&2
    return 1
  fi
  echo "fuzz: $target ok ($(grep -a -o 'stat::number_of_executed_units: *[0-9]*' "$scratch/$target.log" | grep -o '[0-9]*$') runs)"
}
export -f run_one
export build seconds artifacts scratch

ls tests/fuzz/corpus | xargs -P "$parallel" -I{} bash -c 'run_one {}'
