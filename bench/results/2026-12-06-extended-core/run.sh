#!/bin/sh
# The default search on the twelve benchmark models with TASO's rules and core.rules (the 31
# declarations of rules/extended that the default search used on them with the whole library,
# bench/results/2026-12-05-extended-rules), one at a time, from the repository root:
#   bench/results/2026-12-06-extended-core/run.sh MCTSAT OUT
# As that study's run-default.sh, with --rules taso,core.rules.
set -e
mctsat=$1 out=$2
core=$(dirname "$0")/core.rules
ocr=build/test-models/ocr/package/assets
mkdir -p "$out"
run() {
  name=$1; shift
  /usr/bin/time -f "%U user %S sys %e wall %M KB" -o "$out/$name.time" \
    "$mctsat" optimize "$@" --rules "taso,$core" --check --json --quiet > "$out/$name.json"
}
for m in bert nasrnn resnext50 nasneta resnet50 inceptionv3 mobilenetv2 squeezenet vgg19; do run $m $m; done
run ppocrv4-det $ocr/ch_PP-OCRv4_det_infer.onnx --input-shape x=1,3,320,320
run ppocrv4-rec $ocr/ch_PP-OCRv4_rec_infer.onnx --input-shape x=1,3,48,320
run ppocr-cls $ocr/ch_ppocr_mobile_v2.0_cls_infer.onnx --input-shape x=1,3,48,192
