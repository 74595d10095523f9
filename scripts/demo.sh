#!/usr/bin/env bash
# Builds ej (Release) and runs a short demo in a scratch git repository: a plan, attempts with
# statuses, reasons and links, then `ej log` and `ej why` — the questions ej exists to answer.
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
echo
echo "The demo journal is in $scratch/.ej (ej was built at $ej)."
