#!/bin/sh
# The done-when runs of issue 37: the default search (one thread), CPU time and peak memory from
# /usr/bin/time. Run from the repository root: bench/results/2026-12-05-scaling/done-when.sh
B=$(realpath "${MCTSAT:-build/release/cli/mctsat}")
mkdir -p "${OUT:-done-when}" && cd "${OUT:-done-when}"
for m in nasrnn-10 nasrnn-40 bert-4 bert-24 deepcnn-193; do
  /usr/bin/time -f "$m cpu_user %U cpu_sys %S maxrss_kb %M wall %e" -a -o times.txt \
    $B optimize $m --json --quiet > $m.json 2> $m.err
  echo "$m load $(cut -d' ' -f1-3 /proc/loadavg)" >> times.txt
done
echo done >> times.txt
