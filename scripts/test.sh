#!/usr/bin/env bash
# Builds ej and runs every test twice: a warnings-as-errors build, then the same suite under
# AddressSanitizer + UndefinedBehaviorSanitizer, then every fuzz target for a bounded time. This is
# what CI runs (.ci/run).
#
# The suites wait far more than they compute (child processes, sshd, Slurm, timeouts: the release
# suite keeps its two cores about a quarter busy), so the next build runs beside each suite at the
# lowest CPU priority: the sanitizer build beside the release suite, the fuzz build beside the
# sanitizer suite. The tests keep the CPU whenever they want it; the builds take what is left.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --test
jobs=$(nproc)
# Line tables only (-g1): sanitizer reports and debuggers still name file and line, and a full build
# compiles in about 30% less time with objects a quarter the size.
debug_info=-g1

phase() { echo "== $1 (at ${SECONDS} s) =="; }

# A build started beside a suite: its output goes to a log, printed only if it fails.
background_pid=
background_log=
start_background_build() {
  background_log=$1
  shift
  # Its own process group (setsid), so that the exit trap stops ninja and the compilers too.
  setsid --wait nice -n 19 "$@" >"$background_log" 2>&1 &
  background_pid=$!
}
finish_background_build() {
  local what=$1
  if ! wait "$background_pid"; then
    tail -n 200 "$background_log"
    echo "test.sh: the $what build failed (whole log: $background_log)" >&2
    exit 1
  fi
  background_pid=
}
# A suite that fails ends the script; the build beside it must not outlive it.
trap '[ -z "$background_pid" ] || kill -- "-$background_pid" 2>/dev/null || true' EXIT

configure_asan() {
  cmake -S . -B build/asan -G Ninja -DEJ_WERROR=ON -DEJ_SANITIZE=ON -DEJ_PERF=OFF -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_CXX_FLAGS_DEBUG="$debug_info" >/dev/null
}
configure_fuzz() {
  CXX=clang++ cmake -S . -B build/fuzz -G Ninja -DEJ_WERROR=ON -DEJ_FUZZ=ON -DEJ_TESTS=OFF -DEJ_PERF=OFF \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 $debug_info -DNDEBUG" >/dev/null
}

phase "build (warnings are errors)"
cmake -S . -B build/release -G Ninja -DEJ_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 $debug_info -DNDEBUG" >/dev/null
cmake --build build/release -j "$jobs"

phase "tests (beside them: the AddressSanitizer + UndefinedBehaviorSanitizer build)"
configure_asan
start_background_build build/asan-build.log cmake --build build/asan -j "$jobs"
(cd build/release && ctest --output-on-failure -j "$jobs" --timeout 300)
phase "Debian package (cpack, unpacked into a scratch root)"
scripts/check-deb.sh build/release

phase "finishing the AddressSanitizer + UndefinedBehaviorSanitizer build"
finish_background_build "sanitizer"

phase "tests under sanitizers (beside them: the fuzz targets' build)"
configure_fuzz
start_background_build build/fuzz-build.log cmake --build build/fuzz -j "$jobs" --target ej_fuzzers
(cd build/asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  LSAN_OPTIONS="suppressions=../../tests/lsan.supp" \
  ctest --output-on-failure -j "$jobs" --timeout 600)

phase "fuzz targets (clang, libFuzzer; 12 s each)"
finish_background_build "fuzz"
scripts/fuzz.sh build/fuzz 12 "$jobs"
phase "done"
