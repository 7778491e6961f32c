#!/bin/sh
# Rule synthesis at N = 4 operators per side (README.md here): the 2026-12-01 matrix vocabulary
# at N = 2, 3 (regenerating the fingerprint cache) and 4 (an evenly spaced sample of the size-4
# terms, --max-terms), timed with /usr/bin/time -v; then the coverage of TASO's 139 rules with
# the committed conv-2 and pair files, for N = 2, 3 and 4; then three pair runs (N = 1) over
# rank-2 and rank-4 elementwise operators and concat and an N = 3 run over four matrices, aimed
# at the TASO rules still missing, and their coverage. Run from the repository root with the built mctsat on PATH; writes into OUT
# (default ./rule-synthesis-n4-out).
set -eu
OUT=${OUT:-rule-synthesis-n4-out}
HERE=bench/results/2026-12-02-rule-synthesis-n4
EARLIER=bench/results/2026-12-01-rule-synthesis/rules
PAIRS=bench/results/2026-12-02-rule-synthesis-pairs/rules
mkdir -p "$OUT"
MATRIX="--ops matmul,ewadd,ewmul,relu,sigmoid,tanh,transpose,concat --shapes x:n,n y:n,n z:n,n --dims n=2,3"
synthesize() {  # vocabulary name, N, specification and options
  uptime >> "$OUT/uptime-$1.txt"
  /usr/bin/time -v -o "$OUT/$1-$2.time" nice -n 10 mctsat rules synthesize $3 --max-ops $2 \
    --ruleset synthesized-$1-$2 --cache "$OUT/$1.cache" --jobs 2 --json \
    -o "$OUT/$1-$2.rules" > "$OUT/$1-$2.json"
  uptime >> "$OUT/uptime-$1.txt"
}
synthesize matrix 2 "$MATRIX"
synthesize matrix 3 "$MATRIX"
# The committed N = 4 file is the regeneration of session 16 (README.md): this command with
# --final-samples 80, the code of main b32a313, cold (no --cache, not niced).
synthesize matrix 4 "$MATRIX --max-terms 2000000 --final-samples 80"
coverage() {  # name, rule files
  name=$1
  shift
  /usr/bin/time -v -o "$OUT/coverage-$name.time" nice -n 10 mctsat rules derivable rules/taso \
    --from "$@" --json > "$OUT/coverage-$name.json"
}
# Each N's matrix file with the 2026-12-01 conv-2 file and the two pair files.
for n in 2 3 4; do
  coverage $n "$OUT/matrix-$n.rules" "$EARLIER/conv-2.rules" "$PAIRS"
done
# Aimed at the missing rules: concat and elementwise operators on rank-4 tensors of one shape,
# and on tensors whose declared shapes differ in axis 0 (rank 2 and 4), so that the conditions
# read off them are TASO's (two pairs of equal shapes, not four).
FINAL="--final-samples 80"
synthesize ewconcat4 1 "--ops ewadd,ewmul,concat --shapes x:b,c,h,h y:b,c,h,h z:b,c,h,h u:b,c,h,h --dims b=1,2 c=2,3 h=4,5 $FINAL"
synthesize axis0rank2 1 "--ops ewadd,ewmul,concat --shapes x:a,n y:a,n z:b,n u:b,n --dims a=2,3 b=3,2 n=2,3 $FINAL"
synthesize axis0rank4 1 "--ops ewadd,ewmul,concat --shapes x:a,c,h,h y:a,c,h,h z:d,c,h,h u:d,c,h,h --dims a=1,2 d=2,1 c=2,3 h=4,5 $FINAL"
# TASO's elementwise-31 (a sum of two products as one product of concatenations) needs N = 3
# and four matrices declared with its shapes.
synthesize matmulsum 3 "--ops matmul,ewadd,concat --shapes x:m,k y:k,p z:m,q u:q,p --dims m=2,3 k=3,2 p=2,3 q=2,2 $FINAL"
AIMED="$OUT/ewconcat4-1.rules $OUT/axis0rank2-1.rules $OUT/axis0rank4-1.rules $OUT/matmulsum-3.rules"
coverage 3-aimed "$OUT/matrix-3.rules" "$EARLIER/conv-2.rules" "$PAIRS" $AIMED
coverage 4-aimed "$OUT/matrix-4.rules" "$EARLIER/conv-2.rules" "$PAIRS" $AIMED
mctsat rules derivable rules/taso --nodes 20000 --from "$OUT/matrix-3.rules" \
  "$EARLIER/conv-2.rules" "$PAIRS" $AIMED --json > "$OUT/coverage-3-aimed-nodes20000.json"
mkdir -p "$HERE/rules"
cp "$OUT/matrix-4.rules" $AIMED "$HERE/rules/"
# The N = 4 file checked again with the separating samples.
mctsat verify --samples 60 --no-cache --jobs 2 "$HERE/rules/matrix-4.rules" > "$OUT/verify-matrix-4-60.txt"
