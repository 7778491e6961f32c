#!/usr/bin/python3
"""Usage: maskconst.py IN.onnx OUT.onnx VALUE -- set the HF extended-attention-mask multiplier
(Constant feeding Mul(Sub(1, Cast(mask)), c), -3.4028e38 = finfo.min in the export) to VALUE,
so that ORT's own AttentionFusion pattern (which expects -10000) matches."""
import sys, onnx, numpy as np
from onnx import numpy_helper
m = onnx.load(sys.argv[1]); v = float(sys.argv[3])
prod = {o: n for n in m.graph.node for o in n.output}
c = 0
for n in m.graph.node:
    if n.op_type == "Mul" and n.input[1] in prod and prod[n.input[1]].op_type == "Constant":
        p0 = prod.get(n.input[0])
        if p0 is not None and p0.op_type == "Sub":
            t = prod[n.input[1]].attribute[0].t
            if numpy_helper.to_array(t).size == 1 and numpy_helper.to_array(t) < -1e30:
                t.CopyFrom(numpy_helper.from_array(np.array(v, dtype=np.float32), t.name)); c += 1
print("changed", c); onnx.save(m, sys.argv[2])
