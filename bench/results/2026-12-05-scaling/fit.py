#!/usr/bin/env python3
"""Table and power-law fits of the scaling study's records (runs.jsonl of `mctsat bench
bench/configs/scaling.json`): per model family, CPU seconds and peak memory against operators,
fitted as a * ops^b by least squares on logarithms. Usage: fit.py RUNS.jsonl > table.md"""
import json
import math
import re
import sys

runs = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
families = {}
for r in runs:
    if r["status"] != "ok":
        print(f"<!-- {r['model']}: {r['status']} {r.get('message', '')} -->")
        continue
    res = r["result"]
    family = re.sub(r"-\d+$", "", r["model"])
    families.setdefault(family, []).append(
        {"model": r["model"], "ops": res["operators"], "cpu": r["cpu_seconds"],
         "rss": r["peak_rss_mb"], "wall": r["wall_seconds"], "speedup": res["speedup_percent"],
         "regions": res.get("regions", {}).get("count", 1),
         "distinct": res.get("regions", {}).get("distinct", 1)})


def fit(xs, ys):
    lx = [math.log(x) for x in xs]
    ly = [math.log(y) for y in ys]
    n = len(xs)
    mx, my = sum(lx) / n, sum(ly) / n
    b = sum((a - mx) * (c - my) for a, c in zip(lx, ly)) / sum((a - mx) ** 2 for a in lx)
    return b


print("| model | operators | regions (distinct) | CPU s | peak RSS MB | wall s | speedup % |")
print("|---|---:|---:|---:|---:|---:|---:|")
for family, rows in families.items():
    rows.sort(key=lambda r: r["ops"])
    for r in rows:
        print(f"| {r['model']} | {r['ops']} | {r['regions']} ({r['distinct']}) | {r['cpu']:.1f} | "
              f"{r['rss']:.0f} | {r['wall']:.0f} | {r['speedup']:+.2f} |")
print()
print("| family | operators | CPU-time exponent | memory exponent |")
print("|---|---|---:|---:|")
for family, rows in families.items():
    if len(rows) < 2:
        continue
    ops = [r["ops"] for r in rows]
    print(f"| {family} | {min(ops)}-{max(ops)} | {fit(ops, [r['cpu'] for r in rows]):.2f} | "
          f"{fit(ops, [r['rss'] for r in rows]):.2f} |")
