#!/usr/bin/env bash
# Builds ej (Release) and runs a short demo in a scratch git repository: a plan, attempts with
# statuses, reasons and links, `ej log` and `ej why` — the questions ej exists to answer — then the
# CPU example benchmark run under two attempts, compared, judged and rendered into a document.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
scripts/install-deps.sh
cmake -S . -B build/demo -G Ninja -DCMAKE_BUILD_TYPE=Release -DEJ_TESTS=OFF >/dev/null
cmake --build build/demo -j "$(nproc)"
ej="$root/build/demo/ej"

scratch=$(mktemp -d "${TMPDIR:-/tmp}/ej-demo-XXXXXX")
cd "$scratch"
git init -q -b main
git config user.name "ej demo"
git config user.email "ej-demo@example.invalid"
echo "// the code being tuned" > kernels.cu
git add kernels.cu && git commit -qm "baseline"

step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; "$@"; }

step "$ej" init
step "$ej" plan new eagle-fast-verify --title "EAGLE-3 speculative decoding: a fast verify pass" \
  --goal "Make the verify pass cheap enough that speculation beats the baseline" --target "verify_ms < 15"
step "$ej" try "CUDA 13 upgrade" --plan eagle-fast-verify --tag toolkit \
  --hypothesis "SM120 kernels in FlashInfer and torch need the CUDA 13 builds"
step "$ej" try "FlashInfer allreduce fusion" --plan eagle-fast-verify --tag allreduce --blocked-by 1 \
  --hypothesis "fusing allreduce with RMSNorm removes a PCIe round trip per layer"
step "$ej" status 2 blocked --reason "needs SM120 kernels that only the CUDA 13 build of FlashInfer has"
step "$ej" try "NCCL_ALGO=Tree" --plan eagle-fast-verify --tag nccl --command "NCCL_ALGO=Tree ./bench_serving.sh"
step "$ej" status 3 rejected --reason "no gain on PCIe: verify stays at ~30 ms, Ring and Tree within noise"
step "$ej" note 3 "measured at concurrency 1 and 8"
echo "// fused allreduce + rmsnorm" >> kernels.cu
step "$ej" try "smaller cuda-graph-max-bs" --plan eagle-fast-verify --tag cuda-graph
step "$ej" status 4 adopted --reason "baseline 89.5 -> 97.5 tok/s (+9%); verify cost unchanged"
step "$ej" status 1 adopted --reason "baseline 89.5 -> 92.6 tok/s; unblocks fusion and symmetric memory"
step "$ej" log
step "$ej" why "NCCL_ALGO=Tree"
step "$ej" why 2
step "$ej" show 4 --diff

# ej runs the benchmarks itself: the CPU example at two sizes, under the naive attempt and then
# with the blocked kernel switched on (what the second attempt changes), judged size by size
# against the baseline with real statistics.
cpu_bench="$root/build/demo/examples/cpu-bench/ej-example-cpu"
step "$ej" plan new transpose --title "Matrix transpose on the CPU" --target "time_ms < 50"
step "$ej" bench add transpose --param size=1024,2048 --warmup 1 --repeat 10 \
  --metric 'time_ms=regex:time_ms=([0-9.]+)' --unit time_ms=ms --better time_ms=lower \
  --metric 'throughput_gbs=regex:throughput_gbs=([0-9.]+)' --unit throughput_gbs=GB/s --better throughput_gbs=higher \
  --shell "'$cpu_bench' --variant \"\${TRANSPOSE_VARIANT:-naive}\" --size {size}"
step "$ej" try "naive transpose" --plan transpose --tag baseline
step "$ej" try "16x16 blocked transpose" --plan transpose --hypothesis "tiles keep both rows in cache"
step "$ej" run transpose --attempt 5 --quiet
step "$ej" run transpose --attempt 6 --env TRANSPOSE_VARIANT=blocked --quiet
step "$ej" plan baseline transpose --run 1
step "$ej" compare r1 r2
step "$ej" judge 6 --apply
step "$ej" runs
step "$ej" env show 2
step "$ej" plan render transpose
sed -n '/ej:begin summary/,/ej:end summary/p' journal/transpose.md
echo
echo "The demo journal is in $scratch/.git/ej, its plan document in $scratch/journal/transpose.md"
echo "(ej was built at $ej)."
