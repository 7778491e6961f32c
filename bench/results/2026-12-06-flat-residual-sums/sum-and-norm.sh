#!/bin/sh
# A residual sum and its layer norm in ONNX Runtime, as ONNX Runtime fuses it (rank-3 operands:
# SkipLayerNormalization) and as mctsat's lowering writes it (the sum of [B*S, H] views, viewed
# back: Add and LayerNormalization). Exports both with PyTorch (Debian's python3-torch, random
# weights), then prints each one's kernels (study/ort-compare.cjs --serve-op-times: each kernel's
# fastest of 20 profiled runs) and a paired timing of the two whole models (--round-ms 20).
# Usage, from the repository root: bench/results/2026-12-06-flat-residual-sums/sum-and-norm.sh OUT
set -eu
out=${1:?usage: sum-and-norm.sh OUT}
ort=build/test-models/onnxruntime
mkdir -p "$out/profiles"
/usr/bin/python3 - "$out" <<'PY'
import sys, torch
out = sys.argv[1]
class Rank3(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = torch.nn.LayerNorm(768)
    def forward(self, x, y):
        return self.norm(x + y)
class Flat(Rank3):
    def forward(self, x, y):
        return self.norm((x.reshape(128, 768) + y.reshape(128, 768)).reshape(1, 128, 768))
torch.manual_seed(0)
for name, model in (("rank3", Rank3()), ("flat", Flat())):
    for opset in (14, 17):
        torch.onnx.export(model.eval(), (torch.randn(1, 128, 768), torch.randn(1, 128, 768)),
                          f"{out}/{name}-opset{opset}.onnx", opset_version=opset,
                          input_names=["x", "y"], output_names=["z"])
PY
echo "# $(date -u +%FT%TZ) onnxruntime-node $(node -p "require('./$ort/node_modules/onnxruntime-node/package.json').version"), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
for file in "$out"/*.onnx; do
  printf '%s ' "$(basename "$file")"
  printf '{"model": "%s", "inputs": ["x=float32:1,128,768", "y=float32:1,128,768"], "warmup": 3, "runs": 20}\n' "$file" |
    node study/ort-compare.cjs --ort "$ort" --serve-op-times "$out/profiles"
done
for opset in 14 17; do
  printf 'opset %s, rank3 as original, flat as optimized: ' "$opset"
  node study/ort-compare.cjs --ort "$ort" --rounds 30 --round-ms 20 --compact \
    --input x=float32:1,128,768 --input y=float32:1,128,768 \
    "$out/rank3-opset$opset.onnx" "$out/flat-opset$opset.onnx" || true
  echo
done
