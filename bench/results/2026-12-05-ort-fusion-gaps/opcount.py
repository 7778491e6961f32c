#!/usr/bin/python3
"""Usage: opcount.py MODEL.onnx [MODEL2.onnx]  -- op-type counts (domain-qualified), side by side."""
import sys, collections, onnx
def count(p):
    m = onnx.load(p, load_external_data=False)
    c = collections.Counter()
    for n in m.graph.node:
        c[(n.domain + "." if n.domain and n.domain != "ai.onnx" else "") + n.op_type] += 1
    return c
cs = [count(p) for p in sys.argv[1:]]
keys = sorted(set().union(*cs), key=lambda k: -cs[-1].get(k, 0))
print("%-40s" % "op" + "".join("%8s" % ("orig" if i == 0 else "opt") for i in range(len(cs))))
for k in keys:
    print("%-40s" % k + "".join("%8d" % c.get(k, 0) for c in cs))
print("%-40s" % "TOTAL" + "".join("%8d" % sum(c.values()) for c in cs))
