#!/usr/bin/env bash
# Builds a libFuzzer target with clang, AddressSanitizer and UndefinedBehaviorSanitizer,
# independently of the project's compiler, then runs it for a bounded number of inputs mutated
# with the help of a dictionary. Targets (fuzzer, what it fuzzes, seed corpus, dictionary):
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
# under BUILD_DIR/fuzz/<target>/artifacts/. All targets compile with the same flags into one object
# directory, BUILD_DIR/fuzz/obj/, so that they share the objects of the sources they have in
# common; an object is recompiled only when its source, a header or the flags changed, under a lock
# (two fuzz tests running at once compile a shared source once).
#   usage: run_fuzzer.sh SOURCE_DIR BUILD_DIR [TARGET]
#   environment: MCTSAT_FUZZ_RUNS (default 4000), MCTSAT_FUZZ_MAX_LEN (bytes; default 1024, 2048
#                for onnx_import and study_config, 4096 for egraph_json), MCTSAT_FUZZ_SEED
#                (default 1), MCTSAT_FUZZ_BUDGET (seconds for the whole script, default 40: on a
#                loaded machine the fuzzing stops early, after at least 10 s), CLANGXX (default
#                clang++), MCTSAT_FUZZ_OPT (default -O1, which costs more to compile than -O0 but
#                fuzzes much faster: bench/results/2026-12-01-fuzz-build-time.md)
set -euo pipefail

src=$(cd "$1" && pwd)
target=${3:-rule_parser}
runs=${MCTSAT_FUZZ_RUNS:-4000}
seed=${MCTSAT_FUZZ_SEED:-1}
budget=${MCTSAT_FUZZ_BUDGET:-40}
cxx=${CLANGXX:-clang++}
opt=${MCTSAT_FUZZ_OPT:--O1}

command -v "$cxx" >/dev/null || {
  echo "run_fuzzer: $cxx not found (scripts/install-deps.sh installs clang)" >&2
  exit 1
}

out=$(mkdir -p "$2" && cd "$2" && pwd)/fuzz

# What each fuzzer links. A new dependency shows up as an undefined symbol at the link below;
# add its source here.
libraries=()
max_len=1024
case $target in
  rule_parser)
    dict=$src/tests/dsl/fuzz/rules.dict
    seed_dirs=("$src/tests/dsl/fuzz/corpus" "$src/rules/taso")
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
  onnx_import)
    dict=$src/tests/frontend/fuzz/onnx.dict
    seed_dirs=("$src/tests/frontend/fuzz/onnx_corpus")
    sources=(
      "$src/tests/frontend/fuzz/onnx_import_fuzzer.cpp"
      "$src"/frontend/onnx_*.cpp "$src"/frontend/canonical_forms.cpp
      "$src"/frontend/weight_folding.cpp
      "$src"/support/error.cpp
      "$src"/tensor/attr.cpp "$src"/tensor/op_catalog.cpp "$src"/tensor/shape_inference.cpp
      "$src"/tensor/tensor_type.cpp "$src"/tensor/graph.cpp "$src"/tensor/interpreter.cpp
      "$src"/tensor/memory_budget.cpp "$src"/tensor/reference_kernels.cpp
      "$src"/tensor/reference_conv_kernels.cpp
    )
    libraries=(-lonnx -lonnx_proto -lprotobuf)
    max_len=2048
    ;;
  egraph_json)
    dict=$src/tests/extract/fuzz/egraph_json.dict
    seed_dirs=("$src/tests/extract/fuzz/corpus")
    sources=(
      "$src/tests/extract/fuzz/egraph_json_fuzzer.cpp"
      "$src"/egraph/serialize.cpp "$src"/extract/serialized_problem.cpp
      "$src"/extract/problem.cpp "$src"/extract/greedy_extractor.cpp
      "$src"/support/error.cpp "$src"/support/json_text.cpp "$src"/support/files.cpp
      "$src"/support/interrupt.cpp
    )
    max_len=4096
    ;;
  study_config)
    dict=$src/tests/study/fuzz/study_config.dict
    seed_dirs=("$src/tests/study/fuzz/corpus")
    sources=(
      "$src/tests/study/fuzz/study_config_fuzzer.cpp"
      "$src"/study/config.cpp
      "$src"/search/option_registry.cpp
      "$src"/frontend/zoo*.cpp
      "$src"/runtime/cost_model_factory.cpp "$src"/runtime/measured_cost_model.cpp
      "$src"/runtime/dnnl_executor.cpp "$src"/runtime/dnnl_primitives.cpp
      "$src"/runtime/executor_arena.cpp "$src"/runtime/timed_execution.cpp
      "$src"/support/error.cpp "$src"/support/json_text.cpp "$src"/support/files.cpp
      "$src"/support/interrupt.cpp "$src"/support/statistics.cpp
      "$src"/tensor/attr.cpp "$src"/tensor/op_catalog.cpp "$src"/tensor/shape_inference.cpp
      "$src"/tensor/tensor_type.cpp "$src"/tensor/graph.cpp "$src"/tensor/interpreter.cpp
      "$src"/tensor/memory_budget.cpp "$src"/tensor/reference_kernels.cpp
      "$src"/tensor/reference_conv_kernels.cpp "$src"/tensor/cost_model.cpp
      "$src"/tensor/device_profile.cpp "$src"/tensor/roofline_cost_model.cpp
      "$src"/tensor/table_cost_model.cpp "$src"/tensor/graph_builder.cpp
      "$out/generated/builtin_device_profiles.cpp"
    )
    max_len=2048
    libraries=(-ldnnl -fopenmp)
    ;;
  *)
    echo "run_fuzzer: unknown target '$target' (rule_parser, graph_json, onnx_import, egraph_json," \
      "study_config)" >&2
    exit 1
    ;;
esac
max_len=${MCTSAT_FUZZ_MAX_LEN:-$max_len}
binary=$out/$target/${target}_fuzzer
# One set of flags for every target, so that they share the objects of the sources they have in
# common.
flags=(-std=c++20 -gline-tables-only "$opt" -fno-omit-frame-pointer "-fsanitize=address,undefined"
  "-fno-sanitize-recover=undefined" -Wall -Wextra -Wpedantic -DFMT_SHARED -DONNX_ML=1
  -DONNX_NAMESPACE=onnx "-I$src")

# An object is stale when it, or its dependency list (-MMD), is missing or older than the flags
# or any file the list names.
stale() {
  local object=$1 deps=$1.d
  [[ -f $object && -f $deps && ! $out/flags.rsp -nt $object ]] || return 0
  local file
  # shellcheck disable=SC2013  # the list holds several file names per line
  for file in $(sed -e 's/^[^:]*://' -e 's/\\$//' "$deps"); do
    [[ $file -nt $object ]] && return 0
  done
  return 1
}

# compile SOURCE OBJECT [-n]: compiles a stale object under its lock, so that two fuzz tests running
# at once compile each shared source once; with -n, an object whose lock another run holds is left
# to it. The object and its dependency list appear by rename, complete or not at all.
compile() {
  local source=$1 object=$2
  exec 9>"$object.lock"
  if [[ ${3:-} == -n ]]; then flock -n 9 || return 0; else flock 9; fi
  stale "$object" || return 0
  "$cxx" @"$out/flags.rsp" -MMD -MF "$object.d.tmp" -c "$source" -o "$object.tmp" || return 1
  mv "$object.d.tmp" "$object.d"
  mv "$object.tmp" "$object"
}

export cxx out
export -f stale compile
mkdir -p "$out/obj" "$out/$target/artifacts"
# The flags file changes (and so makes every object stale) only when the flags do.
printf '"%s"\n' "${flags[@]}" -fsanitize=fuzzer-no-link >"$out/flags.rsp.$$"
if cmp -s "$out/flags.rsp.$$" "$out/flags.rsp"; then
  rm "$out/flags.rsp.$$"
else
  mv "$out/flags.rsp.$$" "$out/flags.rsp"
fi
# The shipped device profiles, embedded as tensor/CMakeLists.txt embeds them for the library (a new
# file only when they changed).
if [[ $target == study_config ]]; then
  mkdir -p "$out/generated"
  profiles=("$src"/devices/*.json)
  (IFS='|' && "${CMAKE:-cmake}" -DINPUTS="${profiles[*]}" -DOUTPUT="$out/generated/profiles.$$" \
    -P "$src/cmake/embed_device_profiles.cmake")
  if cmp -s "$out/generated/profiles.$$" "$out/generated/builtin_device_profiles.cpp"; then
    rm "$out/generated/profiles.$$"
  else
    mv "$out/generated/profiles.$$" "$out/generated/builtin_device_profiles.cpp"
  fi
fi

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
  # Two compilers at a time (a shared 2-core machine), leaving objects that another run is
  # compiling to it; then waiting for those (and compiling any whose compile failed there). xargs
  # fails if any compile fails.
  # shellcheck disable=SC2016  # expanded by bash -c
  printf '%s\0' "${todo[@]}" | xargs -0 -n 2 -P 2 bash -c 'compile "$0" "$1" -n' || exit 1
  for ((i = 0; i < ${#todo[@]}; i += 2)); do
    (compile "${todo[i]}" "${todo[i + 1]}") || exit 1
  done
  echo "run_fuzzer: compiled in $((SECONDS - start)) s"
fi
# Relinked when an object is newer (this run or another target's rebuilt it) or the list of
# sources changed.
relink=0
[[ -f $binary && $(cat "$out/$target/objects.txt" 2>/dev/null) == "${objects[*]}" ]] || relink=1
for object in "${objects[@]}"; do [[ $object -nt $binary ]] && relink=1; done
if ((relink)); then
  "$cxx" "${flags[@]}" -fsanitize=fuzzer "${objects[@]}" -lfmt "${libraries[@]}" -o "$binary.tmp"
  mv "$binary.tmp" "$binary"
  echo "${objects[*]}" >"$out/$target/objects.txt"
fi

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
max_time=$((budget - SECONDS))
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
  -max_total_time="$max_time" -print_final_stats=1 -artifact_prefix="$out/$target/artifacts/" \
  "$work/new" "$work/seeds" 2>"$work/log"
status=$?
set -e
if ((status != 0)); then
  tail -n 60 "$work/log"
  artifact=$(find "$out/$target/artifacts" -type f -newer "$work/start" -print -quit)
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
