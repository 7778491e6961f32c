#!/bin/sh
# The PyTorch corpus study: every model of tests/data/torch-models.tsv (exported, or found cached,
# by tests/data/export-torch-models.py in build/test-models/torch) through mctsat and ONNX
# Runtime. Per model: `show` (does it import; operators, opaque ones by type, the estimated cost and
# the opaque operators' share of it), `optimize --check -o` (the numeric check, the estimate, the
# export), and study/ort-compare.cjs on the original and the optimized file (same seeded inputs,
# outputs compared, ROUNDS interleaved timed rounds of at least 20 ms per model on one thread).
# Writes OUT/<id>.show.json, OUT/<id>.optimize.json (or .optimize.log when it fails),
# OUT/<id>.ort.json, and the table OUT/table.md (also printed). Needs ONNX Runtime: run
# `ctest -R install_onnxruntime` first.
# optimize runs with the never-slower guard (MCTSAT_ONNXRUNTIME is that ONNX Runtime unless set);
# the table shows its decision and paired CPU-time speedups. For ONNX Runtime's contrib operators:
# MCTSAT_STUDY_OPTIONS="--onnx-ops onnxruntime" (the table counts the Attention blocks written).
# Usage: bench/torch-corpus-study.sh BUILD_DIR OUT [STRATEGY] [ROUNDS] [ID...]
#   STRATEGY (default mcts) is optimize's --strategy; ROUNDS (default 20) ort-compare's --rounds;
#   IDs restrict the study to those models. Extra optimize options: $MCTSAT_STUDY_OPTIONS.
set -eu
usage="usage: torch-corpus-study.sh BUILD_DIR OUT [STRATEGY] [ROUNDS] [ID...]"
build=$(cd "${1:?$usage}" && pwd)
out="${2:?$usage}"
strategy="${3:-mcts}"
rounds="${4:-20}"
shift 2
[ $# -gt 0 ] && shift
[ $# -gt 0 ] && shift
here=$(cd "$(dirname "$0")/.." && pwd)
mctsat="$build/cli/mctsat"
manifest="$here/tests/data/torch-models.tsv"
models="$here/build/test-models/torch"
ort="$here/build/test-models/onnxruntime"
export MCTSAT_ONNXRUNTIME="${MCTSAT_ONNXRUNTIME:-$ort}"
mkdir -p "$out"
only=$(echo "$@" | tr ' ' ',')
"$here/tests/data/export-torch-models.py" "$models" ${only:+--only "$only"} >&2

grep -v '^#' "$manifest" | while IFS="$(printf '\t')" read -r id group _fast _opset inputs _what; do
  if [ -n "$only" ] && ! echo ",$only," | grep -q ",$id,"; then continue; fi
  model="$models/$id.onnx"
  set --
  for spec in $(echo "$inputs" | tr ';' ' '); do
    name=${spec%=*}
    dims=$(echo "${spec##*=}" | cut -d: -f2)
    set -- "$@" --input-shape "$name=$dims"
  done
  echo "== $id" >&2
  "$mctsat" show "$model" --json --top 1000000 "$@" >"$out/$id.show.json" 2>"$out/$id.show.log" || true
  rm -f "$out/$id.optimize.json" "$out/$id.optimize.log" "$out/$id.ort.json" "$out/$id.onnx"
  start=$(date +%s)
  # shellcheck disable=SC2086 # the extra options are words
  if "$mctsat" optimize "$model" --strategy "$strategy" --check --json -o "$out/$id.onnx" \
    ${MCTSAT_STUDY_OPTIONS:-} "$@" >"$out/$id.optimize.json" 2>"$out/$id.optimize.log"; then
    :
  else
    mv "$out/$id.optimize.json" "$out/$id.optimize.failed.json" 2>/dev/null || true
  fi
  echo "$(($(date +%s) - start))" >"$out/$id.optimize.seconds"
  if [ -f "$out/$id.onnx" ]; then
    set --
    for spec in $(echo "$inputs" | tr ';' ' '); do set -- "$@" --input "$spec"; done
    node "$here/study/ort-compare.cjs" --ort "$ort" --rounds "$rounds" --round-ms 20 \
      --reference-level disabled \
      "$model" "$out/$id.onnx" \
      "$@" >"$out/$id.ort.json" 2>"$out/$id.ort.log" || true
  fi
done

python3 - "$manifest" "$out" "$strategy" "$only" <<'EOF' | tee "$out/table.md"
import json, os, sys
manifest, out, strategy, only = sys.argv[1:]
wanted = set(filter(None, only.split(",")))

def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None

def first_error(path):
    try:
        with open(path) as f:
            lines = [l.strip() for l in f if "error" in l.lower()]
        return lines[0][:160] if lines else ""
    except OSError:
        return ""

print(f"| model | group | imports | operators | opaque | opaque share of estimate | "
      f"costliest opaque types | optimize --check | estimate (%) | ORT outputs equal | "
      f"ORT optimized/original (q1 median q3) | Attention blocks | guard: written | "
      f"guard: paired CPU speedup % (q1 median q3) | optimize s | failure |")
print("|" + "---|" * 16)
for line in open(manifest):
    if line.startswith("#") or not line.strip():
        continue
    ident, group = line.split("\t")[:2]
    if wanted and ident not in wanted:
        continue
    show = load(f"{out}/{ident}.show.json")
    opt = load(f"{out}/{ident}.optimize.json")
    ort = load(f"{out}/{ident}.ort.json")
    failure = ""
    if show is None:
        failure = "import: " + first_error(f"{out}/{ident}.show.log")
    elif opt is None:
        failure = "optimize: " + first_error(f"{out}/{ident}.optimize.log")
    elif ort is None:
        failure = "ORT: " + first_error(f"{out}/{ident}.ort.log")
    elif not ort.get("passed"):
        failure = "ORT outputs differ"
    ops = opaque = share = types = "-"
    if show:
        ops = show["operators"]
        opaque = sum(show.get("opaque_counts", {}).values())
        total = show["cost"]["total_ms"]
        by_type = {}
        for entry in show["cost"]["costliest"]:
            if "opaque" in entry:
                by_type[entry["opaque"]] = by_type.get(entry["opaque"], 0) + entry["ms"]
        share = f"{100 * sum(by_type.values()) / total:.1f}%" if total > 0 else "-"
        top = sorted(by_type.items(), key=lambda kv: -kv[1])[:3]
        types = ", ".join(f"{t} {100 * ms / total:.0f}%" for t, ms in top) if total > 0 else "-"
    check = estimate = equal = ratio = "-"
    if opt:
        c = opt.get("check")
        check = "yes" if c and c.get("passed") else "no"
        estimate = f"{opt.get('speedup_percent', float('nan')):+.2f}"
        lowered = (opt.get("lowering") or {}).get("estimated_speedup_percent")
        if lowered is not None:  # priced as ONNX Runtime runs it, the output lowered
            estimate = f"{lowered:+.2f} (lowered)"
    elif os.path.exists(f"{out}/{ident}.optimize.log"):
        check = "no"
    if ort:
        equal = "yes" if ort.get("passed") else "no"
        r = ort.get("optimized_over_original", {})
        if r:
            ratio = f"{r['q1']:.3f} {r['median']:.3f} {r['q3']:.3f}"
    blocks = written = guarded = "-"
    if opt:
        blocks = opt.get("lowering", {}).get("attention", "-")
        guard = opt.get("guard")
        if guard:
            written = guard.get("decision", "-")
            q = guard.get("measurement", {}).get("paired_cpu_speedup_percent")
            if q:
                guarded = f"{q['q1']:+.2f} {q['median']:+.2f} {q['q3']:+.2f}"
    seconds = open(f"{out}/{ident}.optimize.seconds").read().strip() \
        if os.path.exists(f"{out}/{ident}.optimize.seconds") else "-"
    imports = "yes" if show else "no"
    print(f"| {ident} | {group} | {imports} | {ops} | {opaque} | {share} | {types} | {check} | "
          f"{estimate} | {equal} | {ratio} | {blocks} | {written} | {guarded} | {seconds} | "
          f"{failure.replace('|', '/')} |")
EOF
