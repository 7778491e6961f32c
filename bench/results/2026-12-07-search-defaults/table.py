"""Table of default-search runs: python3 table.py DIR... (each DIR holds MODEL.json, the report of
`mctsat optimize --json`, and MODEL.time, `/usr/bin/time -f "%U user %S sys %e wall %M KB"` or
`"%U %S %e %M"`). Share = the run's improvement over the best known over both rule libraries."""
import glob
import json
import os
import sys

BEST_KNOWN_MS = {
    "bert": 0.82909, "nasrnn": 0.97509, "resnext50": 1.63896, "nasneta": 5.15428,
    "resnet50": 2.16658, "inceptionv3": 2.89141, "mobilenetv2": 1.31897, "squeezenet": 0.30461,
    "vgg19": 4.29641, "ppocrv4-det": 2.62308, "ppocrv4-rec": 2.78129, "ppocr-cls": 1.38734,
}

print("| run | model | optimized (ms) | share of best known (%) | CPU s | tree search CPU s | simulations | check |")
print("|---|---|---:|---:|---:|---:|---:|---|")
for directory in sys.argv[1:]:
    for report_path in sorted(glob.glob(os.path.join(directory, "*.json"))):
        model = os.path.basename(report_path)[:-5]
        report = json.load(open(report_path))
        times = [w for w in open(report_path[:-5] + ".time").read().split()
                 if w.replace(".", "", 1).isdigit()]
        cpu = float(times[0]) + float(times[1])
        original, optimized = report["original_cost_ms"], report["optimized_cost_ms"]
        best = BEST_KNOWN_MS[model]
        nothing_to_find = original - best < 1e-5 * original
        share = 100.0 if nothing_to_find else 100 * (original - optimized) / (original - best)
        mcts = report.get("mcts", {})
        check = report.get("check", {}).get("passed", "-")
        print(f"| {os.path.basename(directory.rstrip('/'))} | {model} | {optimized:.5f} | {share:.1f} | "
              f"{cpu:.1f} | {mcts.get('cpu_seconds', 0):.1f} | {mcts.get('simulations', 0)} | {check} |")
