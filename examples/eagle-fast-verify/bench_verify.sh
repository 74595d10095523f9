#!/bin/sh
# Stand-in for the timer of EAGLE-3's verify pass (one forward pass of the full model over the
# drafted tokens) on the server that serving/server.env describes: ~30 ms on the CUDA 12.8 stack,
# as the write-ups say, and illustrative figures for the options tried. NCCL_ALGO=Tree crashes,
# as it did. Each repeat varies by a few per mille, the same way every run.
#
#   sh serving/bench_verify.sh
set -eu
. "$(dirname "$0")/server.env"
: "${CUDA_GRAPH_MAX_BS:=}"
state="${EAGLE_STATE:?EAGLE_STATE names where repeats are counted}"
n=$(cat "$state/verify" 2>/dev/null || echo 0)
echo $((n + 1)) >"$state/verify"

if [ "$SPECULATIVE" != eagle3 ]; then
  echo "bench_verify: the server does not speculate: no verify pass to time" >&2
  exit 1
fi
case "$CUDA/$ALLREDUCE" in
  12.8/nccl) ms=30.0; [ -n "$CUDA_GRAPH_MAX_BS" ] && ms=30.1 ;;
  12.8/custom) ms=29.6 ;;
  12.8/tree)
    echo "NCCL WARN Tree algorithm on 8 GPUs without NVLink: invalid topology" >&2
    echo "Segmentation fault (core dumped)" >&2
    exit 139 ;;
  13.0/fusion) ms=12.5 ;;
  13.0/symm-mem) ms=16.2 ;;
  *) echo "bench_verify: no server for $CUDA/$ALLREDUCE" >&2; exit 1 ;;
esac
awk -v ms="$ms" -v n="$n" 'BEGIN {
  split("1.000 0.998 1.002 0.999 1.001", jitter, " ")
  print "[verify] target model, tensor parallel 8, EAGLE-3 draft of 4 tokens, 200 steps"
  printf "verify pass: %.2f ms (median of 200 steps)\n", ms * jitter[n % 5 + 1]
}'
