#!/bin/sh
# Deterministic Z3 verdicts (a step budget, --z3-rlimit, instead of a 500 ms timeout) and a
# faster verification phase in rule synthesis (README.md here). Run from the repository root with
# the built mctsat on PATH; writes into OUT (default ./rule-synthesis-z3det-out).
set -eu
OUT=${OUT:-rule-synthesis-z3det-out}
mkdir -p "$OUT"
MATRIX="--ops matmul,ewadd,ewmul,relu,sigmoid,tanh,transpose,concat --shapes x:n,n y:n,n z:n,n --dims n=2,3"
CONV="--ops conv2d,ewadd,ewmul,relu,concat,enlarge --shapes x:b,c,h,h w:c,c,3,3 v:c,c,3,3 u:c,c,1,1 --dims b=1,2 c=2,3 h=4,5"
timed() {  # name, command...
  name=$1
  shift
  uptime > "$OUT/$name.load"
  /usr/bin/time -v -o "$OUT/$name.time" "$@"
  uptime >> "$OUT/$name.load"
}
# Verdicts of the shipped rules (compared with those of the binary before the change).
timed verify-taso sh -c "mctsat verify rules/taso --no-cache --jobs 2 --json > $OUT/verify-taso.json"
# Synthesis outputs (compared byte for byte): matrix N=2 (2026-12-01's command) and conv N=2
# (the conv3 study's, without its caches), twice.
timed matrix-2 mctsat rules synthesize $MATRIX --max-ops 2 --ruleset synthesized-matrix-2 \
  --jobs 2 --json -o "$OUT/matrix-2.rules" > "$OUT/matrix-2.json"
for run in a b; do
  timed conv-2-$run mctsat rules synthesize $CONV --max-ops 2 --ruleset synthesized-conv-2 \
    --final-samples 80 --jobs 2 --json -o "$OUT/conv-2-$run.rules" > "$OUT/conv-2-$run.json"
done
cmp "$OUT/conv-2-a.rules" "$OUT/conv-2-b.rules"
# Conv N=3 (the conv3 study's command, without its caches).
timed conv-3 mctsat rules synthesize $CONV --max-ops 3 --max-terms 3000000 \
  --ruleset synthesized-conv-3 --final-samples 80 --jobs 2 --json -o "$OUT/conv-3.rules" \
  > "$OUT/conv-3.json"
