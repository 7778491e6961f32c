#!/bin/sh
# Does an estimate have ONNX Runtime's sign? For each corpus CNN the search changed: the default
# search's candidate (no guard) under the V100 and the cpu-2core rooflines, its estimate operator
# by operator (the report's speedup), its estimate as ONNX Runtime runs it (cpu-2core,
# --runtime-fusions onnxruntime, through `show` on the original and the candidate), and ONNX
# Runtime's measurement (study/ort-compare.cjs: paired, interleaved, one thread, CPU time).
# Usage, from the repository root after `ctest -R "install_onnxruntime|export_torch_models"` and
# tests/data/export-torch-models.py build/test-models/torch:
#   bench/results/2026-12-06-runtime-fusions/validate.sh build/release OUT
set -u
build=${1:?usage: validate.sh BUILD_DIR OUT}
out=${2:?usage: validate.sh BUILD_DIR OUT}
mkdir -p "$out"
models=build/test-models/torch
mctsat=$build/cli/mctsat
ort=build/test-models/onnxruntime
dims_of() { case $1 in inception-v3) echo 1,3,96,96 ;; *) echo 1,3,64,64 ;; esac; }
as_run_ms() {
  "$mctsat" show "$1" --device cpu-2core --runtime-fusions onnxruntime --json \
    --input-shape "input=$2" | python3 -c "import json,sys; print(json.load(sys.stdin)['cost']['total_ms'])"
}
for m in resnet18 resnet50 squeezenet1.1 googlenet inception-v3 regnet-y-400mf shufflenet-v2; do
  dims=$(dims_of $m)
  for device in v100 cpu-2core; do
    candidate=$out/$m.$device.onnx
    "$mctsat" optimize "$models/$m.onnx" --device $device --guard off --seconds 60 --json \
      -o "$candidate" --input-shape "input=$dims" >"$out/$m.$device.json" 2>"$out/$m.$device.log"
    estimate=$(python3 -c "import json; print(round(json.load(open('$out/$m.$device.json'))['speedup_percent'], 2))")
    original=$(as_run_ms "$models/$m.onnx" "$dims")
    optimized=$(as_run_ms "$candidate" "$dims")
    as_run=$(python3 -c "print(round(100 * ($original / $optimized - 1), 2))")
    measured=$(node study/ort-compare.cjs --ort "$ort" "$models/$m.onnx" "$candidate" \
      --input "input=float32:$dims" --rounds 100 --warmup 3 --compact --reference-level disabled 2>&1)
    echo "$m $device estimate=$estimate as_run=$as_run | $measured"
  done
done
