#!/usr/bin/env bash
# Runs the e-graph micro-benchmarks and anchor E1 of a Release build, one process per benchmark
# group, each started only when the machine is quiet (this is a shared 2-core machine): the 1-minute
# load average at most 1.5 and under 10% of the CPUs busy over the last 10 seconds.
# Writes Google Benchmark JSON to bench/results/raw/ and the load before and after each run to
# bench/results/raw/load.txt.
#   usage: bench/micro/run_all.sh [build-dir]   (default: build/bench)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build/bench}
bin=$build/bench/micro
out=$root/bench/results/raw
mkdir -p "$out"
: >"$out/load.txt"

# Busy share of all CPUs over the next 10 seconds (from /proc/stat), in percent.
busy_percent() {
  local a b
  a=$(awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9, $5 + $6 }' /proc/stat)
  sleep 10
  b=$(awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9, $5 + $6 }' /proc/stat)
  echo "$a $b" | awk '{ busy = $3 - $1; idle = $4 - $2; print int(100 * busy / (busy + idle + 1)) }'
}
wait_for_low_load() {
  until awk '{ exit !($1 <= 1.5) }' /proc/loadavg && (($(busy_percent) < 10)); do sleep 10; done
}

# run NAME BINARY ARGS...: one benchmark process, its JSON in $out/NAME.json.
run() {
  local name=$1 binary=$2
  shift 2
  wait_for_low_load
  echo "$name: $(date -Is) load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/load.txt"
  "$bin/$binary" "$@" --benchmark_out="$out/$name.json" --benchmark_out_format=json
  echo "$name: $(date -Is) load after $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/load.txt"
}

micro=(--benchmark_repetitions=5 --benchmark_display_aggregates_only=true)
run egraph_add mctsat_bench_egraph_add "${micro[@]}"
run egraph_match mctsat_bench_egraph_match "${micro[@]}"
run egraph_rebuild mctsat_bench_egraph_rebuild "${micro[@]}"
run egraph_clone mctsat_bench_egraph_clone "${micro[@]}"
# E1: one process per size, so that the process's peak RSS belongs to that size alone.
for n in 10 11 12; do
  run ac_saturation_n$n mctsat_bench_ac_saturation "--benchmark_filter=^BM_AcSaturation/n:$n/"
  run ac_saturation_naive_n$n mctsat_bench_ac_saturation \
    "--benchmark_filter=^BM_AcSaturationNaive/n:$n/"
done
