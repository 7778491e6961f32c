#!/bin/sh
# Rule synthesis at N = 3 over TASO's convolution operators, and grouped convolutions (`merge`)
# (README.md here). Run from the repository root with the built mctsat on PATH; writes into OUT
# (default ./rule-synthesis-conv3-out). The synthesized files committed here (rules/) are its
# outputs. The conv runs share a fingerprint cache and a verification cache (--verify-cache): the
# N=3 run reuses what the N=2 run computed and verified.
set -eu
OUT=${OUT:-rule-synthesis-conv3-out}
mkdir -p "$OUT"
CONV="--ops conv2d,ewadd,ewmul,relu,concat,enlarge --shapes x:b,c,h,h w:c,c,3,3 v:c,c,3,3 u:c,c,1,1 --dims b=1,2 c=2,3 h=4,5"
# merge needs a grouped kernel: ?g has c/k groups (4 and 2), an even count.
GCONV="--ops conv2d,relu,merge --shapes x:b,c,h,h g:c,k,3,3 --dims b=1,2 c=4,6 k=1,3 h=4,5"
synthesize() {  # vocabulary name, N, specification
  uptime > "$OUT/$1-$2.load-start"
  /usr/bin/time -v -o "$OUT/$1-$2.time" mctsat rules synthesize $3 --max-ops $2 \
    --ruleset synthesized-$1-$2 --cache "$OUT/$1.cache" --verify-cache "$OUT/$1.verified" \
    --final-samples 80 --jobs 2 --json -o "$OUT/$1-$2.rules" > "$OUT/$1-$2.json"
  uptime > "$OUT/$1-$2.load-end"
}
synthesize gconv 2 "$GCONV --minimize-conditions"
synthesize conv 2 "$CONV"
synthesize conv 3 "$CONV --max-terms 3000000"
# Coverage of TASO's rules: the earlier studies' files plus these.
EARLIER="bench/results/2026-12-01-rule-synthesis/rules/matrix-3.rules
  bench/results/2026-12-02-rule-synthesis-pairs/rules/convpairs-1.rules
  bench/results/2026-12-02-rule-synthesis-pairs/rules/matrixpairs-1.rules"
mctsat rules derivable rules/taso --from $EARLIER \
  bench/results/2026-12-01-rule-synthesis/rules/conv-2.rules "$OUT/gconv-2.rules" --json \
  > "$OUT/coverage-gconv.json"
mctsat rules derivable rules/taso --from $EARLIER "$OUT/conv-3.rules" "$OUT/gconv-2.rules" --json \
  > "$OUT/coverage-conv3.json"
mkdir -p bench/results/2026-12-02-rule-synthesis-conv3/rules
cp "$OUT/gconv-2.rules" "$OUT/conv-3.rules" bench/results/2026-12-02-rule-synthesis-conv3/rules/
mctsat verify --samples 60 --no-cache --jobs 2 "$OUT/gconv-2.rules" > "$OUT/verify-gconv-2-60.txt"
