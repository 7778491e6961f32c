#!/bin/sh
# Where ONNX Runtime spends a corpus transformer's time, by operator type: each kernel's fastest of
# 10 profiled runs (study/ort-compare.cjs --serve-op-times; CPU, one thread, level all), for the
# export and for what `optimize --onnx-ops onnxruntime` writes (the default search, no guard).
# Prints per model and file the total and the share of the matrix-product kernels (Gemm, MatMul,
# FusedMatMul, Attention), which no rewrite that keeps their products can shorten.
# Usage, from the repository root (as validate.sh):
#   bench/results/2026-12-06-onnxruntime-costs/kernel-breakdown.sh build/release OUT [MODEL...]
set -u
build=${1:?usage: kernel-breakdown.sh BUILD_DIR OUT [MODEL...]}
out=${2:?usage: kernel-breakdown.sh BUILD_DIR OUT [MODEL...]}
shift 2
models=${*:-"encoder-tiny encoder-2l encoder-12l bert-hf-tiny bert-hf-4l bert-hf-12l gpt2-block gpt2-4l vit-tiny vit-b16 swin-t"}
mkdir -p "$out/profiles"
manifest=tests/data/torch-models.tsv
ort=build/test-models/onnxruntime
echo "# $(date -u +%F) onnxruntime-node $(node -p "require('./$ort/node_modules/onnxruntime-node/package.json').version"), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
for id in $models; do
  specs=$(grep "^$id	" $manifest | cut -f5 | tr ';' ' ')
  shapes="" inputs=""
  for spec in $specs; do
    shapes="$shapes --input-shape ${spec%%=*}=$(echo "${spec##*=}" | cut -d: -f2)"
    inputs="$inputs,\"$spec\""
  done
  # shellcheck disable=SC2086 # options are words
  "$build/cli/mctsat" optimize "build/test-models/torch/$id.onnx" $shapes --onnx-ops onnxruntime \
    --guard off --seconds 30 --quiet -o "$out/$id.lowered.onnx"
  for file in "build/test-models/torch/$id.onnx" "$out/$id.lowered.onnx"; do
    printf '{"model": "%s", "inputs": [%s], "warmup": 3, "runs": 10}\n' "$file" "${inputs#,}" |
      node study/ort-compare.cjs --ort "$ort" --serve-op-times "$out/profiles" |
      python3 -c "
import json, sys
a = json.load(sys.stdin)
if 'error' in a: sys.exit('$file: ' + a['error'])
k = a['kernels']
products = sum(v for t, v in k.items() if t in ('Gemm', 'MatMul', 'FusedMatMul', 'Attention'))
top = ', '.join(f'{t} {v:.2f}' for t, v in sorted(k.items(), key=lambda x: -x[1])[:6])
print(f'$id $(basename "$file") total_ms={a[\"ms\"]:.3f} products={100 * products / a[\"ms\"]:.1f}% | {top}')"
  done
done
