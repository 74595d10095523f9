#!/bin/sh
# Stand-in for `python3 -m sglang.bench_serving --backend sglang --max-concurrency C` against the
# server that serving/server.env describes: prints bench_serving's summary with the output
# throughput the write-ups report for that configuration (89.5 and 92.6 tok/s without
# speculation, 54.1 and 96.1 tok/s with EAGLE-3, at one request at a time) and illustrative ones
# elsewhere. Each repeat varies by a few per mille, the same way every run, so that ej's
# statistics have something to test and the median is the figure itself.
#
#   sh serving/bench_serving.sh CONCURRENCY
set -eu
c="$1"
. "$(dirname "$0")/server.env"
: "${CUDA_GRAPH_MAX_BS:=}"
state="${EAGLE_STATE:?EAGLE_STATE names where repeats are counted}"
n=$(cat "$state/serve-$c" 2>/dev/null || echo 0)
echo $((n + 1)) >"$state/serve-$c"

# Output throughput at concurrency 1, 2, 4, 8.
speculate="$SPECULATIVE"
if [ "$POLICY" = load-aware ] && [ "$c" -gt 2 ]; then
  speculate=none # the load-aware policy decodes plainly above concurrency 2
fi
case "$CUDA/$speculate/$ALLREDUCE" in
  12.8/none/*) set -- 89.5 170.1 320.4 580.2 ;;
  13.0/none/*) set -- 92.6 176.0 331.5 600.3 ;;
  12.8/eagle3/*) set -- 54.1 98.0 170.2 290.5 ;;
  13.0/eagle3/fusion) set -- 96.1 181.3 331.2 540.6 ;;
  13.0/eagle3/symm-mem) set -- 95.0 179.2 325.0 535.0 ;;
  *) echo "bench_serving: no server for $CUDA/$speculate/$ALLREDUCE" >&2; exit 1 ;;
esac
case "$c" in
  1) tok_s=$1 ;; 2) tok_s=$2 ;; 4) tok_s=$3 ;; 8) tok_s=$4 ;;
  *) echo "bench_serving: no figure at concurrency $c" >&2; exit 1 ;;
esac

awk -v c="$c" -v tok_s="$tok_s" -v n="$n" 'BEGIN {
  split("1.000 0.998 1.002 0.999 1.001", jitter, " ")
  out = tok_s * jitter[n % 5 + 1]
  requests = 64; output_tokens = requests * 256; input_tokens = requests * 1024
  duration = output_tokens / out
  ttft = 180 * (1 + (c - 1) * 0.15) / jitter[n % 5 + 1]
  itl = 1000 * c / out
  print "============ Serving Benchmark Result ============"
  printf "%-41s%s\n", "Backend:", "sglang"
  printf "%-41s%s\n", "Traffic request rate:", "inf"
  printf "%-41s%d\n", "Max request concurrency:", c
  printf "%-41s%d\n", "Successful requests:", requests
  printf "%-41s%.2f\n", "Benchmark duration (s):", duration
  printf "%-41s%d\n", "Total input tokens:", input_tokens
  printf "%-41s%d\n", "Total generated tokens:", output_tokens
  printf "%-41s%.2f\n", "Request throughput (req/s):", requests / duration
  printf "%-41s%.2f\n", "Input token throughput (tok/s):", input_tokens / duration
  printf "%-41s%.2f\n", "Output token throughput (tok/s):", out
  printf "%-41s%.2f\n", "Total token throughput (tok/s):", (input_tokens + output_tokens) / duration
  printf "%-41s%.2f\n", "Concurrency:", c
  print "---------------Time to First Token----------------"
  printf "%-41s%.2f\n", "Mean TTFT (ms):", ttft * 1.05
  printf "%-41s%.2f\n", "Median TTFT (ms):", ttft
  printf "%-41s%.2f\n", "P99 TTFT (ms):", ttft * 1.6
  print "---------------Inter-Token Latency----------------"
  printf "%-41s%.2f\n", "Mean ITL (ms):", itl * 1.02
  printf "%-41s%.2f\n", "Median ITL (ms):", itl
  printf "%-41s%.2f\n", "P99 ITL (ms):", itl * 1.8
  print "=================================================="
}'
