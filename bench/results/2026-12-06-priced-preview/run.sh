#!/bin/sh
# The default search with both rule libraries on the twelve benchmark models, from the repository
# root (as 2026-12-05-extended-rules/run-default.sh):
#   bench/results/2026-12-06-priced-preview/run.sh MCTSAT OUT [MODEL...]
# MODEL: zoo names and ppocrv4-det, ppocrv4-rec, ppocr-cls (default: all twelve), one at a time.
set -e
mctsat=$1 out=$2
shift 2
ocr=build/test-models/npm/@gutenye+ocr-models/package/assets
models=${*:-"bert nasrnn resnext50 nasneta resnet50 inceptionv3 mobilenetv2 squeezenet vgg19 ppocrv4-det ppocrv4-rec ppocr-cls"}
mkdir -p "$out"
run() {
  name=$1; shift
  /usr/bin/time -f "%U user %S sys %e wall %M KB" -o "$out/$name.time" \
    "$mctsat" optimize "$@" --rules taso,extended --check --json --quiet > "$out/$name.json"
}
for m in $models; do
  case $m in
    ppocrv4-det) run $m $ocr/ch_PP-OCRv4_det_infer.onnx --input-shape x=1,3,320,320 ;;
    ppocrv4-rec) run $m $ocr/ch_PP-OCRv4_rec_infer.onnx --input-shape x=1,3,48,320 ;;
    ppocr-cls) run $m $ocr/ch_ppocr_mobile_v2.0_cls_infer.onnx --input-shape x=1,3,48,192 ;;
    *) run $m $m ;;
  esac
done
