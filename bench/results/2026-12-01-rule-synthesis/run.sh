#!/bin/sh
# The rule-synthesis study (README.md here): synthesizes rules over TASO's operators in two
# vocabularies (matrices, N = 2 and 3 operators per side; convolutions, N = 2), timing each run,
# and counts the TASO rules each set derives. Run from the repository root with the built mctsat
# on PATH; writes into OUT (default ./rule-synthesis-out). The synthesized files committed here
# (rules/) are its outputs.
set -eu
OUT=${OUT:-rule-synthesis-out}
mkdir -p "$OUT"
MATRIX="--ops matmul,ewadd,ewmul,relu,sigmoid,tanh,transpose,concat --shapes x:n,n y:n,n z:n,n --dims n=2,3"
CONV="--ops conv2d,ewadd,ewmul,relu,concat,enlarge --shapes x:b,c,h,h w:c,c,3,3 v:c,c,3,3 u:c,c,1,1 --dims b=1,2 c=2,3 h=4,5"
synthesize() {  # vocabulary name, N, specification
  /usr/bin/time -v -o "$OUT/$1-$2.time" mctsat rules synthesize $3 --max-ops $2 \
    --ruleset synthesized-$1-$2 --cache "$OUT/$1.cache" --jobs 2 --json \
    -o "$OUT/$1-$2.rules" > "$OUT/$1-$2.json"
}
synthesize matrix 2 "$MATRIX"
synthesize conv 2 "$CONV --final-samples 80"
synthesize matrix 3 "$MATRIX"
mctsat rules derivable rules/taso --from "$OUT/matrix-2.rules" "$OUT/conv-2.rules" --json \
  > "$OUT/coverage-2.json"
mctsat rules derivable rules/taso --from "$OUT/matrix-3.rules" "$OUT/conv-2.rules" --json \
  > "$OUT/coverage-3.json"
# New rules: the synthesized rules TASO's set does not derive.
mctsat rules derivable "$OUT/matrix-3.rules" "$OUT/conv-2.rules" --from rules/taso --json \
  > "$OUT/new-rules.json"
# Speedups: nine models x {TASO, synthesized, both}, equality saturation, roofline V100.
mkdir -p bench/results/2026-12-01-rule-synthesis/rules
cp "$OUT/matrix-3.rules" "$OUT/conv-2.rules" bench/results/2026-12-01-rule-synthesis/rules/
mctsat bench bench/configs/rule-synthesis.json --out "$OUT/study" --jobs 2
mctsat bench report "$OUT/study" --no-plots
