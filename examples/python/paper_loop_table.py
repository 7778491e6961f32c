#!/usr/bin/env python3
"""Reproduces the README's results table ("MCTS against TENSAT's saturation") from Python.

It reads the study's records (bench/results/2026-11-30-paper-loop-tiebreak) with
mctsat.load_results, averages the speedup per model and configuration over the seeds, and prints
the README's table. With --rerun MODEL..., it also optimizes those models again with the TENSAT
configuration (saturation, seconds per model), passing each record's parameters to
mctsat.optimize as keyword arguments, and checks that the speedup is the recorded one.

    PYTHONPATH=build/release/python python3 examples/python/paper_loop_table.py --rerun bert
"""

import argparse
import pathlib
import statistics
import sys

import mctsat

ROOT = pathlib.Path(__file__).resolve().parents[2]
STUDY = ROOT / "bench/results/2026-11-30-paper-loop-tiebreak"
COLUMNS = ["tensat", "mcts-ocf-ilp-loop", "mcts-ocf-ilp-fair", "mcts-dag-ilp"]
NAMES = {"bert": "BERT", "inceptionv3": "Inception-v3", "mobilenetv2": "MobileNet-v2",
         "nasneta": "NASNet-A", "nasrnn": "NASRNN", "resnet50": "ResNet-50",
         "resnext50": "ResNeXt-50", "squeezenet": "SqueezeNet", "vgg19": "VGG-19"}


def speedup_table(records):
    """{model: {configuration: mean speedup (%) over seeds}} of the successful runs."""
    cells = {}
    for record in records:
        if record["status"] == "ok":
            cells.setdefault(record["model"], {}).setdefault(record["configuration"], []).append(
                record["result"]["speedup_percent"])
    return {model: {c: statistics.mean(v) for c, v in row.items()} for model, row in cells.items()}


def rerun(records, model):
    """The TENSAT column's run of `model`, optimized again with the recorded parameters."""
    record = next(r for r in records if r["model"] == model and r["configuration"] == "tensat")
    # Records name some options by older names (aliases: "eqsat.threads" for "threads"); the
    # registry maps every keyword to its option, which is passed once under its own name.
    option_of = {k: o["name"] for o in mctsat.options() for k in o["keywords"]}
    options = {option_of[name.replace(".", "_")].replace(".", "_"): value
               for name, value in record["parameters"].items()}
    result = mctsat.optimize(model, **options)
    return record["result"]["speedup_percent"], result.speedup_percent


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rerun", nargs="*", default=[], metavar="MODEL")
    args = parser.parse_args()
    records = mctsat.load_results(str(STUDY))
    table = speedup_table(records)
    print("| model | TENSAT (eqsat, ILP) | MCTS OCF/ILP, paper's loop "
          "| ... with `--tie-break fair` | MCTS dag/ILP (ours) |")
    print("|---|---:|---:|---:|---:|")
    for model in sorted(table):
        print(f"| {NAMES[model]} | " + " | ".join(f"{table[model][c]:.2f}" for c in COLUMNS) + " |")
    means = [statistics.mean(table[m][c] for m in table) for c in COLUMNS]
    print("| mean | " + " | ".join(f"{m:.2f}" for m in means) + " |")
    failed = False
    for model in args.rerun:
        recorded, now = rerun(records, model)
        same = abs(recorded - now) < 1e-6
        failed |= not same
        print(f"rerun {model}: recorded {recorded:.2f}%, now {now:.2f}%"
              f"{'' if same else '  DIFFERENT'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
