#!/usr/bin/env bash
# Runs the e-graph micro-benchmarks and anchor E1 of a Release build, one process per benchmark
# group, each started only when the machine is quiet (this is a shared 2-core machine): the 1-minute
# load average at most 1.5 and no other runnable process, over 10 consecutive one-second samples.
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

quiet_now() {  # procs_running counts the awk reading it
  awk '/^procs_running/ { exit !($2 <= 1) }' /proc/stat && awk '{ exit !($1 <= 1.5) }' /proc/loadavg
}
wait_for_low_load() {
  local quiet=0
  while ((quiet < 10)); do
    if quiet_now; then quiet=$((quiet + 1)); else quiet=0; fi
    sleep 1
  done
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
