#!/usr/bin/python3
"""Usage: dump.py MODEL.onnx [MAXNODES]  -- print nodes: op(inputs)->outputs, initializer shapes."""
import sys, onnx
from onnx import numpy_helper
m = onnx.load(sys.argv[1])
init = {i.name: list(i.dims) for i in m.graph.initializer}
lim = int(sys.argv[2]) if len(sys.argv) > 2 else 10**9
def nm(x):
    return f"{x}{init[x]}" if x in init else x
for i, n in enumerate(m.graph.node[:lim]):
    attrs = ",".join(f"{a.name}={onnx.helper.get_attribute_value(a)}" for a in n.attribute if a.type != onnx.AttributeProto.TENSOR)
    if n.op_type == "Constant":
        t = numpy_helper.to_array(n.attribute[0].t); attrs = str(t.tolist() if t.size < 10 else t.shape)
    print(f"{i:3d} {n.domain+'.' if n.domain else ''}{n.op_type}[{attrs}]({', '.join(map(nm, n.input))}) -> {', '.join(n.output)}")
print("inputs", [(i.name) for i in m.graph.input if i.name not in init], "outputs", [o.name for o in m.graph.output])
