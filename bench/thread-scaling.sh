#!/bin/sh
# Parallel MCTS's wall-clock scaling from 1 to 2 threads: for each model, RUNS rounds in which
# `mctsat optimize MODEL --threads T --batch BATCH --final-extract dag --json` runs with T = 1 and
# T = 2 in turn (interleaved, 1 then 2 in odd rounds and 2 then 1 in even ones, so that a change of
# the machine's speed hits both alike), then per model the medians of exploration_seconds and their
# ratio, the median and quartiles of the rounds' own ratios, whether every run reached the same
# cost and committed actions (a seed and batch fix the search), and the speedups on 2, 4 and 8
# threads that the 1-thread runs' thread CPU times project (not load-dependent: an upper bound,
# and an estimate that schedules the simulations on the threads; see
# bench/results/parallel-search.md). Prints the load average (`uptime`) before each round.
# Writes OUT/MODEL.T.RUN.json.
# Usage: bench/thread-scaling.sh MCTSAT OUT [RUNS] [BATCH] [MODEL...]
#   (default models: bert resnext50 nasneta squeezenet; run it on a machine with nothing else
#   running, e.g. bench/thread-scaling.sh build/release/cli/mctsat /tmp/scaling 5 2)
set -eu
mctsat="${1:?usage: thread-scaling.sh MCTSAT OUT [RUNS] [BATCH] [MODEL...]}"
out="${2:?usage: thread-scaling.sh MCTSAT OUT [RUNS] [BATCH] [MODEL...]}"
runs="${3:-5}"
batch="${4:-2}"
shift $(($# < 4 ? $# : 4))
models="${*:-bert resnext50 nasneta squeezenet}"
mkdir -p "$out"
for run in $(seq 1 "$runs"); do
  echo "round $run: $(uptime)"
  for model in $models; do
    for threads in $([ $((run % 2)) = 1 ] && echo 1 2 || echo 2 1); do
      "$mctsat" optimize "$model" --threads "$threads" --batch "$batch" --final-extract dag \
        --json >"$out/$model.$threads.$run.json"
    done
  done
done
echo "after: $(uptime)"
node -e '
  const fs = require("fs");
  const [out, runs, ...models] = process.argv.slice(1);
  const median = (v) => { const s = [...v].sort((a, b) => a - b), m = s.length >> 1;
                          return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
  const f = (v, d = 3) => v.toFixed(d);
  const quartiles = (v) => { const s = [...v].sort((a, b) => a - b), q = (p) => s[Math.round(p * (s.length - 1))];
                             return [q(0.25), q(0.75)]; };
  console.log("| model | 1 thread (s, median) | 2 threads (s, median) | speedup | round ratios: median " +
              "(quartiles) | same result | bound 2 threads | 4 | 8 | scheduled 2 threads | 4 | 8 |");
  console.log("|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|");
  for (const model of models) {
    const load = (t) => Array.from({length: +runs}, (_, i) =>
      JSON.parse(fs.readFileSync(`${out}/${model}.${t}.${i + 1}.json`)));
    const [one, two] = [load(1), load(2)];
    const key = (r) => JSON.stringify([r.optimized_cost_ms, r.mcts.steps.map((s) => s.rule),
                                       r.taso && r.taso.cost_ms]);
    const same = [...one, ...two].every((r) => key(r) === key(one[0]));
    const t1 = median(one.map((r) => r.exploration_seconds));
    const t2 = median(two.map((r) => r.exploration_seconds));
    // Thread CPU times of a 1-thread run: the TASO pass (candidates spread over threads), then
    // MCTS (each wave takes at least its longest span and its simulations over the threads); on
    // several threads the two run side by side (--taso-graph final), which can only be faster.
    // The bound: the simulations take at least their work over the threads and their
    // critical path; the estimate: their window scheduled on t threads (scheduled_cpu_seconds).
    const projected = (r, t, simulations) => {
      const taso = r.taso || {cpu_seconds: 0, parallel_cpu_seconds: 0}, m = r.mcts;
      return (taso.cpu_seconds + m.cpu_seconds) /
             (taso.cpu_seconds - taso.parallel_cpu_seconds + taso.parallel_cpu_seconds / t +
              m.cpu_seconds - m.simulation_cpu_seconds + simulations(m, t)); };
    const bound = (m, t) => Math.max(m.simulation_cpu_seconds / t, m.critical_cpu_seconds);
    const scheduled = (m, t) => m.scheduled_cpu_seconds[t];
    const proj = (simulations) => [2, 4, 8].map((t) =>
      f(median(one.map((r) => projected(r, t, simulations))), 2) + "x").join(" | ");
    const ratios = one.map((r, i) => r.exploration_seconds / two[i].exploration_seconds);
    const [q1, q3] = quartiles(ratios);
    console.log(`| ${model} | ${f(t1)} | ${f(t2)} | ${f(t1 / t2, 2)}x | ` +
                `${f(median(ratios), 2)}x (${f(q1, 2)}-${f(q3, 2)}) | ${same ? "yes" : "NO"} | ` +
                `${proj(bound)} | ${proj(scheduled)} |`);
  }' "$out" "$runs" $models
