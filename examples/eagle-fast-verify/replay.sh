#!/usr/bin/env bash
# Replays the EAGLE-3 "fast verify" campaign (8x RTX PRO 6000 Blackwell, PCIe) into a fresh ej
# journal and renders its plan document, eagle-fast-verify.md, with its chart.
#
#   examples/eagle-fast-verify/replay.sh EJ_BINARY OUT_DIR
#
# Every fact comes from the two write-ups of the campaign; figures ej did not measure are
# recorded with `ej record` and marked as imported from the write-up. The write-ups give no
# dates, so the clock (EJ_NOW) follows an illustrative, fixed timeline; git identities and dates
# are fixed too, so the output is the same byte for byte on every machine.
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: $0 EJ_BINARY OUT_DIR" >&2
  exit 2
fi
if [[ ! -x "$1" ]]; then
  echo "replay.sh: ej binary '$1' is missing or not executable; build it with 'ninja -C build ej'" >&2
  exit 1
fi
EJ="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
mkdir -p "$2"
OUT="$(cd "$2" && pwd)"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/ej-eagle-replay.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
REPO="$WORK/repo"
mkdir -p "$REPO"
cd "$REPO"

export NO_COLOR=1 TZ=UTC LC_ALL=C
export GIT_AUTHOR_NAME="Serving Engineer" GIT_AUTHOR_EMAIL="engineer@example.com"
export GIT_COMMITTER_NAME="Serving Engineer" GIT_COMMITTER_EMAIL="engineer@example.com"
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null

WRITE_UP="the write-ups of the campaign"

# at DATE: the clock for the next ej commands and git commits. Each ej command then gets its own
# minute, so events of one day keep the order of this script.
at() {
  BASE="$(date -u -d "$1" +%s)"
  STEP=0
  export GIT_AUTHOR_DATE="$1" GIT_COMMITTER_DATE="$1"
}
tick() {
  EJ_NOW="$(date -u -d "@$((BASE + STEP * 60))" +%Y-%m-%dT%H:%M:%SZ)"
  export EJ_NOW
  STEP=$((STEP + 1))
}
ej() {
  tick
  "$EJ" "$@"
}
# commit FILE CONTENT MESSAGE: one deterministic commit in the scratch repository.
commit() {
  mkdir -p "$(dirname "$1")"
  printf '%s\n' "$2" >"$1"
  git add "$1"
  git commit -q -m "$3"
}
# record ARGS...: `ej record`, printing nothing; the run's number goes to $RUN.
record() {
  local printed
  tick
  printed="$("$EJ" record "$@")"
  RUN="${printed#run \#}"
  RUN="${RUN%%[!0-9]*}"
}
# try ARGS...: `ej try`, printing nothing; the attempt's number goes to $N.
try() {
  local printed
  tick
  printed="$("$EJ" try "$@")"
  N="${printed#\#}"
  N="${N%%[!0-9]*}"
}

# --- Day 1: the diagnosis. The verify pass costs ~30 ms; speculation loses to plain decoding.
at 2026-01-12T09:00:00Z
git init -q -b main .
commit serving/README.md "SGLang serving of the target model with EAGLE-3 speculative decoding on 8x RTX PRO 6000 Blackwell (PCIe), CUDA 12.8." \
  "Serving setup on the CUDA 12.8 stack"
ej init >/dev/null
ej plan new eagle-fast-verify --title "EAGLE-3 fast verify" --doc eagle-fast-verify.md \
  --goal "Make EAGLE-3 speculative decoding beat plain decoding on 8x RTX PRO 6000 Blackwell GPUs connected by PCIe, by cutting the cost of the verify pass (~30 ms per invocation, dominated by the NCCL all-reduce across the 8 GPUs)." \
  --target "verify_ms < 15" >/dev/null
ej bench add bench-serving \
  --metric 'tok_s=kv:Output token throughput (tok/s)' --unit tok_s=tok/s --better tok_s=higher \
  --metric 'verify_ms=regex:verify[^0-9]*([0-9.]+) ms@sglang-server.log' --unit verify_ms=ms --better verify_ms=lower \
  --primary tok_s \
  -- python3 -m sglang.bench_serving --backend sglang >/dev/null

at 2026-01-12T10:00:00Z
try "No speculation (reference server)" --plan eagle-fast-verify --tag reference \
  --hypothesis "Plain decoding on the same server is the bar that EAGLE-3 has to beat."
REFERENCE=$N
record "$REFERENCE" --bench bench-serving --metric tok_s=89.5 --when 2026-01-12T10:30:00 \
  --source "$WRITE_UP" --label "CUDA 12.8, no speculation"
ej plan baseline eagle-fast-verify --run "$RUN" --reason "plain decoding on the CUDA 12.8 stack" >/dev/null
ej status "$REFERENCE" adopted --reason "the reference every speculative run is compared against" >/dev/null

at 2026-01-12T14:00:00Z
try "EAGLE-3 speculative decoding" --plan eagle-fast-verify --tag speculative \
  --hypothesis "The EAGLE-3 drafter proposes tokens that one verify pass of the full model checks, so decoding needs fewer full passes."
EAGLE=$N
record "$EAGLE" --bench bench-serving --metric tok_s=54.1 --metric verify_ms=30 --when 2026-01-12T14:30:00 \
  --source "$WRITE_UP (verify pass approximately 30 ms)" --label "CUDA 12.8, EAGLE-3"
ej note "$EAGLE" "Break-even: the verify pass must take under ~15 ms for speculation to beat the baseline; at ~30 ms it is a net negative." >/dev/null
ej note "$EAGLE" "The NCCL all-reduce across the 8 PCIe-connected GPUs is the main part of the verify pass." >/dev/null
ej status "$EAGLE" rejected --reason "net negative: 54.1 tok/s, 40% slower than the 89.5 tok/s baseline, because the verify pass takes ~30 ms" >/dev/null

# --- Days 2-3: the communication options (segment 34 of the session).
at 2026-01-13T09:00:00Z
try "CUDA 12.8 -> 13.0 upgrade" --plan eagle-fast-verify --tag toolchain \
  --hypothesis "The SM120 (Blackwell) code paths that FlashInfer allreduce fusion and Torch symmetric memory need exist only in CUDA 13 builds; upgrading would unblock both. Risky, the last resort: PyTorch, sgl-kernel, FlashInfer and SGLang were stabilised on CUDA 12.8 after days of ABI fixes."
UPGRADE=$N

at 2026-01-13T10:00:00Z
try "FlashInfer allreduce fusion" --plan eagle-fast-verify --tag allreduce --tag flashinfer --blocked-by "$UPGRADE" \
  --hypothesis "Fusing the all-reduce communication into the attention kernel cuts the PCIe overhead of the verify pass."
FUSION=$N
ej status "$FUSION" blocked --reason "the CUDA 12.8 build of FlashInfer has no SM120 (Blackwell) code path for the fusion" >/dev/null

at 2026-01-13T15:00:00Z
try "NCCL_ALGO=Tree" --plan eagle-fast-verify --tag nccl --tag allreduce \
  --hypothesis "NCCL's Tree algorithm makes the all-reduce of the verify pass cheaper than the default on 8 PCIe GPUs."
TREE=$N
ej status "$TREE" rejected --reason "crashed" >/dev/null

at 2026-01-14T10:00:00Z
try "Custom allreduce kernels" --plan eagle-fast-verify --tag allreduce \
  --hypothesis "Custom allreduce kernels make the all-reduce of the verify pass cheaper than NCCL."
CUSTOM=$N
ej status "$CUSTOM" rejected --reason "did not move the verify cost" >/dev/null

# --- Days 4-5: memory, parallelism and CUDA graphs (segment 35).
at 2026-01-15T10:00:00Z
try "Torch symmetric memory" --plan eagle-fast-verify --tag allreduce --tag torch --blocked-by "$UPGRADE" \
  --hypothesis "Blackwell-native symmetric memory makes the all-reduce of the verify pass cheaper."
SYMM=$N
ej status "$SYMM" blocked --reason "failed: Torch symmetric memory is a CUDA 13+ feature and the stack is on CUDA 12.8" >/dev/null

at 2026-01-15T15:00:00Z
try "Expert parallelism" --plan eagle-fast-verify --tag parallelism \
  --hypothesis "Expert parallelism replaces part of the all-reduce traffic of the verify pass."
EP=$N
ej status "$EP" rejected --reason "failed; did not move the verify cost" >/dev/null

at 2026-01-16T10:00:00Z
try "Smaller cuda-graph-max-bs" --plan eagle-fast-verify --tag cuda-graph \
  --hypothesis "A smaller cuda-graph-max-bs speeds up decoding."
GRAPH=$N
ej status "$GRAPH" rejected --reason "worked, +9% baseline throughput, but did not touch the verify cost: not enough for speculation to break even" >/dev/null

# --- Days 8-9: the CUDA 13 upgrade (segment 36), once every other option was spent.
at 2026-01-19T09:00:00Z
ej note "$UPGRADE" "Driver 590.48.01 already supports CUDA 13.1 (nvidia-smi): only the toolkit changes, no driver upgrade." >/dev/null
ej note "$UPGRADE" "Stack: PyTorch nightly 2.11.0.dev+cu130, pre-built sgl-kernel 0.3.21+cu130 wheels (not built from source), flashinfer-python 0.6.4 from PyPI, SGLang v0.5.9." >/dev/null
at 2026-01-19T10:00:00Z
ej note "$UPGRADE" "No CUDA 13.0.2 runfile at the 13.0.1 URL pattern (wget exit 8); 13.0.1 it is, the ecosystem targets cu130 generically." >/dev/null
ej attempt edit "$UPGRADE" --command 'nohup wget -q "https://developer.download.nvidia.com/compute/cuda/13.0.1/local_installers/cuda_13.0.1_580.82.07_linux.run" -O /data/cuda_13.0.1_580.82.07_linux.run &' >/dev/null
ej status "$UPGRADE" running --reason "7.0 TB free on /data; package list backed up; downloading the CUDA 13.0.1 runfile (toolkit only)" >/dev/null

at 2026-01-20T12:00:00Z
commit serving/requirements-cu130.txt "$(printf '%s\n' 'torch==2.11.0.dev+cu130' 'sgl-kernel==0.3.21+cu130' 'flashinfer-python==0.6.4' 'sglang==0.5.9')" \
  "Move the serving stack to CUDA 13.0.1 (cu130 wheels)"
ej status "$UPGRADE" adopted --reason "CUDA 13.0.1 toolkit installed next to 12.8 with the cu130 stack; the driver was kept" >/dev/null

at 2026-01-20T15:00:00Z
try "FlashInfer attention backend" --plan eagle-fast-verify --tag flashinfer --tag attention --supersedes "$REFERENCE" \
  --hypothesis "On the CUDA 13 stack, the FlashInfer attention backend is faster than the previous one for plain decoding."
BACKEND=$N
record "$BACKEND" --bench bench-serving --metric tok_s=92.6 --when 2026-01-20T15:30:00 \
  --source "$WRITE_UP" --label "CUDA 13.0.1, FlashInfer attention, no speculation"
ej plan baseline eagle-fast-verify --run "$RUN" --reason "CUDA 13.0.1 stack with the FlashInfer attention backend: +3.5% without speculation" >/dev/null
ej status "$BACKEND" adopted --reason "plain decoding 89.5 -> 92.6 tok/s (+3.5%): the new baseline" >/dev/null
ej status "$REFERENCE" superseded --reason "the CUDA 13 stack with the FlashInfer attention backend is the new reference" >/dev/null

# --- Days 10-11: the two blocked options, tried again on CUDA 13.
at 2026-01-21T10:00:00Z
commit serving/patches/README.md "SGLang patches: torch_symm_mem and kimi_k25.py recognise SM120 (Blackwell)." \
  "Patch SGLang to recognise SM120 in torch_symm_mem and kimi_k25.py"
try "FlashInfer allreduce fusion on CUDA 13" --plan eagle-fast-verify --tag allreduce --tag flashinfer --retry-of "$FUSION" \
  --hypothesis "The CUDA 13 build of FlashInfer has the SM120 fusion path, so the fusion now runs and cuts the verify pass."
FUSION13=$N
ej note "$FUSION13" "Needed SGLang's torch_symm_mem and kimi_k25.py patched to recognise SM120." >/dev/null
record "$FUSION13" --bench bench-serving --metric tok_s=96.1 --when 2026-01-21T14:00:00 \
  --source "$WRITE_UP" --label "CUDA 13.0.1, EAGLE-3 with FlashInfer allreduce fusion"
ej status "$FUSION13" adopted --reason "slashed the verify pass: EAGLE-3 54.1 -> 96.1 tok/s (+77.6%), 3.8% faster than the 92.6 tok/s baseline" >/dev/null

at 2026-01-22T10:00:00Z
try "Torch symmetric memory on CUDA 13" --plan eagle-fast-verify --tag allreduce --tag torch --retry-of "$SYMM" \
  --hypothesis "With CUDA 13 and SGLang patched for SM120, Torch symmetric memory works on Blackwell."
SYMM13=$N
ej status "$SYMM13" adopted --reason "works on SM120 once SGLang's torch_symm_mem recognises it" >/dev/null

# --- The document: render, add the author's prose outside the generated regions, render again.
at 2026-01-22T18:00:00Z
ej plan render eagle-fast-verify >/dev/null
cat >"$WORK/prose.md" <<'PROSE'
EAGLE-3 speculative decoding on 8x RTX PRO 6000 Blackwell GPUs (PCIe) lost to plain decoding:
every verify pass of the full model cost ~30 ms, most of it the NCCL all-reduce across the
eight GPUs, and speculation only pays when the verify pass takes under ~15 ms. The
communication options were tried one by one; two of them needed the SM120 (Blackwell) code
paths that only the CUDA 13 builds have, and the CUDA 12.8 -> 13.0 upgrade, the last resort,
unblocked both.

This document was replayed from the write-ups of the campaign by
`examples/eagle-fast-verify/replay.sh`: the figures are the write-ups' (imported, not measured
by ej) and so is the order of events; the write-ups give no dates, so the dates here are
illustrative.
PROSE
awk -v prose="$WORK/prose.md" '
  { print }
  /^<!-- ej:end title( hash=[0-9a-f]+)? -->$/ && !done { print ""; while ((getline line < prose) > 0) print line; done = 1 }
' eagle-fast-verify.md >"$WORK/with-prose.md"
mv "$WORK/with-prose.md" eagle-fast-verify.md
ej plan render eagle-fast-verify >/dev/null
grep -q "the dates here are" eagle-fast-verify.md || {
  echo "replay.sh: the author's prose did not survive the second render" >&2
  exit 1
}

cp eagle-fast-verify.md eagle-fast-verify.svg "$OUT/"
echo "wrote $OUT/eagle-fast-verify.md and $OUT/eagle-fast-verify.svg"
