#!/bin/sh
# Does `--cost onnxruntime` (operators timed in ONNX Runtime's profiler, priced as run with
# --runtime-fusions onnxruntime) predict ONNX Runtime? Three parts, each line beside ONNX Runtime's
# own measurement (study/ort-compare.cjs: paired, interleaved, one thread, CPU time):
#   whole  every corpus model: the estimated time of the original as run, under --cost onnxruntime
#          and under the cpu-2core roofline, against its measured time;
#   sign   the corpus CNNs whose default search (V100 roofline, no guard) made a candidate the
#          previous record found slower: the candidate's estimated speedup as run under each model;
#   search the same CNNs searched under --cost onnxruntime as run (no guard): the estimate and the
#          measurement of what that search writes.
# Usage, from the repository root after `ctest -R "install_onnxruntime|export_torch_models"` and
# tests/data/export-torch-models.py build/test-models/torch:
#   bench/results/2026-12-06-onnxruntime-costs/validate.sh build/release OUT [whole|sign|search]...
set -u
build=${1:?usage: validate.sh BUILD_DIR OUT [PART]...}
out=${2:?usage: validate.sh BUILD_DIR OUT [PART]...}
shift 2
parts=${*:-whole sign search}
mkdir -p "$out"
models=build/test-models/torch
mctsat=$build/cli/mctsat
ort=build/test-models/onnxruntime
table=$out/onnxruntime-costs.json
ort_cost="--cost onnxruntime --onnxruntime $ort --cost-table $table --cost-fallback --device cpu-2core"
roofline_cost="--device cpu-2core"
manifest=tests/data/torch-models.tsv
shapes() {  # --input-shape options of a corpus model
  for spec in $(grep "^$1	" $manifest | cut -f5 | tr ';' ' '); do
    printf ' --input-shape %s=%s' "${spec%%=*}" "$(echo "${spec##*=}" | cut -d: -f2)"
  done
}
inputs() {  # ort-compare.cjs --input options of a corpus model
  for spec in $(grep "^$1	" $manifest | cut -f5 | tr ';' ' '); do printf ' --input %s' "$spec"; done
}
# shellcheck disable=SC2086 # options are words
as_run_ms() {  # MODEL ID COST-OPTIONS...
  model=$1 id=$2
  shift 2
  "$mctsat" show "$model" "$@" --runtime-fusions onnxruntime --json $(shapes "$id") |
    python3 -c "import json,sys; print(json.load(sys.stdin)['cost']['total_ms'])"
}
# shellcheck disable=SC2086
measure() {  # ID ORIGINAL CANDIDATE
  node study/ort-compare.cjs --ort "$ort" "$2" "$3" $(inputs "$1") --rounds 60 --warmup 3 \
    --compact --reference-level disabled 2>&1
}
percent() { python3 -c "print(round(100 * ($1 / $2 - 1), 2))"; }
echo "# $(date -u +%F) onnxruntime-node $(node -p "require('./$ort/node_modules/onnxruntime-node/package.json').version"), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
cnns="resnet18 resnet50 squeezenet1.1 googlenet inception-v3 regnet-y-400mf shufflenet-v2"
for part in $parts; do
  case $part in
    whole)
      grep -v '^#' $manifest | cut -f1 | while read -r id; do
        # shellcheck disable=SC2086
        ort_ms=$(as_run_ms "$models/$id.onnx" "$id" $ort_cost)
        roofline_ms=$(as_run_ms "$models/$id.onnx" "$id" $roofline_cost)
        measured=$(measure "$id" "$models/$id.onnx" "$models/$id.onnx")
        echo "$id onnxruntime_ms=$ort_ms cpu2core_ms=$roofline_ms | $measured"
      done ;;
    sign)
      for id in $cnns; do
        candidate=$out/$id.v100.onnx
        # shellcheck disable=SC2046
        "$mctsat" optimize "$models/$id.onnx" --guard off --seconds 60 --json -o "$candidate" \
          $(shapes "$id") >"$out/$id.v100.json" 2>"$out/$id.v100.log"
        # shellcheck disable=SC2086
        ort_percent=$(percent "$(as_run_ms "$models/$id.onnx" "$id" $ort_cost)" \
          "$(as_run_ms "$candidate" "$id" $ort_cost)")
        # shellcheck disable=SC2086
        roofline=$(percent "$(as_run_ms "$models/$id.onnx" "$id" $roofline_cost)" \
          "$(as_run_ms "$candidate" "$id" $roofline_cost)")
        echo "$id onnxruntime_as_run=$ort_percent cpu2core_as_run=$roofline | $(measure "$id" "$models/$id.onnx" "$candidate")"
      done ;;
    search)
      for id in $cnns; do
        candidate=$out/$id.onnxruntime.onnx
        # shellcheck disable=SC2046,SC2086
        "$mctsat" optimize "$models/$id.onnx" $ort_cost --runtime-fusions onnxruntime \
          --guard off --seconds 60 --json -o "$candidate" $(shapes "$id") \
          >"$out/$id.onnxruntime.json" 2>"$out/$id.onnxruntime.log"
        estimate=$(python3 -c "import json; print(round(json.load(open('$out/$id.onnxruntime.json'))['speedup_percent'], 2))")
        echo "$id estimate=$estimate | $(measure "$id" "$models/$id.onnx" "$candidate")"
      done ;;
    *) echo "unknown part $part" >&2; exit 2 ;;
  esac
done
