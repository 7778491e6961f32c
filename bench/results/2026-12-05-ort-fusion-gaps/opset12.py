#!/usr/bin/python3
"""Usage: opset12.py IN.onnx OUT.onnx -- relabel an opset-14 torch export as opset 12 (Unsqueeze axes
input -> attribute, Reshape allowzero dropped; other ops here have the same semantics), to test whether
ORT 1.20's BERT AttentionFusion, which only matches Add-7/13, Cast-9 and Unsqueeze-1/11, then fires."""
import sys, onnx
from onnx import helper, numpy_helper
m = onnx.load(sys.argv[1]); g = m.graph
init = {i.name: numpy_helper.to_array(i) for i in g.initializer}
consts = {n.output[0]: numpy_helper.to_array(n.attribute[0].t) for n in g.node if n.op_type == "Constant"}
for n in g.node:
    if n.op_type in ("Unsqueeze", "Squeeze") and len(n.input) == 2:
        ax = init.get(n.input[1], consts.get(n.input[1]))
        del n.input[1]; n.attribute.append(helper.make_attribute("axes", [int(a) for a in ax.reshape(-1)]))
    if n.op_type == "Reshape":
        keep = [a for a in n.attribute if a.name != "allowzero"]; del n.attribute[:]; n.attribute.extend(keep)
    assert n.op_type not in ("Split", "ReduceSum"), n.op_type
for o in m.opset_import:
    if o.domain in ("", "ai.onnx"): o.version = 12
m.ir_version = 7
onnx.save(m, sys.argv[2])
