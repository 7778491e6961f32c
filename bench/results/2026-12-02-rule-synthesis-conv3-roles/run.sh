#!/bin/sh
# Conv N=3 with TASO's roles (README.md here): the conv vocabulary of the pairs study (data x, y;
# parameters w, v, u) at 3 operators per side with --weights and --minimize-conditions, with
# --distinct-args too, and with the declared shapes' conditions unminimised; cold, timed with
# /usr/bin/time -v; the coverage of TASO's 139 rules by each file and by every
# committed synthesized file with the new one; `optimize --check` of the nine models and the
# speedup grid (bench/configs/rule-synthesis-conv3-roles.json); then one run over all of TASO's
# generator's operators and its coverage. Run from the repository root with
# the built mctsat on PATH, nothing else running; writes into OUT (default
# ./rule-synthesis-conv3-roles-out) and copies the rule files here.
set -eu
OUT=${OUT:-rule-synthesis-conv3-roles-out}
HERE=bench/results/2026-12-02-rule-synthesis-conv3-roles
mkdir -p "$OUT" "$HERE/rules"
CONV="--ops conv2d,ewadd,ewmul,relu,concat,enlarge --max-ops 3 --max-terms 3000000
  --shapes x:b,c,h,h y:b,c,h,h w:c,c,3,3 v:c,c,3,3 u:c,c,1,1 --dims b=1,2 c=2,3 h=4,5
  --weights w,v,u --final-samples 80 --jobs 2 --json"
timed() {  # name, command...
  name=$1
  shift
  uptime > "$OUT/$name.load"
  /usr/bin/time -v -o "$OUT/$name.time" "$@"
  uptime >> "$OUT/$name.load"
}
timed conv-3 mctsat rules synthesize $CONV --minimize-conditions --ruleset synthesized-conv-3 \
  -o "$HERE/rules/conv-3.rules" > "$OUT/conv-3.json"
timed conv-3-distinct mctsat rules synthesize $CONV --minimize-conditions --distinct-args \
  --ruleset synthesized-conv-3-distinct -o "$OUT/conv-3-distinct.rules" > "$OUT/conv-3-distinct.json"
timed conv-3-declared mctsat rules synthesize $CONV --ruleset synthesized-conv-3-declared \
  -o "$OUT/conv-3-declared.rules" > "$OUT/conv-3-declared.json"
# Coverage: each file alone, and every committed synthesized file with the new conv N=3 one in
# place of the 2026-12-01 conv N=2 one (the 125-of-139 set of 2026-12-02-rule-synthesis-conv3).
OTHERS="bench/results/2026-12-01-rule-synthesis/rules/matrix-3.rules
  bench/results/2026-12-02-rule-synthesis-pairs/rules/convpairs-1.rules
  bench/results/2026-12-02-rule-synthesis-pairs/rules/matrixpairs-1.rules
  bench/results/2026-12-02-rule-synthesis-n4/rules/ewconcat4-1.rules
  bench/results/2026-12-02-rule-synthesis-n4/rules/axis0rank2-1.rules
  bench/results/2026-12-02-rule-synthesis-n4/rules/axis0rank4-1.rules
  bench/results/2026-12-02-rule-synthesis-n4/rules/matmulsum-3.rules
  bench/results/2026-12-02-rule-synthesis-conv3/rules/gconv-2.rules"
mctsat rules derivable rules/taso --from "$HERE/rules/conv-3.rules" --json > "$OUT/coverage-conv3.json"
mctsat rules derivable rules/taso --from "$OUT/conv-3-distinct.rules" --json \
  > "$OUT/coverage-conv3-distinct.json"
mctsat rules derivable rules/taso --from "$OUT/conv-3-declared.rules" --json \
  > "$OUT/coverage-conv3-declared.json"
mctsat rules derivable rules/taso --from bench/results/2026-12-01-rule-synthesis/rules/conv-2.rules \
  --json > "$OUT/coverage-conv2.json"
mctsat rules derivable rules/taso --from $OTHERS "$HERE/rules/conv-3.rules" --json \
  > "$OUT/coverage-all.json"
# The optimized graphs compute what the originals do, with the grid's synthesized set (the
# 2026-12-01 matrix N=3 file, the pair files and the new conv N=3 file) alone and with TASO's.
SET="bench/results/2026-12-01-rule-synthesis/rules/matrix-3.rules
  bench/results/2026-12-02-rule-synthesis-pairs/rules $HERE/rules"
for model in bert inceptionv3 mobilenetv2 nasneta nasrnn resnet50 resnext50 squeezenet vgg19; do
  for taso in "" rules/taso; do
    echo "$model [$taso]: $(mctsat optimize $model --rules $SET $taso --strategy eqsat \
      --eqsat-node-limit 20000 --iterations 10 --final-extract dag --taso-graph none --check |
      grep -E 'speedup|check' | tr -s ' ' | tr '\n' ' ')"
  done
done > "$OUT/check.txt"
mctsat bench bench/configs/rule-synthesis-conv3-roles.json --out "$OUT/study" --jobs 2
mctsat bench report "$OUT/study" --no-plots
cp "$OUT/study/runs.jsonl" "$OUT/study/report.md" "$HERE/"
# All of TASO's generator's operators in one run (matrices p, q, r beside the conv vocabulary),
# with TASO's roles and distinct arguments, and the coverage of TASO's rules by that file alone.
ALL="--ops matmul,conv2d,ewadd,ewmul,relu,transpose,concat,enlarge,poolavg,poolmax --max-ops 3
  --shapes x:b,c,h,h y:b,c,h,h w:c,c,3,3 v:c,c,3,3 u:c,c,1,1 p:n,n q:n,n r:n,n
  --dims b=1,2 c=2,3 h=4,5 n=2,3 --weights w,v,u --distinct-args --max-terms 10000000
  --minimize-conditions --final-samples 80 --jobs 2"
timed taso-3 mctsat rules synthesize $ALL --ruleset synthesized-taso-3 -o "$HERE/rules/taso-3.rules" \
  > "$OUT/taso-3.out"
mctsat rules derivable rules/taso --from "$HERE/rules/taso-3.rules" --json > "$OUT/coverage-taso3.json"
