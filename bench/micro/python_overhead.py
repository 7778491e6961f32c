#!/usr/bin/env python3
"""What Python costs a search: the default `mctsat optimize bert` (wall time, in-process) with the
built-in roofline cost model, with a Python cost function that returns the same roofline costs
(so the search is the same and only the calls differ), with Python progress and on_step hooks,
and with a Python reward hook equal to the default reward. Checks that every variant finds the
same graph; prints a JSON record (bench/results/python-overhead.md has the results).

    PYTHONPATH=build/release/python python3 bench/micro/python_overhead.py --repeats 3
"""

import argparse
import json
import os
import platform
import statistics
import time

import mctsat


def variants():
    roofline = mctsat.CostModel.roofline()
    yield "roofline (built-in)", lambda: {}
    yield "python cost function (roofline values)", lambda: {
        "cost_model": mctsat.CostModel(lambda op, inputs, attrs: roofline(op, inputs, attrs))}
    yield "python progress + on_step hooks", lambda: {
        "progress": lambda p: None, "on_step": lambda s: True}
    yield "python reward hook", lambda: {"reward": lambda parent, cost: max(parent - cost, 0.0)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="bert")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    rows = [{"variant": name, "make": make, "seconds": [], "cpu_seconds": [], "costs": set(),
             "python_cost_calls": []} for name, make in variants()]
    # Interleaved (one run of each variant per round), so that the machine's load, which other
    # processes change, falls on every variant alike; CPU time (of this process, all threads) is
    # less sensitive to that load than wall time.
    for _ in range(args.repeats):
        for row in rows:
            kwargs = row["make"]()  # a new Python cost model (empty cache) for every run
            start, cpu_start = time.perf_counter(), time.process_time()
            result = mctsat.optimize(args.model, **kwargs)
            row["seconds"].append(time.perf_counter() - start)
            row["cpu_seconds"].append(time.process_time() - cpu_start)
            row["costs"].add(result.optimized_cost_ms)
            if "cost_model" in kwargs:
                row["python_cost_calls"].append(kwargs["cost_model"].calls)
    for row in rows:
        del row["make"]
        row["optimized_cost_ms"] = sorted(row.pop("costs"))
        for key in ("seconds", "cpu_seconds"):
            row[f"median_{key}"] = statistics.median(row[key])
            row[f"{key}_ratio_to_builtin"] = row[f"median_{key}"] / rows[0][f"median_{key}"]
    print(json.dumps({"model": args.model, "repeats": args.repeats, "load_average": os.getloadavg(),
                      "machine": platform.processor() or platform.machine(),
                      "cpus": os.cpu_count(), "rows": rows}, indent=2))


if __name__ == "__main__":
    main()
