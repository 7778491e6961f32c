#!/usr/bin/env python3
"""A hostile-input campaign against the mctsat executable (issue 38; docs/limits.md describes it).

Generates several hundred hostile cases -- extreme and malformed option values for every search
flag, hostile rule files, e-graph JSON with costs a solver cannot take, study configs, cost tables
and mutated ONNX models -- runs each in a scratch directory, and checks that every one ends cleanly:
exit status 0, 1 or a command-line error (100-127), never an internal error (70) or a signal;
within a hang bound; and, where a case sets --memory-limit, with a peak resident set size below
the limit plus the process's own footprint. Prints one line per failure and a summary; exits 1 if
any case failed.

    bench/hostile/campaign.py [--binary build/release/cli/mctsat] [--only PREFIX] [--jobs N]
"""

import argparse
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


class Case:
    def __init__(self, name, args, memory_mb=None, files=None):
        self.name, self.args, self.memory_mb, self.files = name, args, memory_mb, files or {}


def option_cases():
    cases = []
    for flag, strategy, extra in FLAGS:
        for value in NUMBERS:
            limits = "" if flag in ("--seconds", "--memory-limit") else "--seconds 3 --memory-limit 400"
            if flag != "--max-steps":
                limits += " --max-steps 3"
            args = f"optimize demo --strategy {strategy} {extra} {limits} {flag} {value} --json"
            memory = 400 if "--memory-limit 400" in limits else None
            cases.append(Case(f"option {flag} {value}", args.split(), memory))
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


def run(binary, case):
    """Runs one case: (problem or None, seconds, peak resident set size in MB)."""
    with tempfile.TemporaryDirectory(prefix="mctsat-hostile-") as scratch:
        for name, content in case.files.items():
            mode = "wb" if isinstance(content, bytes) else "w"
            with open(os.path.join(scratch, name), mode) as out:
                out.write(content)
        args = [a.replace("{dir}", scratch) for a in case.args]
        env = dict(os.environ, XDG_CACHE_HOME=os.path.join(scratch, "cache"))
        log = os.path.join(scratch, "output.log")
        start = time.monotonic()
        with open(log, "wb") as out:
            process = subprocess.Popen([binary, *args], cwd=scratch, env=env, stdout=out,
                                       stderr=subprocess.STDOUT)
        # wait4 polled: the child's own rusage (peak RSS), and a bound on its time.
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() - start > HANG_SECONDS:
                process.kill()
                os.wait4(process.pid, 0)
                return f"hang: more than {HANG_SECONDS} s", HANG_SECONDS, 0.0
            time.sleep(0.02)
        process.returncode = os.waitstatus_to_exitcode(status)
        seconds = time.monotonic() - start
        with open(log, "rb") as f:
            text = f.read().decode(errors="replace")
    mb = usage.ru_maxrss / 1024
    code = process.returncode
    if code < 0:
        return f"signal {-code}: {text[-300:]}", seconds, mb
    if code == 70 or "internal error" in text:
        return f"internal error (exit {code}): {text[-300:]}", seconds, mb
    if code not in (0, 1) and not 100 <= code <= 127:
        return f"exit {code}: {text[-300:]}", seconds, mb
    if case.memory_mb is not None and mb > case.memory_mb + OWN_FOOTPRINT_MB:
        return f"memory: peak {mb:.0f} MB under --memory-limit {case.memory_mb}", seconds, mb
    return None, seconds, mb


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=str(ROOT / "build/release/cli/mctsat"))
    parser.add_argument("--only", default="", help="run the cases whose name starts so")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(38)
    cases = (option_cases() + rule_cases(rng) + egraph_cases() + study_cases() + table_cases() +
             onnx_cases(rng))
    cases = [c for c in cases if c.name.startswith(args.only)]
    failures = []
    start = time.monotonic()

    slowest = (0.0, "")
    largest = (0.0, "")
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for case, (problem, seconds, mb) in zip(cases,
                                                pool.map(lambda c: run(args.binary, c), cases)):
            slowest = max(slowest, (seconds, case.name))
            largest = max(largest, (mb, case.name))
            if problem:
                failures.append(case.name)
                print(f"FAIL {case.name}: {problem}", flush=True)
    print(f"{len(cases)} cases, {len(failures)} failed, {time.monotonic() - start:.0f} s; "
          f"slowest {slowest[0]:.1f} s ({slowest[1]}), largest {largest[0]:.0f} MB ({largest[1]})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
