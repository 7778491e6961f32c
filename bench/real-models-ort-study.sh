#!/bin/sh
# The real-model corpus in ONNX Runtime: every model of tests/data/real-models.tsv is optimized by
# mctsat (STRATEGY, default mcts) and both the original and the optimized export run in ONNX
# Runtime on one thread (study/ort-compare.cjs: same seeded inputs, outputs compared,
# interleaved rounds). Writes OUT/<id>.optimize.txt, OUT/<id>.ort.json and a summary table on
# stdout. Needs the test fixtures' downloads: run `ctest -R 'real_models|onnxruntime'` first.
# Usage: bench/real-models-ort-study.sh BUILD_DIR OUT [STRATEGY] [ROUNDS]
set -eu
build=$(cd "${1:?usage: real-models-ort-study.sh BUILD_DIR OUT [STRATEGY] [ROUNDS]}" && pwd)
out="${2:?usage: real-models-ort-study.sh BUILD_DIR OUT [STRATEGY] [ROUNDS]}"
strategy="${3:-mcts}"
rounds="${4:-30}"
here=$(cd "$(dirname "$0")/.." && pwd)
mctsat="$build/cli/mctsat"
models="$here/build/test-models/npm"
ort="$here/build/test-models/onnxruntime"
mkdir -p "$out"
printf 'model\tmctsat speedup %%\tORT original ms\tORT optimized ms\toptimized/original q1 median q3\toutputs agree\n'
# Empty cells become '-' (read would merge adjacent tabs).
grep -v '^#' "$here/tests/data/real-models.tsv" | sed -e 's/\t\t/\t-\t/g' |
  while IFS="$(printf '\t')" read -r id package file _license _exporter _kind options inputs; do
  [ "$options" = "-" ] && options=""
  dir=$(echo "${package%@*}" | tr '/' '+')
  model="$models/$dir/package/$file"
  # shellcheck disable=SC2086 # the options are words
  set -- $options
  "$mctsat" optimize "$model" --strategy "$strategy" --json -o "$out/$id.onnx" "$@" >"$out/$id.optimize.json"
  set --
  for i in $(echo "$inputs" | tr ';' ' '); do set -- "$@" --input "$i"; done
  node "$here/study/ort-compare.cjs" --ort "$ort" --rounds "$rounds" "$model" "$out/$id.onnx" "$@" >"$out/$id.ort.json" || true
  node -e '
    const [optFile, ortFile, id] = process.argv.slice(1);
    const [opt, ort] = [optFile, ortFile].map((p) => JSON.parse(require("fs").readFileSync(p)));
    const r = ort.optimized_over_original, f = (v) => v.toFixed(3);
    console.log([id, f(opt.speedup_percent), f(ort.original_ms.median),
                 f(ort.optimized_ms.median), `${f(r.q1)} ${f(r.median)} ${f(r.q3)}`,
                 ort.passed].join("\t"));' "$out/$id.optimize.json" "$out/$id.ort.json" "$id"
done
