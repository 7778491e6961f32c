#!/usr/bin/python3
"""Usage: profile.py MODEL.onnx ID [RUNS]  -- ORT level-all profile, one thread; prints the
per-op-type share of kernel time (averaged over runs after the first 5)."""
import sys, glob, json, os, collections, numpy as np, onnx
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ortc
model, mid = sys.argv[1], sys.argv[2]
runs = int(sys.argv[3]) if len(sys.argv) > 3 else 50
spec = [l.split("\t") for l in open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../tests/data/torch-models.tsv")) if l.startswith(mid + "\t")][0][4]
rng = np.random.default_rng(1); feeds = {}
for item in spec.split(";"):
    name, rest = item.rsplit("=", 1); parts = rest.split(":")
    shape = [int(d) for d in parts[1].split(",")]
    dt = {"float32": np.float32, "int64": np.int64, "int32": np.int32}[parts[0]]
    a = np.full(shape, float(parts[2])) if len(parts) > 2 else rng.uniform(-1, 1, shape)
    feeds[name] = (np.round(a) if dt != np.float32 else a).astype(dt)
m = onnx.load(model, load_external_data=False)
outs = [o.name for o in m.graph.output]
import tempfile
prefix = os.path.join(tempfile.gettempdir(), f"ortprof_{os.getpid()}")
ortc.profile(model, prefix, feeds, outs, runs)
f = sorted(glob.glob(prefix + "*.json"))[-1]
ev = json.load(open(f)); os.remove(f)
runs_seen = [e for e in ev if e.get("name") == "model_run"]
t0 = runs_seen[5]["ts"] if len(runs_seen) > 5 else 0
by_op, by_node = collections.Counter(), collections.Counter()
for e in ev:
    if e.get("cat") == "Node" and e["name"].endswith("_kernel_time") and e["ts"] >= t0:
        by_op[e["args"]["op_name"]] += e["dur"]; by_node[e["name"][:-12] + " (" + e["args"]["op_name"] + ")"] += e["dur"]
n = len(runs_seen) - 5 if len(runs_seen) > 5 else len(runs_seen)
tot = sum(by_op.values())
mr = sorted(e["dur"] for e in runs_seen[5:])
print(f"{model}: model_run median {mr[len(mr)//2]/1000:.3f} ms, kernel sum/run {tot/n/1000:.3f} ms")
for k, v in by_op.most_common(): print(f"  {k:32s} {100*v/tot:5.1f}%  {v/n/1000:.3f} ms")
if "-v" in sys.argv:
    for k, v in by_node.most_common(25): print(f"    {k:60s} {v/n/1000:.3f} ms")
