#!/usr/bin/env bash
# Builds a libFuzzer target with clang, AddressSanitizer and UndefinedBehaviorSanitizer,
# independently of the project's compiler, then runs it for a bounded number of inputs mutated
# with the help of a dictionary. Two targets:
#   rule_parser (default): tests/dsl/fuzz/rule_parser_fuzzer.cpp, the rule-file front end, seeded
#     with tests/dsl/fuzz/corpus/ and a copy of rules/taso/, dictionary rules.dict;
#   graph_json: tests/frontend/fuzz/graph_json_fuzzer.cpp, the graph JSON reader, seeded with
#     tests/frontend/fuzz/corpus/, dictionary graph_json.dict.
# Fails when the fuzzer finds a crash, a leak, a hang or a broken round trip; the input is kept
# under BUILD_DIR/<target>_fuzz/artifacts/. Objects are recompiled only when their sources or
# headers change.
#   usage: run_fuzzer.sh SOURCE_DIR BUILD_DIR [TARGET]
#   environment: MCTSAT_FUZZ_RUNS (default 4000), MCTSAT_FUZZ_MAX_LEN (bytes, default 1024),
#                MCTSAT_FUZZ_SEED (default 1), MCTSAT_FUZZ_BUDGET (seconds for the whole script,
#                default 40: on a loaded machine the fuzzing stops early, after at least 10 s),
#                CLANGXX (default clang++)
set -euo pipefail

src=$(cd "$1" && pwd)
target=${3:-rule_parser}
runs=${MCTSAT_FUZZ_RUNS:-4000}
max_len=${MCTSAT_FUZZ_MAX_LEN:-1024}
seed=${MCTSAT_FUZZ_SEED:-1}
budget=${MCTSAT_FUZZ_BUDGET:-40}
cxx=${CLANGXX:-clang++}

command -v "$cxx" >/dev/null || {
  echo "run_fuzzer: $cxx not found (scripts/install-deps.sh installs clang)" >&2
  exit 1
}

# What each fuzzer links. A new dependency shows up as an undefined symbol at the link below;
# add its source here.
case $target in
  rule_parser)
    out=$2/dsl_fuzz
    dict=$src/tests/dsl/fuzz/rules.dict
    seed_dirs=("$src/tests/dsl/fuzz/corpus")
    sources=(
      "$src/tests/dsl/fuzz/rule_parser_fuzzer.cpp"
      "$src"/dsl/*.cpp
      "$src"/support/error.cpp "$src"/support/files.cpp "$src"/support/interrupt.cpp
      "$src"/egraph/pattern.cpp "$src"/egraph/program.cpp
      "$src"/tensor/attr.cpp "$src"/tensor/op_catalog.cpp "$src"/tensor/shape_inference.cpp
      "$src"/tensor/tensor_analysis.cpp "$src"/tensor/tensor_language.cpp
      "$src"/tensor/tensor_type.cpp
    )
    ;;
  graph_json)
    out=$2/graph_json_fuzz
    dict=$src/tests/frontend/fuzz/graph_json.dict
    seed_dirs=("$src/tests/frontend/fuzz/corpus")
    sources=(
      "$src/tests/frontend/fuzz/graph_json_fuzzer.cpp"
      "$src"/frontend/graph_json.cpp
      "$src"/support/error.cpp "$src"/support/json_text.cpp
      "$src"/tensor/attr.cpp "$src"/tensor/op_catalog.cpp "$src"/tensor/shape_inference.cpp
      "$src"/tensor/tensor_type.cpp "$src"/tensor/graph.cpp
    )
    ;;
  *)
    echo "run_fuzzer: unknown target '$target' (rule_parser, graph_json)" >&2
    exit 1
    ;;
esac
binary=$out/${target}_fuzzer
flags=(-std=c++20 -gline-tables-only -O1 -fno-omit-frame-pointer "-fsanitize=address,undefined"
  "-fno-sanitize-recover=undefined" -Wall -Wextra -Wpedantic -DFMT_SHARED "-I$src")

# An object is stale when it, or its dependency list (-MMD), is missing or older than this script
# (the flags) or any file the list names.
stale() {
  local object=$1 deps=$1.d
  [[ -f $object && -f $deps && ! ${BASH_SOURCE[0]} -nt $object ]] || return 0
  local file
  # shellcheck disable=SC2013  # the list holds several file names per line
  for file in $(sed -e 's/^[^:]*://' -e 's/\\$//' "$deps"); do
    [[ $file -nt $object ]] && return 0
  done
  return 1
}

mkdir -p "$out/obj" "$out/artifacts"
objects=()
todo=()
for source in "${sources[@]}"; do
  relative=${source#"$src"/}
  object=$out/obj/${relative//\//_}.o
  objects+=("$object")
  if stale "$object"; then todo+=("$source" "$object"); fi
done

if ((${#todo[@]} > 0)); then
  echo "run_fuzzer: compiling $((${#todo[@]} / 2)) of ${#sources[@]} sources with $cxx"
  start=$SECONDS
  # Two compilers at a time (a shared 2-core machine); xargs fails if any compile fails.
  printf '"%s"\n' "${flags[@]}" -fsanitize=fuzzer-no-link >"$out/flags.rsp"
  # shellcheck disable=SC2016  # expanded by sh -c
  printf '%s\0' "${todo[@]}" |
    xargs -0 -n 2 -P 2 sh -c '"$0" @"$1" -MMD -MF "$3.d" -c "$2" -o "$3"' "$cxx" "$out/flags.rsp" ||
    exit 1
  rm -f "$binary"
  echo "run_fuzzer: compiled in $((SECONDS - start)) s"
fi
# Relinked when an object was rebuilt or the list of sources changed.
if [[ ! -f $binary || $(cat "$out/objects.txt" 2>/dev/null) != "${objects[*]}" ]]; then
  "$cxx" "${flags[@]}" -fsanitize=fuzzer "${objects[@]}" -lfmt -o "$binary.tmp"
  mv "$binary.tmp" "$binary"
  echo "${objects[*]}" >"$out/objects.txt"
fi

# Seeds are copied so that nothing under the source tree is ever written; new inputs go to an
# empty first corpus directory, removed afterwards.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/new" "$work/seeds"
for dir in "${seed_dirs[@]}"; do cp "$dir"/* "$work/seeds/"; done
if [[ $target == rule_parser ]]; then
  for file in "$src"/rules/taso/*.rules; do cp "$file" "$work/seeds/taso-$(basename "$file")"; done
fi

# Allocation stacks cost most of the time of a run (PEGTL allocates a node per rule it tries), so
# the fuzzing run records none and keeps a small quarantine; a failure is replayed with full
# reports below.
max_time=$((budget - SECONDS))
((max_time >= 10)) || max_time=10
echo "run_fuzzer: $runs runs of at most $max_len bytes, seed $seed, at most $max_time s"
touch "$work/start"
set +e
ASAN_OPTIONS=${ASAN_OPTIONS:-malloc_context_size=0:quarantine_size_mb=32} \
  UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} \
  "$binary" -runs="$runs" -seed="$seed" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 \
  -dict="$dict" \
  -max_total_time="$max_time" -print_final_stats=1 -artifact_prefix="$out/artifacts/" \
  "$work/new" "$work/seeds" 2>"$work/log"
status=$?
set -e
if ((status != 0)); then
  tail -n 60 "$work/log"
  artifact=$(find "$out/artifacts" -type f -newer "$work/start" -print -quit)
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
echo "run_fuzzer: no crash, leak, hang or round-trip failure"
