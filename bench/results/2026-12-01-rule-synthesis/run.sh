#!/bin/sh
# The rule-synthesis study (README.md here): synthesizes rules over TASO's operators, in two
# vocabularies (matrices; convolutions), for N = 2 and 3 operators per side, timing each run, and
# counts the TASO rules each set derives. Run from the repository root with the built mctsat on
# PATH; writes into OUT (default /tmp/rule-synthesis).
set -eu
OUT=${OUT:-/tmp/rule-synthesis}
mkdir -p "$OUT"
MATRIX="--ops matmul,ewadd,ewmul,relu,sigmoid,tanh,transpose,concat --shapes x:n,n y:n,n z:n,n --dims n=2,3"
CONV="--ops conv2d,ewadd,ewmul,relu,concat,enlarge --shapes x:b,c,h,h w:c,c,3,3 v:c,c,3,3 u:c,c,1,1 --dims b=1,2 c=2,3 h=4,5"
for n in 2 3; do
  for vocabulary in matrix conv; do
    if [ $vocabulary = matrix ]; then spec=$MATRIX; else spec=$CONV; fi
    /usr/bin/time -v -o "$OUT/$vocabulary-$n.time" mctsat rules synthesize $spec --max-ops $n \
      --ruleset synthesized-$vocabulary-$n --cache "$OUT/$vocabulary.cache" --jobs 2 --json \
      -o "$OUT/$vocabulary-$n.rules" > "$OUT/$vocabulary-$n.json"
  done
  mctsat rules derivable rules/taso --from "$OUT/matrix-$n.rules" "$OUT/conv-$n.rules" --json \
    > "$OUT/coverage-$n.json"
done
