#!/usr/bin/env bash
# Builds ej and runs every test twice: a warnings-as-errors build, then the same suite under
# AddressSanitizer + UndefinedBehaviorSanitizer, then every fuzz target for a bounded time. This is
# what CI runs (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --test
jobs=$(nproc)
# Line tables only (-g1): sanitizer reports and debuggers still name file and line, and a full build
# compiles in about 30% less time with objects a quarter the size.
debug_info=-g1

echo "== build (warnings are errors) =="
cmake -S . -B build/release -G Ninja -DEJ_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 $debug_info -DNDEBUG" >/dev/null
cmake --build build/release -j "$jobs"
echo "== tests =="
(cd build/release && ctest --output-on-failure -j "$jobs" --timeout 300)
echo "== Debian package (cpack, unpacked into a scratch root) =="
scripts/check-deb.sh build/release

echo "== build with AddressSanitizer + UndefinedBehaviorSanitizer =="
cmake -S . -B build/asan -G Ninja -DEJ_WERROR=ON -DEJ_SANITIZE=ON -DEJ_PERF=OFF -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_CXX_FLAGS_DEBUG="$debug_info" >/dev/null
cmake --build build/asan -j "$jobs"
echo "== tests under sanitizers =="
(cd build/asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  LSAN_OPTIONS="suppressions=../../tests/lsan.supp" \
  ctest --output-on-failure -j "$jobs" --timeout 600)

echo "== fuzz targets (clang, libFuzzer; 12 s each) =="
CXX=clang++ cmake -S . -B build/fuzz -G Ninja -DEJ_WERROR=ON -DEJ_FUZZ=ON -DEJ_TESTS=OFF -DEJ_PERF=OFF \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 $debug_info -DNDEBUG" >/dev/null
cmake --build build/fuzz -j "$jobs" --target ej_fuzzers
scripts/fuzz.sh build/fuzz 12 "$jobs"
