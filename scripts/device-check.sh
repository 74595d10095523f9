#!/usr/bin/env bash
# Checks ej's CUDA example on a machine with an NVIDIA GPU (written for one H200), in one go:
# installs missing packages, builds into build-device/, shows nvidia-smi, runs ej-example-cuda
# (both variants, a few sizes), the e2e tests of the examples, and ej itself on the examples:
# both variants under `ej run` with the GPUs read during every repeat (NVML, every 20 ms), then
# with the clocks locked (when root), compared, judged, the environment shown and diffed; the
# JSON of runs, repeats' device state, comparisons and environments goes to $OUT.
# Run it once from the repository root. Everything it prints is also written to
# "$OUT/device-check.log" when OUT is set. Exits non-zero if any step failed; later steps still run.
set -uo pipefail

if [ -n "${OUT:-}" ]; then
  mkdir -p "$OUT"
  exec > >(tee -a "$OUT/device-check.log") 2>&1
fi

build="build-device"
failures=()
step() { printf '\n=== %s\n' "$*"; }
# Runs a command, echoing it first; a failure is recorded, not fatal.
check() {
  printf '$ %s\n' "$*"
  "$@"
  local rc=$?
  if [ $rc -ne 0 ]; then
    printf '>>> FAILED (exit %d): %s\n' "$rc" "$*"
    failures+=("$*")
  fi
  return $rc
}

step "machine"
date -u +%Y-%m-%dT%H:%M:%SZ
uname -a
nproc
export PATH="$PATH:/usr/local/cuda/bin"
command -v nvcc >/dev/null && nvcc --version | tail -2

step "nvidia-smi"
check nvidia-smi
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv

step "dependencies"
# Without network access apt-get fails; the build below may still work with what is installed.
check scripts/install-deps.sh || echo "device-check: going on with the packages already installed"

step "build ($build)"
full_build=0
if check cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release; then
  if check ninja -C "$build" -j "$(nproc)" ej ej-example-cpu ej-example-cuda test_e2e; then
    full_build=1
  fi
fi
cuda_example="$build/examples/cuda/ej-example-cuda"
if [ ! -x "$cuda_example" ] && command -v nvcc >/dev/null; then
  # ej's dependencies are missing: build the CUDA example alone, it needs only nvcc.
  cuda_example="$build/ej-example-cuda"
  mkdir -p "$build"
  check nvcc -O3 -std=c++17 -gencode arch=compute_90,code=sm_90 examples/cuda/main.cu \
    -o "$cuda_example"
fi

step "ej-example-cuda"
if [ -x "$cuda_example" ]; then
  # hidden x tokens: the default, a wider row, an L2-resident case, a large odd-shaped one.
  for size in 4096x4096 8192x4096 4096x512 5120x8192; do
    for variant in unfused fused; do
      check "$cuda_example" --variant "$variant" --hidden "${size%x*}" --tokens "${size#*x}"
    done
  done
  step "ej-example-cuda: repeatability (fused, unfused; 5 runs each, default size)"
  for variant in fused unfused; do
    for _ in 1 2 3 4 5; do
      "$cuda_example" --variant "$variant" | grep '^metric: kernel_us='
    done
  done
  step "ej-example-cuda: error paths"
  "$cuda_example" --hidden 12; echo "exit $? (expected 2)"
  CUDA_VISIBLE_DEVICES="" "$cuda_example"; echo "exit $? (expected 3: no visible device)"
  if command -v compute-sanitizer >/dev/null; then
    step "compute-sanitizer (small size)"
    for variant in fused unfused; do
      check compute-sanitizer --error-exitcode 9 "$cuda_example" --variant "$variant" \
        --hidden 1032 --tokens 37 --warmup 1 --iters 2
    done
  fi
else
  echo "device-check: ej-example-cuda was not built"
  failures+=("build ej-example-cuda")
fi

if [ $full_build -eq 1 ]; then
  step "e2e tests of the examples"
  check "$build/tests/test_e2e" "*example*"
  step "ej-example-cpu"
  for variant in naive blocked; do
    check "$build/examples/cpu-bench/ej-example-cpu" --variant "$variant"
  done
fi

# ej on the examples: the recorded run (metrics and GPU environment) is what the runner issue
# asks to report. A scratch repository keeps this checkout's journal untouched.
if [ $full_build -eq 1 ] && [ -x "$cuda_example" ]; then
  step "ej run of both CUDA variants"
  ej="$(pwd)/$build/ej"
  cuda_abs="$(cd "$(dirname "$cuda_example")" && pwd)/$(basename "$cuda_example")"
  scratch=$(mktemp -d "${TMPDIR:-/tmp}/ej-device-XXXXXX")
  pushd "$scratch" >/dev/null && {
    git init -q -b main && git config user.name device && git config user.email device@example.invalid
    echo "device check" > README && git add README && git commit -qm "device check"
    check "$ej" init
    check "$ej" plan new fused-rmsnorm --title "Fused residual-add + RMSNorm" --target "kernel_us < 1000"
    check "$ej" bench add rmsnorm --param variant=unfused,fused --warmup 1 --repeat 10 --timeout 120 \
      --metric 'kernel_us=regex:kernel_us=([0-9.]+)' --unit kernel_us=us --better kernel_us=lower \
      --metric 'bandwidth_gbs=regex:bandwidth_gbs=([0-9.]+)' --unit bandwidth_gbs=GB/s \
      --better bandwidth_gbs=higher -- "$cuda_abs" --variant '{variant}'
    check "$ej" try "unfused baseline" --plan fused-rmsnorm
    check "$ej" try "fused kernel" --plan fused-rmsnorm --hypothesis "one pass saves a read and a write of the sum"
    out="${OUT:-$scratch}"
    # The GPUs are read every 20 ms during each repeat: per repeat, SM and memory clocks, power,
    # peak temperature, throttle reasons (see 'ej show run').
    check "$ej" run rmsnorm --attempt 1 --param variant=unfused --quiet --gpus 0 --gpu-sample-ms 20
    check "$ej" run rmsnorm --attempt 2 --param variant=fused --quiet --gpus 0 --gpu-sample-ms 20
    check "$ej" plan baseline fused-rmsnorm --run 1
    check "$ej" compare r1 r2
    "$ej" compare r1 r2 --json > "$out/ej-compare.json"
    check "$ej" compare r1 r2 --exclude-throttled
    "$ej" compare r1 r2 --exclude-throttled --json > "$out/ej-compare-unthrottled.json"
    check "$ej" judge 2
    "$ej" judge 2 --json > "$out/ej-judge.json"
    check "$ej" show run 1
    check "$ej" show run 2
    "$ej" show run 1 --json > "$out/ej-run-1.json"
    "$ej" show run 2 --json > "$out/ej-run-2.json"
    check "$ej" env show 2
    "$ej" runs --json > "$out/ej-runs.json"
    "$ej" env show 2 --json > "$out/ej-env.json"
    # Locked clocks need root; the run says why when it cannot, and the clocks are reset after.
    if [ "$(id -u)" = 0 ]; then
      check "$ej" run rmsnorm --param variant=fused --quiet --gpus 0 --gpu-sample-ms 20 --lock-clocks
      check nvidia-smi --query-gpu=index,clocks.sm,clocks.max.sm,clocks_throttle_reasons.active --format=csv
      check "$ej" show run 3
      "$ej" show run 3 --json > "$out/ej-run-3-locked.json"
      check "$ej" env diff 2 3
      check "$ej" compare r2 r3
      "$ej" compare r2 r3 --json > "$out/ej-compare-locked.json"
    else
      echo "device-check: not root, --lock-clocks skipped"
    fi
    # One repeat's device state and the throttle count, for the report.
    step "device state of run #2's first measured repeat"
    python3 - "$out/ej-run-2.json" <<'PY' || true
import json, sys
run = json.load(open(sys.argv[1]))
measured = [r for r in run["repeats"] if not r["warmup"]]
print(json.dumps(measured[0]["device"], indent=1))
print("throttled:", run["throttled"]["repeats"], "of", run["throttled"]["of"], run["throttled"]["summary"])
print("gpu warnings:", run["gpu_warnings"])
PY
    check "$ej" plan render fused-rmsnorm
    cp journal/fused-rmsnorm.md journal/fused-rmsnorm.svg "${OUT:-$scratch}/" 2>/dev/null
    popd >/dev/null
  }
fi
# end of ej run section

step "summary"
if [ ${#failures[@]} -eq 0 ]; then
  echo "device-check: all steps passed"
  exit 0
fi
echo "device-check: ${#failures[@]} step(s) failed:"
printf '  %s\n' "${failures[@]}"
exit 1
