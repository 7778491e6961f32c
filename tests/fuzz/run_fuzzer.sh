#!/usr/bin/env bash
# Runs a libFuzzer target, built by the build (tests/fuzz/targets/, with clang, AddressSanitizer
# and UndefinedBehaviorSanitizer), for a bounded number of inputs mutated with the help of a
# dictionary. It compiles nothing. Targets (fuzzer, what it fuzzes, seed corpus, dictionary):
#   rule_parser (default): tests/dsl/fuzz/rule_parser_fuzzer.cpp, the rule-file front end;
#     tests/dsl/fuzz/corpus/ and rules/taso/; rules.dict
#   graph_json: tests/frontend/fuzz/graph_json_fuzzer.cpp, the graph JSON reader;
#     tests/frontend/fuzz/corpus/; graph_json.dict
#   onnx_import: tests/frontend/fuzz/onnx_import_fuzzer.cpp, the ONNX importer (Debian's libonnx
#     and libprotobuf are linked uninstrumented); tests/frontend/fuzz/onnx_corpus/; onnx.dict
#   egraph_json: tests/extract/fuzz/egraph_json_fuzzer.cpp, the e-graph JSON reader of `extract`;
#     tests/extract/fuzz/corpus/; egraph_json.dict
#   study_config: tests/study/fuzz/study_config_fuzzer.cpp, the bench study config parser;
#     tests/study/fuzz/corpus/; study_config.dict
# Fails when the fuzzer finds a crash, a leak, a hang or a broken invariant; the input is kept
# under FUZZ_DIR/artifacts/<target>/.
#   usage: run_fuzzer.sh SOURCE_DIR FUZZ_DIR [TARGET]   (FUZZ_DIR: <build>/fuzz, the binaries)
#   environment: MCTSAT_FUZZ_RUNS (default 4000), MCTSAT_FUZZ_MAX_LEN (bytes; default 1024, 2048
#                for onnx_import and study_config, 4096 for egraph_json), MCTSAT_FUZZ_SEED
#                (default 1), MCTSAT_FUZZ_BUDGET (seconds of fuzzing, default 40, at least 10: on
#                a loaded machine the fuzzing stops early)
set -euo pipefail

src=$(cd "$1" && pwd)
out=$(cd "$2" && pwd)
target=${3:-rule_parser}
runs=${MCTSAT_FUZZ_RUNS:-4000}
seed=${MCTSAT_FUZZ_SEED:-1}
budget=${MCTSAT_FUZZ_BUDGET:-40}

max_len=1024
case $target in
  rule_parser)
    dict=$src/tests/dsl/fuzz/rules.dict
    seed_dirs=("$src/tests/dsl/fuzz/corpus" "$src/rules/taso")
    ;;
  graph_json)
    dict=$src/tests/frontend/fuzz/graph_json.dict
    seed_dirs=("$src/tests/frontend/fuzz/corpus")
    ;;
  onnx_import)
    dict=$src/tests/frontend/fuzz/onnx.dict
    seed_dirs=("$src/tests/frontend/fuzz/onnx_corpus")
    max_len=2048
    ;;
  egraph_json)
    dict=$src/tests/extract/fuzz/egraph_json.dict
    seed_dirs=("$src/tests/extract/fuzz/corpus")
    max_len=4096
    ;;
  study_config)
    dict=$src/tests/study/fuzz/study_config.dict
    seed_dirs=("$src/tests/study/fuzz/corpus")
    max_len=2048
    ;;
  *)
    echo "run_fuzzer: unknown target '$target' (rule_parser, graph_json, onnx_import, egraph_json," \
      "study_config)" >&2
    exit 1
    ;;
esac
max_len=${MCTSAT_FUZZ_MAX_LEN:-$max_len}
binary=$out/${target}_fuzzer
[[ -x $binary ]] || {
  echo "run_fuzzer: $binary was not built (the build makes it with clang++: scripts/install-deps.sh" \
    "installs clang; configure with -DMCTSAT_FUZZ=ON)" >&2
  exit 1
}
artifacts=$out/artifacts/$target
mkdir -p "$artifacts"

# Seeds are copied so that nothing under the source tree is ever written; new inputs go to an
# empty first corpus directory, removed afterwards.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/new" "$work/seeds" "$work/empty"
for i in "${!seed_dirs[@]}"; do
  for file in "${seed_dirs[i]}"/*; do cp "$file" "$work/seeds/$i-$(basename "$file")"; done
done

# Allocation stacks cost most of the time of a run (PEGTL allocates a node per rule it tries), so
# the fuzzing run records none and keeps a small quarantine; a failure is replayed with full
# reports below. The fuzzer runs in an empty directory, with the measured cost model's cache
# directory (XDG_CACHE_HOME) in another: a relative file name in an input names no file.
max_time=$budget
((max_time >= 10)) || max_time=10
echo "run_fuzzer: $runs runs of at most $max_len bytes, seed $seed, at most $max_time s"
touch "$work/start"
set +e
cd "$work/empty"
export XDG_CACHE_HOME=$work/cache
ASAN_OPTIONS=${ASAN_OPTIONS:-malloc_context_size=0:quarantine_size_mb=32} \
  UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} \
  "$binary" -runs="$runs" -seed="$seed" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 \
  -dict="$dict" \
  -max_total_time="$max_time" -print_final_stats=1 -artifact_prefix="$artifacts/" \
  "$work/new" "$work/seeds" 2>"$work/log"
status=$?
set -e
if ((status != 0)); then
  tail -n 60 "$work/log"
  artifact=$(find "$artifacts" -type f -newer "$work/start" -print -quit)
  if [[ -n $artifact ]]; then
    echo "run_fuzzer: replaying $artifact with full reports:"
    UBSAN_OPTIONS=print_stacktrace=1 "$binary" "$artifact" 2>&1 | tail -n 80 || true
    echo "run_fuzzer: the input (first 2 KB):"
    head -c 2048 "$artifact" | cat -v
    echo
  fi
  echo "run_fuzzer: the fuzzer failed (exit status $status); reproduce with: $binary $artifact" >&2
  exit 1
fi
grep -E '^(Done|stat::number_of_executed_units|stat::peak_rss_mb)' "$work/log" || tail -n 5 "$work/log"
echo "run_fuzzer: no crash, leak, hang or broken invariant"
