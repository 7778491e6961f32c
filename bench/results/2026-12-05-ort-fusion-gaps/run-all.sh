#!/bin/bash
# Usage: run-all.sh ID:CANDIDATE:ROUNDS ...   (cand/ID.CANDIDATE.onnx vs models/ID.onnx, both level all)
cd "$(dirname "$0")"; . ./inputs.sh
for spec in "$@"; do
  IFS=: read id c rounds batch <<<"$spec"
  echo "$id $c: $(node ../../../study/ort-compare.cjs --compact --warmup 5 --tolerance 1e-4 --ort "$MCTSAT_ONNXRUNTIME" models/$id.onnx cand/$id.$c.onnx $(inputs $id) --rounds $rounds --batch ${batch:-1} 2>&1)"
done
