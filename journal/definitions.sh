# shellcheck shell=bash
# The plan of ej's own performance work and the tests/perf benchmarks as ej benchmarks, defined
# once for record-session.sh and replay.sh (which source this file).
#
#   create_plan EJ                    the plan ej-performance, unless it exists
#   register_benchmarks EJ PERF_DIR   PERF_DIR holds the perf_* binaries (build/release/tests)
#
# A benchmark already registered is left as it is (editing one makes a new revision).
create_plan() {
  local ej="$1"
  "$ej" plan show ej-performance >/dev/null 2>&1 && return
  "$ej" plan new ej-performance --title "ej's own performance" --doc journal/ej-performance.md \
    --goal "Every command a person types answers in a blink on a journal of 10,000 attempts, runs cost no more than hyperfine, and documents of large plans render fast enough for a pre-commit --check." \
    --target "render_ms < 200" >/dev/null
}

register_benchmarks() {
  local ej="$1" perf="$2"
  register() { "$ej" bench show "$1" >/dev/null 2>&1 || "$ej" bench add "$@" >/dev/null; }
  register render-1000 --repeat 1 --timeout 600 \
    --metric 'render_ms=regex:ej plan render big +median +([0-9.]+) ms' --unit render_ms=ms \
    --metric 'check_ms=regex:ej plan render big --check +median +([0-9.]+) ms' --unit check_ms=ms \
    -- "$perf/perf_render_bench"
  register render-large --repeat 1 --timeout 900 \
    --metric 'render_ms=regex:ej plan render big +median +([0-9.]+) ms' --unit render_ms=ms \
    --metric 'rss_mb=regex:ej plan render big +median [^)]*\) +peak RSS +([0-9.]+) MB' --unit rss_mb=MB \
    -- "$perf/perf_render_bench" --large
  register journal-10k --repeat 1 --timeout 600 \
    --metric 'log_ms=regex:ej log -n 50 +median +([0-9.]+) ms' --unit log_ms=ms \
    --metric 'show_ms=regex:ej show [0-9]+ +median +([0-9.]+) ms' --unit show_ms=ms \
    --metric 'why_ms=regex:ej why NCCL_ALGO=Tree +median +([0-9.]+) ms' --unit why_ms=ms \
    --metric 'search_ms=regex:ej search "PCIe latency" +median +([0-9.]+) ms' --unit search_ms=ms \
    --metric 'try_ms=regex:ej try +median +([0-9.]+) ms' --unit try_ms=ms \
    -- "$perf/perf_journal_bench"
  register plan-listing --repeat 1 --timeout 900 \
    --metric 'log_ms=regex:ej log -n 50 +median +([0-9.]+) ms' --unit log_ms=ms \
    --metric 'judged_ms=regex:ej log -n 50 \(judged now\) +median +([0-9.]+) ms' --unit judged_ms=ms \
    -- "$perf/perf_render_bench" --large
  register run-overhead --repeat 1 --timeout 600 \
    --metric 'ej_ms_per_repeat=regex:ej run +[0-9]+ repeats [^:]*: +([0-9.]+) ms per repeat' --unit ej_ms_per_repeat=ms \
    --metric 'hyperfine_ms_per_repeat=regex:hyperfine -N +[0-9]+ runs [^:]*: +([0-9.]+) ms per repeat' \
    --unit hyperfine_ms_per_repeat=ms \
    --metric 'capture_gib_s=regex:ej run +[0-9.]+ s +([0-9.]+) GiB/s' --unit capture_gib_s=GiB/s \
    --better capture_gib_s=higher \
    -- "$perf/perf_run_bench"
  # The repeat cost of two code states in one session: each side builds ej and the bench from its
  # own code state (ej run run-overhead-built --against REV). An ej older than nested runs (before
  # 85291fc) needs --env EJ_GPU_LOCK_DIR=/tmp/ej-inner-locks: it would wait for the outer run's GPUs.
  register run-overhead-built --repeat 8 --timeout 900 \
    --build 'cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" >/dev/null && cmake --build build --target ej perf_run_bench >/dev/null' \
    --metric 'ej_ms_per_repeat=regex:ej run +[0-9]+ repeats [^:]*: +([0-9.]+) ms per repeat' --unit ej_ms_per_repeat=ms \
    --metric 'hyperfine_ms_per_repeat=regex:hyperfine -N +[0-9]+ runs [^:]*: +([0-9.]+) ms per repeat' \
    --unit hyperfine_ms_per_repeat=ms \
    -- build/tests/perf_run_bench
  register compare-10k --repeat 1 --timeout 600 \
    --metric 'compare_ms=regex:ej compare r1 r2 +median +([0-9.]+) ms' --unit compare_ms=ms \
    -- "$perf/perf_compare_cli_bench"
}
