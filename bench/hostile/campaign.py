#!/usr/bin/env python3
"""A hostile-input campaign against the mctsat executable (issue 38; docs/limits.md describes it).

Generates hostile cases -- extreme and malformed option values for every search flag, hostile rule
files, e-graph JSON with costs a solver cannot take, study configs, cost tables and mutated ONNX
models (the first pass, 637 cases); then the work budget, region sizes, the never-slower guard's
options and broken ONNX Runtime packages, and hand-built ONNX models for the ONNX Runtime lowering,
LayerNormalization and the importer's control flow, bool/int tensors and node order
(model_cases.py, which needs the onnx package) -- runs each in a scratch directory (also its
TMPDIR and cache), and checks that every one ends cleanly: exit status 0, 1 with an error message
or a command-line error (100-127), never an internal error (70) or a signal; within a hang bound;
below a memory bound (the case's --memory-limit plus the process's own footprint); no child
process left running, no temporary file or scratch directory left, its outputs written only on
success; and, with --onnxruntime DIR, an ONNX output that computes the original's outputs in ONNX
Runtime. Prints one line per failure, a summary and the count of each outcome; exits 1 if any
case failed.

    bench/hostile/campaign.py [--binary build/release/cli/mctsat] [--only PREFIX] [--jobs N]
                              [--onnxruntime DIR] [--first-pass]
"""

import argparse
import collections
import concurrent.futures
import json
import os
import pathlib
import random
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
HANG_SECONDS = 180       # no case may run longer (its own limits are far lower)
OWN_FOOTPRINT_MB = 400   # libraries, model and rules beside a --memory-limit
ANY_CASE_MB = 1600       # no case may take more (a case without --memory-limit: 2 GB in all)

NUMBERS = ["-1", "0", "1", "1e-320", "5e-324", "1e308", "nan", "inf", "4294967296",
           "18446744073709551615", "18446744073709551616", "abc"]

# (flag, strategy that reads it, extra arguments)
FLAGS = [
    ("--batch", "mcts", ""), ("--simulations", "mcts", ""), ("--node-limit", "mcts", ""),
    ("--eqsat-node-limit", "eqsat", ""), ("--iterations", "eqsat", ""),
    ("--k-multi", "eqsat", ""), ("--rollout-depth", "mcts", ""), ("--gamma", "mcts", ""),
    ("--exploration", "mcts", ""), ("--expand-probability", "mcts", ""),
    ("--max-steps", "mcts", ""), ("--heavy-epsilon", "mcts", "--policy heavy"),
    ("--lookahead-width", "mcts", "--policy lookahead"), ("--seed", "mcts", ""),
    ("--alpha", "taso", ""), ("--budget", "taso", ""), ("--max-ops-factor", "taso", ""),
    ("--taso-patience", "mcts", "--taso-graph seed"), ("--threads", "mcts", ""),
    ("--dag-restarts", "mcts", ""), ("--ilp-seconds", "greedy", "--final-extract ilp"),
    ("--seconds", "mcts", ""), ("--memory-limit", "mcts", ""),
    ("--measure-instances", "greedy", "--measure"), ("--measure-runs", "greedy", "--measure"),
]
# Added in the second pass (issue 38): the work budget, regions, the guard.
NEW_FLAGS = [
    ("--work", "mcts", ""), ("--work", "taso", ""), ("--work", "eqsat", ""),
    ("--work", "greedy", ""), ("--region-ops", "mcts", ""), ("--region-ops", "eqsat", ""),
    ("--guard-rounds", "greedy", "-o {dir}/out.onnx --guard auto"),
    ("--progress-interval", "greedy", ""), ("--tolerance", "greedy", "--check"),
]


class Case:
    """One run: `args` ({dir} is its scratch directory), `files` written there first; `outputs`
    must be complete or absent (absent when the command fails, present when it succeeds); `ort`
    (input specs) compares a successful outputs[0] with m.onnx in ONNX Runtime; `env` is added to
    the environment ({dir} and {ort} replaced); `signal` = (seconds, signal number) sends it."""

    def __init__(self, name, args, memory_mb=None, files=None, outputs=(), ort=None, env=None,
                 signal=None):
        self.name, self.args, self.memory_mb, self.files = name, args, memory_mb, files or {}
        self.outputs, self.ort, self.env, self.signal = list(outputs), ort, env or {}, signal


def option_cases(flags):
    cases = []
    for flag, strategy, extra in flags:
        for value in NUMBERS:
            limits = "" if flag in ("--seconds", "--memory-limit") else "--seconds 3 --memory-limit 400"
            if flag != "--max-steps":
                limits += " --max-steps 3"
            args = f"optimize demo --strategy {strategy} {extra} {limits} {flag} {value} --json"
            memory = 400 if "--memory-limit 400" in limits else None
            name = f"option {flag} {value}" + (f" ({strategy})" if flag in ("--work",
                                                                             "--region-ops") else "")
            cases.append(Case(name, args.split(), memory,
                              outputs=["out.onnx"] if "out.onnx" in extra else ()))
    return cases


def rule_cases(rng):
    texts = {
        "deep-parens": "rule a: (relu ?x) => (relu ?x) where " + "(" * 5000 + "1 == 1" + ")" * 5000,
        "flat-and-300": "rule a: (relu ?x) => (relu ?x) where " + " and ".join(["rank(?x) > 0"] * 300),
        "flat-and-5000": "rule a: (relu ?x) => (relu ?x) where " + " and ".join(["rank(?x) > 0"] * 5000),
        "sides-17": "rule a: " + ", ".join(f"(relu ?x{i})" for i in range(17)) + " => " +
                    ", ".join(f"(relu ?x{i})" for i in range(17)),
        "sides-10000": "rule a: " + ", ".join(f"(relu ?x{i})" for i in range(10000)) + " => " +
                       ", ".join(f"(relu ?x{i})" for i in range(10000)),
        "huge-literal": "rule a: (relu ?x) => (clip 1e999 6 ?x)",
        "int-overflow": "rule a: (relu ?x) => (relu ?x) where 9223372036854775807 + rank(?x) < 0",
        "nul": "rule a: (relu ?x)\0 => (relu ?x)",
        "unicode": "rule \u00e9\u00e8: (relu ?x) => (relu ?x)",
        "empty-name": "rule : (relu ?x) => (relu ?x)",
        "include-self": "include \"r.rules\"\nrule a: (relu ?x) => (relu ?x)",
        "include-dev": "include \"/dev/zero\"",
        "lone-var": "rule a: ?x => (relu ?x)",
    }
    cases = [Case(f"rules {name}", ["rules", "check", "{dir}/r.rules"], files={"r.rules": text})
             for name, text in texts.items()]
    # Random token soups over the grammar's vocabulary.
    tokens = ["rule", "axiom", "(", ")", "?x", "?y", "relu", "ewadd", "matmul", "conv2d", "=>",
              "<=>", "where", "and", "or", "not", "rank(?x)", "==", "<", "+", "-", "*", "/", "%",
              "1", "0", "-9223372036854775808", "1e308", ",", ":", "@tags", "ruleset", "include",
              "\"x\"", "#", "\n"]
    for i in range(90):
        text = " ".join(rng.choice(tokens) for _ in range(rng.randint(3, 60)))
        cases.append(Case(f"rules soup {i}", ["rules", "check", "{dir}/r.rules"],
                          files={"r.rules": text}))
    return cases


def egraph_cases():
    costs = ["0", "1", "5e-324", "1e-11", "1e-10", "1e9", "1e10", "1e308", "-1", "\"1\"", "null",
             "1e400"]
    cases = []
    for cost in costs:
        text = ('{"nodes": {"a": {"op": "x", "children": [], "eclass": "c", "cost": ' + cost +
                '}, "b": {"op": "y", "children": ["a"], "eclass": "d", "cost": 2}, '
                '"e": {"op": "z", "children": [], "eclass": "d", "cost": 3}}, '
                '"root_eclasses": ["d"]}')
        for extractor in ("greedy", "paper", "dag", "ilp", "beam"):
            cases.append(Case(f"extract cost {cost} {extractor}",
                              ["extract", "{dir}/e.json", "--extractor", extractor,
                               "--ilp-seconds", "5"], files={"e.json": text}))
    return cases


def study_cases():
    base = {"name": "s", "models": ["demo"], "configurations": [{"name": "a", "strategy": "greedy"}]}
    variants = []
    for name in ["a\nb", "..", ".", "", "a\tb", "x" * 5000, "a\x7fb", "ok"]:
        variants.append((f"name {name[:8]!r}", dict(base, name=name)))
    variants.append(("seeds 10^6", dict(base, seeds=list(range(1000000)))))
    variants.append(("seeds dup", dict(base, seeds=list(range(50000)) + [0])))
    for key, value in [("mcts", {"batch": 18446744073709551615}), ("mcts", {"node_limit": 2**32}),
                       ("eqsat", {"node_limit": 2**32}), ("dag_restarts", 10**9),
                       ("ilp_seconds", -1), ("ilp_seconds", 1e308), ("search_seconds", 0),
                       ("memory_limit_mb", 1e-300), ("threads", 10**6), ("mcts", {"gamma": 2})]:
        config = dict(base, configurations=[{"name": "a", key: value}])
        variants.append((f"option {key}={value}", config))
    for measure in [{"instances": 100001}, {"instances": 0}, {"runs": 10**9}, True]:
        variants.append((f"measure {measure}", dict(base, measure=measure)))
    cases = []
    for label, config in variants:
        cases.append(Case(f"study {label}", ["bench", "{dir}/c.json", "--list"],
                          files={"c.json": json.dumps(config)}))
    # Random flips of the values of a valid config.
    rng = random.Random(7)
    hostile = [None, -1, 0, 2**64, 1e308, "x", [], {}, True, "\n"]
    for i in range(40):
        config = json.loads(json.dumps(base))
        target = rng.choice(["name", "models", "configurations", "seeds", "limits", "defaults"])
        config[target] = rng.choice(hostile)
        cases.append(Case(f"study flip {i} {target}", ["bench", "{dir}/c.json", "--list"],
                          files={"c.json": json.dumps(config)}))
    return cases


def table_cases():
    cases = []
    for ms in ["0", "1", "5e-324", "1e-11", "1e9", "1e10", "1e308", "-1", "\"1\"", "null"]:
        text = ('{"format": "mctsat-cost-table", "version": 1, "entries": [{"key": "k", "ms": ' +
                ms + '}]}')
        for fallback in ([], ["--cost-fallback"]):
            cases.append(Case(f"cost table ms {ms} {fallback}",
                              ["show", "demo", "--cost", "table", "--cost-table", "{dir}/t.json",
                               *fallback], files={"t.json": text}))
    return cases


def onnx_cases(rng):
    seeds = sorted((ROOT / "tests/frontend/fuzz/onnx_corpus").glob("*.onnx"))
    cases = []
    for i in range(90):
        data = bytearray(rng.choice(seeds).read_bytes())
        for _ in range(rng.randint(1, 8)):
            at = rng.randrange(len(data))
            data[at] = rng.randrange(256)
        cases.append(Case(f"onnx mutation {i}", ["show", "{dir}/m.onnx"],
                          files={"m.onnx": bytes(data)}))
    return cases


# Fake onnxruntime-node packages for --onnxruntime DIR: each is DIR/node_modules/onnxruntime-node.
FAKE_ORT = {
    "throws": "throw new Error('broken on purpose');",
    "empty": "module.exports = {};",
    "exit-0": "process.exit(0);",
    "exit-3": "process.exit(3);",
    "segv": "process.kill(process.pid, 'SIGSEGV');",
    "hang-on-load": "for (;;) {}",
    "flood": "const b = Buffer.alloc(1 << 20, 120); for (let i = 0; i < 3000; ++i) "
             "require('fs').writeSync(1, b);",
    "nan-outputs": ("class T { constructor(t, d, s) { this.type = t; this.data = d; this.dims = s; } }\n"
                    "module.exports = { Tensor: T, InferenceSession: { create: async () => ({\n"
                    "  inputNames: ['x'], outputNames: ['y'],\n"
                    "  run: async () => ({ y: new T('float32', new Float32Array([NaN]), [1]) }) }) } };"),
    "hang-in-create": ("module.exports = { Tensor: class {}, InferenceSession: { create: () => "
                       "new Promise(() => setInterval(() => {}, 1000)) } };"),
}


def fake_ort_files(kind):
    return {f"ort/node_modules/onnxruntime-node/index.js": FAKE_ORT[kind],
            f"ort/node_modules/onnxruntime-node/package.json":
                '{"name": "onnxruntime-node", "main": "index.js"}'}


def guard_cases(ort_dir):
    """The never-slower guard's options and ONNX Runtime folders, good and bad."""
    base = "optimize demo --strategy greedy --max-steps 3 --seconds 3 --json".split()
    out = ["-o", "{dir}/out.onnx"]
    cases = []
    for mode in ("auto", "onnxruntime", "off", "bogus", "", "ONNXRUNTIME"):
        for target in ("out.onnx", "out.json", None):
            args = base + ["--guard", mode] + (["-o", "{dir}/" + target] if target else [])
            if ort_dir:
                args += ["--onnxruntime", "{ort}"]
            cases.append(Case(f"guard mode {mode!r} -o {target}", args,
                              outputs=[target] if target else ()))
    for kind in FAKE_ORT:
        if kind == "hang-in-create":
            continue  # a signal case below: the measurement itself has no time limit
        for mode in ("onnxruntime", "auto"):
            cases.append(Case(f"guard fake ort {kind} ({mode})",
                              base + out + ["--guard", mode, "--onnxruntime", "{dir}/ort"],
                              files=fake_ort_files(kind), outputs=["out.onnx"]))
    bad_dirs = {"missing": "{dir}/nowhere", "empty": "{dir}", "file": "{dir}/f.txt",
                "dev-null": "/dev/null", "root": "/", "newline": "{dir}/a\nb", "blank": " "}
    for label, path in bad_dirs.items():
        for mode in ("onnxruntime", "auto"):
            cases.append(Case(f"guard dir {label} ({mode})",
                              base + out + ["--guard", mode, "--onnxruntime", path],
                              files={"f.txt": "x"}, outputs=["out.onnx"]))
        cases.append(Case(f"guard env {label}", base + out, files={"f.txt": "x"},
                          outputs=["out.onnx"], env={"MCTSAT_ONNXRUNTIME": path}))
    cases.append(Case("guard fake ort hang-in-create, SIGTERM",
                      base + out + ["--guard", "onnxruntime", "--onnxruntime", "{dir}/ort"],
                      files=fake_ort_files("hang-in-create"), outputs=["out.onnx"],
                      signal=(6, 15)))
    cases.append(Case("guard fake ort hang-in-create, SIGINT",
                      base + out + ["--guard", "onnxruntime", "--onnxruntime", "{dir}/ort"],
                      files=fake_ort_files("hang-in-create"), outputs=["out.onnx"],
                      signal=(6, 2)))
    if ort_dir:
        for rounds in ("1", "2", "100001"):
            cases.append(Case(f"guard rounds {rounds} (onnxruntime)",
                              base + out + ["--guard", "onnxruntime", "--onnxruntime", "{ort}",
                                            "--guard-rounds", rounds], outputs=["out.onnx"]))
        cases.append(Case("guard onnxruntime, SIGTERM while measuring",
                          "optimize squeezenet --strategy greedy --max-steps 3 --seconds 3".split()
                          + out + ["--guard", "onnxruntime", "--onnxruntime", "{ort}",
                                   "--guard-rounds", "100000"],
                          outputs=["out.onnx"], signal=(20, 15)))
    return cases


def region_cases():
    """--region-ops extremes on graphs large enough to be cut, with every strategy."""
    cases = []
    for model in ("demo", "nasrnn-40", "deepcnn-193", "bert-24", "nasrnn-4096"):
        for ops in ("0", "1", "2", "7", "400", "9223372036854775807"):
            for strategy in ("mcts", "eqsat", "taso", "greedy"):
                if model == "nasrnn-4096" and strategy not in ("mcts", "eqsat"):
                    continue
                args = (f"optimize {model} --strategy {strategy} --region-ops {ops} --seconds 3 "
                        f"--memory-limit 400 --max-steps 3 --json").split()
                cases.append(Case(f"region {model} --region-ops {ops} {strategy}", args, 400))
    for work in ("1", "1000", "18446744073709551615"):
        for model in ("nasrnn-40", "bert-24"):
            args = (f"optimize {model} --work {work} --region-ops 7 --seconds 3 --memory-limit 400 "
                    "--json").split()
            cases.append(Case(f"region {model} --work {work} --region-ops 7", args, 400))
    return cases


def model_cases(have_models):
    """Hostile ONNX models (model_cases.py) through optimize: lowered for ONNX Runtime (compared
    with the original there when a folder is given), and checked by the reference interpreter."""
    if not have_models:
        return []
    import model_cases as built
    cases = []
    for name, data, specs, compare in built.cases():
        lower = ("optimize {dir}/m.onnx --strategy greedy --max-steps 3 --seconds 5 "
                 "--memory-limit 400 -o {dir}/out.onnx --onnx-ops onnxruntime --guard off "
                 "--json").split()
        check = ("optimize {dir}/m.onnx --strategy mcts --max-steps 2 --seconds 5 "
                 "--memory-limit 400 -o {dir}/out.onnx --check --guard off --json").split()
        cases.append(Case(f"model {name} (onnx-ops)", lower, 400, files={"m.onnx": data},
                          outputs=["out.onnx"], ort=specs if compare else None))
        cases.append(Case(f"model {name} (check)", check, 400, files={"m.onnx": data},
                          outputs=["out.onnx"], ort=specs if compare else None))
        if name in ("attn plain", "attn flags bool", "attn causal fill -inf", "mha plain",
                    "skipnorm sum read", "layernorm axis -1"):
            guard = ("optimize {dir}/m.onnx --strategy greedy --max-steps 3 --seconds 5 "
                     "-o {dir}/out.onnx --onnx-ops onnxruntime --guard onnxruntime "
                     "--onnxruntime {ort} --guard-rounds 3 --json").split()
            cases.append(Case(f"model {name} (guard)", guard, None, files={"m.onnx": data},
                              outputs=["out.onnx"], ort=specs))
    return cases


def orphans(scratch):
    """Processes still running whose command line names the scratch directory (children the
    case's mctsat left behind); they are killed."""
    found = []
    for entry in pathlib.Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if scratch in cmdline:
            found.append(cmdline.strip()[:120])
            try:
                os.kill(int(entry.name), 9)
            except OSError:
                pass
    return found


def compare_in_ort(ort_dir, original, optimized, specs):
    """None when ONNX Runtime computes the same outputs from both files (or cannot load the
    original: not a valid model for it), else what is wrong."""
    script = str(ROOT / "study/ort-compare.cjs")

    def compare(a, b):
        argv = ["node", script, "--ort", ort_dir, "--rounds", "1", a, b]
        for spec in specs:
            argv += ["--input", spec]
        return subprocess.run(argv, capture_output=True, text=True, timeout=HANG_SECONDS)

    ran = compare(original, optimized)
    if ran.returncode == 0:
        return None
    if compare(original, original).returncode != 0:
        return None  # ONNX Runtime does not run the original either
    detail = (ran.stdout + ran.stderr)[-300:]
    if ran.returncode == 1:
        return f"wrong output: ONNX Runtime computes other outputs from it: {detail}"
    return f"bad output: ONNX Runtime cannot run it (exit {ran.returncode}): {detail}"


def run(binary, case, ort_dir=None):
    """Runs one case: (outcome, problem or None, seconds, peak resident set size in MB). The
    outcome is the exit status's class: success, error, usage, or the problem's kind."""
    with tempfile.TemporaryDirectory(prefix="mctsat-hostile-") as scratch:
        for name, content in case.files.items():
            mode = "wb" if isinstance(content, bytes) else "w"
            path = os.path.join(scratch, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, mode) as out:
                out.write(content)
        fill = lambda a: a.replace("{dir}", scratch).replace("{ort}", ort_dir or "")
        args = [fill(a) for a in case.args]
        # Its cache and temporary directories in the scratch directory, to see what it leaves.
        env = dict(os.environ, XDG_CACHE_HOME=os.path.join(scratch, "cache"), TMPDIR=scratch)
        env.pop("MCTSAT_ONNXRUNTIME", None)
        env.update({k: fill(v) for k, v in case.env.items()})
        log = os.path.join(scratch, "output.log")
        start = time.monotonic()
        with open(log, "wb") as out:
            process = subprocess.Popen([binary, *args], cwd=scratch, env=env, stdout=out,
                                       stderr=subprocess.STDOUT)
        # wait4 polled: the child's own rusage (peak RSS), and a bound on its time.
        signalled = False
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            elapsed = time.monotonic() - start
            if case.signal and not signalled and elapsed > case.signal[0]:
                os.kill(process.pid, case.signal[1])
                signalled = True
            if elapsed > HANG_SECONDS:
                process.kill()
                _, _, usage = os.wait4(process.pid, 0)
                orphans(scratch)
                # Its CPU time tells a hang from a machine too loaded to run it.
                cpu = usage.ru_utime + usage.ru_stime
                return ("hang", f"hang: more than {HANG_SECONDS} s ({cpu:.1f} s CPU)",
                        HANG_SECONDS, usage.ru_maxrss / 1024)
            time.sleep(0.02)
        process.returncode = os.waitstatus_to_exitcode(status)
        seconds = time.monotonic() - start
        with open(log, "rb") as f:
            text = f.read().decode(errors="replace")
        mb = usage.ru_maxrss / 1024
        code = process.returncode
        left = orphans(scratch)
        temporaries = [str(p.relative_to(scratch)) for p in pathlib.Path(scratch).rglob("*")
                       if ".tmp." in p.name or (p.is_dir() and p.name.startswith("mctsat-"))]
        present = [o for o in case.outputs if os.path.exists(os.path.join(scratch, o))]

        def outcome():
            if code < 0:
                return "signal", f"signal {-code}: {text[-300:]}"
            if code == 70 or "internal error" in text:
                return "internal error", f"internal error (exit {code}): {text[-300:]}"
            stopped = case.signal is not None and code == 128 + case.signal[1]
            if code not in (0, 1) and not 100 <= code <= 127 and not stopped:
                return "exit", f"exit {code}: {text[-300:]}"
            if code == 1 and "error" not in text:
                return "unlocated", f"exit 1 without an error message: {text[-300:]}"
            limit = case.memory_mb if case.memory_mb is not None else ANY_CASE_MB
            if mb > limit + OWN_FOOTPRINT_MB:
                return "memory", f"memory: peak {mb:.0f} MB" + (
                    f" under --memory-limit {case.memory_mb}" if case.memory_mb else "")
            if left:
                return "orphan", f"child processes left running: {left}"
            if temporaries:
                return "half-written", f"temporary files left: {temporaries}"
            if stopped:
                return ("half-written", f"stopped but wrote {present}") if present else (
                    "stopped", None)
            if code != 0 and present:
                return "half-written", f"failed (exit {code}) but wrote {present}"
            if code == 0 and len(present) != len(case.outputs):
                return "missing output", f"succeeded but did not write {case.outputs}: {text[-300:]}"
            if code == 0 and case.ort and ort_dir:
                problem = compare_in_ort(ort_dir, os.path.join(scratch, "m.onnx"),
                                         os.path.join(scratch, case.outputs[0]), case.ort)
                if problem:
                    return "wrong output", problem
            return {0: "success", 1: "error"}.get(code, "usage"), None

        kind, problem = outcome()
    return kind, problem, seconds, mb


def have_onnx():
    try:
        import numpy  # noqa: F401
        import onnx  # noqa: F401
        return True
    except ImportError:
        return False


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=str(ROOT / "build/release/cli/mctsat"))
    parser.add_argument("--only", default="", help="run the cases whose name starts so")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--onnxruntime", default=os.environ.get("MCTSAT_ONNXRUNTIME", ""),
                        help="folder holding node_modules/onnxruntime-node: the guard's cases "
                             "with it run, and ONNX outputs are compared with their original")
    parser.add_argument("--first-pass", action="store_true",
                        help="only the first pass's 637 cases (options, rule files, e-graph JSON, "
                             "studies, cost tables, mutated ONNX)")
    args = parser.parse_args()
    args.binary = os.path.abspath(args.binary)  # cases run in their own directories
    # The model cases need the onnx package; Debian's is under /usr/bin/python3.
    if not have_onnx() and os.environ.get("MCTSAT_HOSTILE_REEXEC") != "1":
        for python in (os.environ.get("MCTSAT_TORCH_PYTHON"), "/usr/bin/python3"):
            if python and os.path.exists(python) and subprocess.run(
                    [python, "-c", "import onnx, numpy"], capture_output=True).returncode == 0:
                os.environ["MCTSAT_HOSTILE_REEXEC"] = "1"
                os.execv(python, [python, __file__, *sys.argv[1:]])
    models = have_onnx()
    if not models:
        print("note: no onnx package (Debian's python3-onnx): the model cases are left out")
    sys.path.insert(0, str(pathlib.Path(__file__).parent))
    rng = random.Random(38)
    cases = (option_cases(FLAGS) + rule_cases(rng) + egraph_cases() + study_cases() +
             table_cases() + onnx_cases(rng))
    if not args.first_pass:
        cases += (option_cases(NEW_FLAGS) + guard_cases(args.onnxruntime) + region_cases() +
                  model_cases(models))
    cases = [c for c in cases if c.name.startswith(args.only)]
    skipped = [c for c in cases if not args.onnxruntime and any("{ort}" in a for a in c.args)]
    cases = [c for c in cases if c not in skipped]
    if skipped:
        print(f"note: {len(skipped)} cases need --onnxruntime DIR and are left out")
    failures = []
    counts = collections.Counter()
    start = time.monotonic()

    slowest = (0.0, "")
    largest = (0.0, "")
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = pool.map(lambda c: run(args.binary, c, args.onnxruntime or None), cases)
        for case, (kind, problem, seconds, mb) in zip(cases, results):
            counts[kind] += 1
            slowest = max(slowest, (seconds, case.name))
            largest = max(largest, (mb, case.name))
            if problem:
                failures.append(case.name)
                print(f"FAIL {case.name}: {problem}", flush=True)
    print(f"{len(cases)} cases, {len(failures)} failed, {time.monotonic() - start:.0f} s; "
          f"slowest {slowest[0]:.1f} s ({slowest[1]}), largest {largest[0]:.0f} MB ({largest[1]})")
    print("outcomes: " + ", ".join(f"{kind} {n}" for kind, n in sorted(counts.items())))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
