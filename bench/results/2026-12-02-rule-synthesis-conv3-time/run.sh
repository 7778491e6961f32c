#!/bin/sh
# Conv N=3 in 10 minutes on 2 cores (README.md here): the z3det study's conv N=3 and conv N=2
# commands, cold (no fingerprint or verification cache), timed with /usr/bin/time -v; then the
# coverage of TASO's 139 rules by every committed synthesized file with the new conv N=3 file.
# Run from the repository root with the built mctsat on PATH, nothing else running; writes into
# OUT (default ./rule-synthesis-conv3-time-out).
set -eu
OUT=${OUT:-rule-synthesis-conv3-time-out}
HERE=bench/results/2026-12-02-rule-synthesis-conv3-time
mkdir -p "$OUT"
CONV="--ops conv2d,ewadd,ewmul,relu,concat,enlarge --shapes x:b,c,h,h w:c,c,3,3 v:c,c,3,3 u:c,c,1,1 --dims b=1,2 c=2,3 h=4,5"
timed() {  # name, command...
  name=$1
  shift
  uptime > "$OUT/$name.load"
  /usr/bin/time -v -o "$OUT/$name.time" "$@"
  uptime >> "$OUT/$name.load"
}
timed conv-3 mctsat rules synthesize $CONV --max-ops 3 --max-terms 3000000 \
  --ruleset synthesized-conv-3 --final-samples 80 --jobs 2 --json -o "$OUT/conv-3.rules" \
  > "$OUT/conv-3.json"
timed conv-2 mctsat rules synthesize $CONV --max-ops 2 --ruleset synthesized-conv-2 \
  --final-samples 80 --jobs 2 --json -o "$OUT/conv-2.rules" > "$OUT/conv-2.json"
# Coverage: the files of the 125-of-139 count (2026-12-02-rule-synthesis-conv3), with the new
# conv N=3 file in place of the 2026-12-01 conv N=2 one.
STUDIES="bench/results/2026-12-01-rule-synthesis/rules/matrix-3.rules
  bench/results/2026-12-02-rule-synthesis-pairs/rules/convpairs-1.rules
  bench/results/2026-12-02-rule-synthesis-pairs/rules/matrixpairs-1.rules
  bench/results/2026-12-02-rule-synthesis-n4/rules/ewconcat4-1.rules
  bench/results/2026-12-02-rule-synthesis-n4/rules/axis0rank2-1.rules
  bench/results/2026-12-02-rule-synthesis-n4/rules/axis0rank4-1.rules
  bench/results/2026-12-02-rule-synthesis-n4/rules/matmulsum-3.rules
  bench/results/2026-12-02-rule-synthesis-conv3/rules/gconv-2.rules"
mctsat rules derivable rules/taso --from $STUDIES "$OUT/conv-3.rules" --json \
  > "$OUT/coverage-conv3.json"
mkdir -p "$HERE/rules"
cp "$OUT/conv-3.rules" "$HERE/rules/"
