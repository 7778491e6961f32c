#!/bin/sh
# The pairs-of-graphs addition to the rule-synthesis study (README.md here): two runs of
# `mctsat rules synthesize` at one operator per side, whose pairs stage proposes concat rules of
# two same-operator graphs and the two-output merge rules read off them (convolutions with
# enlarge, with condition minimisation; TASO's matrix operators with a fourth variable), each
# with a final 80-sample test; then TASO's coverage, a numeric check of the optimized graphs, and
# the nine-model speedups together with the 2026-12-01 sets (matrix N=3, conv N=2). Run from the
# repository root with the built mctsat on PATH; writes into OUT (default
# ./rule-synthesis-pairs-out). The synthesized files committed here (rules/) are its outputs.
set -eu
OUT=${OUT:-rule-synthesis-pairs-out}
HERE=bench/results/2026-12-02-rule-synthesis-pairs
EARLIER=bench/results/2026-12-01-rule-synthesis/rules
mkdir -p "$OUT"
MATRIX="--ops matmul,ewadd,ewmul,relu,sigmoid,tanh,transpose,concat --shapes x:n,n y:n,n z:n,n u:n,n --dims n=2,3"
CONV="--ops conv2d,relu,concat,enlarge --shapes x:b,c,h,h y:b,c,h,h w:c,c,3,3 v:c,c,3,3 u:c,c,1,1 --dims b=1,2 c=2,3 h=4,5"
synthesize() {  # vocabulary name, N, specification and options
  /usr/bin/time -v -o "$OUT/$1-$2.time" mctsat rules synthesize $3 --max-ops $2 \
    --ruleset synthesized-$1-$2 --cache "$OUT/$1.cache" --jobs 2 --json \
    -o "$OUT/$1-$2.rules" > "$OUT/$1-$2.json"
}
synthesize convpairs 1 "$CONV --samples 8 --minimize-conditions --final-samples 80"
synthesize matrixpairs 1 "$MATRIX --samples 12 --final-samples 80"
mkdir -p "$HERE/rules"
cp "$OUT/convpairs-1.rules" "$OUT/matrixpairs-1.rules" "$HERE/rules/"
# Coverage per N: the 2026-12-01 sets of N=2 (matrix-2, conv-2) and N=3 (matrix-3, conv-2), each
# with and without the pair files.
M2="$EARLIER/../synthesis/matrix-2.rules $EARLIER/conv-2.rules"
M3="$EARLIER/matrix-3.rules $EARLIER/conv-2.rules"
mctsat rules derivable rules/taso --from $M2 "$HERE/rules" --json > "$OUT/coverage-2-pairs.json"
mctsat rules derivable rules/taso --from $M3 "$HERE/rules" --json > "$OUT/coverage-3-pairs.json"
mctsat rules derivable rules/taso --from "$HERE/rules" --json > "$OUT/coverage-pairs-only.json"
# The optimized graphs compute what the originals do (synthesized rules alone, and with TASO's).
mkdir -p "$OUT/all"
cp "$EARLIER"/*.rules "$HERE"/rules/*.rules "$OUT/all/"
for model in bert inceptionv3 mobilenetv2 nasneta nasrnn resnet50 resnext50 squeezenet vgg19; do
  for rules in "$OUT/all" "$OUT/all rules/taso"; do
    echo "$model [$rules]: $(mctsat optimize $model --rules $rules --strategy eqsat \
      --eqsat-node-limit 20000 --iterations 10 --final-extract dag --taso-graph none --check |
      grep -E 'speedup|check' | tr -s ' ' | tr '\n' ' ')"
  done
done > "$OUT/check.txt"
mctsat bench bench/configs/rule-synthesis-pairs.json --out "$OUT/study" --jobs 2
mctsat bench report "$OUT/study" --no-plots
