#!/usr/bin/env bash
# ej's own performance work, kept with ej: registers the benchmarks of tests/perf as ej
# benchmarks in this repository's journal (.ej/, not committed), records the attempts of a
# session with their measured figures, and renders journal/ej-performance.md.
#
#   journal/record-session.sh BUILD_DIR      e.g. build/release (with the tests/perf binaries)
#
# Figures measured before the journal existed are recorded with `ej record` (imported, with the
# benchmark output they come from as the source); later ones with `ej run` of the benchmarks.
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(cd "${1:?usage: journal/record-session.sh BUILD_DIR}" && pwd)
ej="$build/ej"
[ -x "$ej" ] || { echo "record-session: $ej is missing; build ej first" >&2; exit 1; }
export NO_COLOR=1

"$ej" init >/dev/null
if ! "$ej" plan show ej-performance >/dev/null 2>&1; then
  "$ej" plan new ej-performance --title "ej's own performance" --doc journal/ej-performance.md \
    --goal "Every command a person types answers in a blink on a journal of 10,000 attempts, runs cost no more than hyperfine, and documents of large plans render fast enough for a pre-commit --check." \
    --target "render_ms < 200"
fi

register() { "$ej" bench show "$1" >/dev/null 2>&1 || "$ej" bench add "$@" >/dev/null; }
register render-1000 --repeat 1 --timeout 600 \
  --metric 'render_ms=regex:ej plan render big +median +([0-9.]+) ms' --unit render_ms=ms \
  --metric 'check_ms=regex:ej plan render big --check +median +([0-9.]+) ms' --unit check_ms=ms \
  -- "$build/tests/perf_render_bench"
register journal-10k --repeat 1 --timeout 600 \
  --metric 'log_ms=regex:ej log -n 50 +median +([0-9.]+) ms' --unit log_ms=ms \
  --metric 'show_ms=regex:ej show [0-9]+ +median +([0-9.]+) ms' --unit show_ms=ms \
  --metric 'why_ms=regex:ej why NCCL_ALGO=Tree +median +([0-9.]+) ms' --unit why_ms=ms \
  --metric 'search_ms=regex:ej search "PCIe latency" +median +([0-9.]+) ms' --unit search_ms=ms \
  --metric 'try_ms=regex:ej try +median +([0-9.]+) ms' --unit try_ms=ms \
  -- "$build/tests/perf_journal_bench"
register run-overhead --repeat 1 --timeout 600 \
  --metric 'ej_ms_per_repeat=regex:ej run +201 repeats [^:]*: +([0-9.]+) ms per repeat' --unit ej_ms_per_repeat=ms \
  --metric 'hyperfine_ms_per_repeat=regex:hyperfine -N +201 runs [^:]*: +([0-9.]+) ms per repeat' \
  --unit hyperfine_ms_per_repeat=ms \
  --metric 'capture_gib_s=regex:ej run +[0-9.]+ s +([0-9.]+) GiB/s' --unit capture_gib_s=GiB/s \
  --better capture_gib_s=higher \
  -- "$build/tests/perf_run_bench"
register compare-10k --repeat 1 --timeout 600 \
  --metric 'compare_ms=regex:ej compare r1 r2 +median +([0-9.]+) ms' --unit compare_ms=ms \
  -- "$build/tests/perf_compare_cli_bench"
echo "record-session: benchmarks registered; record attempts with ej try / ej record / ej run, then:"
echo "  $ej plan render ej-performance"
