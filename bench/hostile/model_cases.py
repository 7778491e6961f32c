"""Hostile ONNX models for the campaign (bench/hostile/campaign.py), built with the onnx package.

Each builder returns (model bytes, ONNX Runtime input specs NAME=DTYPE:DIMS[:FILL]) for small,
mostly valid models that exercise one import or lowering path with an odd twist:
- self-attention blocks in the forms `optimize --onnx-ops onnxruntime` lowers (Hugging Face style
  with additive, token-flag or causal masks; nn.MultiheadAttention's packed form), each with one
  variation: a wrong scale, a mask of another shape or type, an intermediate read outside the
  block, one-element dimensions, a softmax over another axis, weights without values, ...;
- decomposed layer norms after a residual sum (SkipLayerNormalization) with odd epsilons, axes
  and gamma shapes, and opset 17's LayerNormalization with odd axes, epsilons and scale shapes;
- the torch importer's paths: If and Loop reading outer-scope names, bool and int tensors, graphs
  whose nodes are not in topological order (or have a cycle, or read an undefined name).

Needs the onnx and numpy packages (Debian's python3-onnx, installed with python3-torch by
scripts/install-deps.sh).
"""

import math

import numpy as np
from onnx import TensorProto, helper, numpy_helper, shape_inference

F = TensorProto.FLOAT


def _model(nodes, inputs, outputs, inits, opset=14, extra_opsets=()):
    graph = helper.make_graph(nodes, "g", inputs, outputs, inits)
    opsets = [helper.make_opsetid("", opset)] + [helper.make_opsetid(d, v) for d, v in extra_opsets]
    model = helper.make_model(graph, opset_imports=opsets, producer_name="mctsat-hostile")
    model.ir_version = 8
    # Outputs declared without a shape get the one ONNX infers, as exporters write them (a
    # malformed model keeps the bare type).
    try:
        done = shape_inference.infer_shapes(model).graph
        inferred = {v.name: v for v in list(done.value_info) + list(done.output)}
    except Exception:  # the twist itself may defeat inference
        inferred = {}
    for output in model.graph.output:
        if not output.type.tensor_type.HasField("shape") and output.name in inferred:
            output.type.CopyFrom(inferred[output.name].type)
    return model.SerializeToString()


def _init(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


def _vi(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


def _spec(name, dtype, shape, fill=None):
    text = f"{name}={dtype}:{','.join(str(d) for d in shape)}"
    return text if fill is None else f"{text}:{fill}"


def hf_attention(B=1, S=8, H=16, N=2, scale=None, mask="none", softmax_axis=-1, leak=None,
                 weights_as_inputs=False, k_heads=None, mask_fill=-10000.0, flags_dtype="int64",
                 tri=None, v_from_other=False, perm_k=(0, 2, 3, 1), out_shape=None,
                 double_block=False, opset=14):
    """A Hugging Face-style self-attention block; the keywords are its twists."""
    rng = np.random.default_rng(0)
    h = H // N
    nodes, inits = [], []
    inputs = [_vi("x", F, [B, S, H])]
    specs = [_spec("x", "float32", [B, S, H])]
    if v_from_other:
        inputs.append(_vi("x2", F, [B, S, H]))
        specs.append(_spec("x2", "float32", [B, S, H]))

    def block(prefix, x):
        nonlocal nodes, inits
        for p in "qkv":
            w, b = f"{prefix}W{p}", f"{prefix}b{p}"
            if weights_as_inputs:
                inputs.append(_vi(w, F, [H, H]))
                inputs.append(_vi(b, F, [H]))
                specs.extend([_spec(w, "float32", [H, H]), _spec(b, "float32", [H])])
            else:
                inits.append(_init(w, rng.standard_normal((H, H)).astype(np.float32) * 0.3))
                inits.append(_init(b, rng.standard_normal(H).astype(np.float32) * 0.1))
            src = "x2" if (v_from_other and p == "v") else x
            heads = (k_heads or N) if p == "k" else N
            inits.append(_init(f"{prefix}shape_{p}", np.array([B, S, heads, H // heads],
                                                               dtype=np.int64)))
            perm = list(perm_k) if p == "k" else [0, 2, 1, 3]
            nodes += [helper.make_node("MatMul", [src, w], [f"{prefix}{p}_mm"]),
                      helper.make_node("Add", [f"{prefix}{p}_mm", b], [f"{prefix}{p}_lin"]),
                      helper.make_node("Reshape", [f"{prefix}{p}_lin", f"{prefix}shape_{p}"],
                                       [f"{prefix}{p}_split"]),
                      helper.make_node("Transpose", [f"{prefix}{p}_split"], [f"{prefix}{p}_t"],
                                       perm=perm)]
        inits.append(_init(f"{prefix}scale", np.array(
            math.sqrt(h) if scale is None else scale, dtype=np.float32)))
        nodes += [helper.make_node("MatMul", [f"{prefix}q_t", f"{prefix}k_t"], [f"{prefix}qk"]),
                  helper.make_node("Div", [f"{prefix}qk", f"{prefix}scale"], [f"{prefix}scaled"])]
        scores = f"{prefix}scaled"
        if mask.startswith("additive"):
            shape = {"additive": [B, 1, 1, S], "additive-full": [B, N, S, S],
                     "additive-square": [1, 1, S, S], "additive-rank3": [B, S, S],
                     "additive-wide": [B, N + 1, S, S]}[mask]
            if f"mask" not in [i.name for i in inputs]:
                inputs.append(_vi("mask", F, shape))
                specs.append(_spec("mask", "float32", shape))
            nodes.append(helper.make_node("Add", [scores, "mask"], [f"{prefix}masked"]))
            scores = f"{prefix}masked"
        elif mask == "flags":
            elem = {"int64": TensorProto.INT64, "int32": TensorProto.INT32,
                    "bool": TensorProto.BOOL}[flags_dtype]
            if "flags" not in [i.name for i in inputs]:
                inputs.append(_vi("flags", elem, [B, S]))
                specs.append(_spec("flags", flags_dtype, [B, S], 1))
            inits += [_init(f"{prefix}ax1", np.array([1], dtype=np.int64)),
                      _init(f"{prefix}ax2", np.array([2], dtype=np.int64)),
                      _init(f"{prefix}one", np.array(1.0, dtype=np.float32)),
                      _init(f"{prefix}fill", np.array(mask_fill, dtype=np.float32))]
            nodes += [helper.make_node("Unsqueeze", ["flags", f"{prefix}ax1"], [f"{prefix}u1"]),
                      helper.make_node("Unsqueeze", [f"{prefix}u1", f"{prefix}ax2"], [f"{prefix}u2"]),
                      helper.make_node("Cast", [f"{prefix}u2"], [f"{prefix}fl"], to=F),
                      helper.make_node("Sub", [f"{prefix}one", f"{prefix}fl"], [f"{prefix}inv"]),
                      helper.make_node("Mul", [f"{prefix}inv", f"{prefix}fill"], [f"{prefix}madd"]),
                      helper.make_node("Add", [scores, f"{prefix}madd"], [f"{prefix}masked"])]
            scores = f"{prefix}masked"
        elif mask == "causal":
            t = np.tril(np.ones((S, S), dtype=bool)) if tri is None else tri
            inits += [_init(f"{prefix}tri", t.reshape(1, 1, *t.shape)),
                      _init(f"{prefix}fill", np.array(mask_fill, dtype=np.float32))]
            nodes.append(helper.make_node("Where", [f"{prefix}tri", scores, f"{prefix}fill"],
                                          [f"{prefix}masked"]))
            scores = f"{prefix}masked"
        nodes += [helper.make_node("Softmax", [scores], [f"{prefix}probs"], axis=softmax_axis),
                  helper.make_node("MatMul", [f"{prefix}probs", f"{prefix}v_t"], [f"{prefix}ctx"]),
                  helper.make_node("Transpose", [f"{prefix}ctx"], [f"{prefix}ctx_t"],
                                   perm=[0, 2, 1, 3])]
        inits.append(_init(f"{prefix}merge", np.array(out_shape or [B, S, H], dtype=np.int64)))
        nodes.append(helper.make_node("Reshape", [f"{prefix}ctx_t", f"{prefix}merge"],
                                      [f"{prefix}y"]))
        return f"{prefix}y"

    y = block("a_", "x")
    if double_block:
        y = block("b_", y)
    outputs = [_vi(y, F, None)]
    if leak:  # an intermediate tensor of the block is also a graph output
        outputs.append(_vi("a_" + leak, F, None))
    return _model(nodes, inputs, outputs, inits, opset=opset), specs


def torch_mha(S=8, E=16, N=2, batch=1, scale=None, slice_axis=-1, swap_slices=False):
    """nn.MultiheadAttention's export at batch 1: one packed projection sliced into q, k, v."""
    rng = np.random.default_rng(1)
    h = E // N
    inits = [_init("W", rng.standard_normal((E, 3 * E)).astype(np.float32) * 0.3),
             _init("b", rng.standard_normal(3 * E).astype(np.float32) * 0.1),
             _init("axis", np.array([slice_axis], dtype=np.int64)),
             _init("scale", np.array(math.sqrt(h) if scale is None else scale, dtype=np.float32)),
             _init("split_shape", np.array([S, batch * N, h], dtype=np.int64)),
             _init("out_shape", np.array([S * batch, E], dtype=np.int64))]
    nodes = [helper.make_node("Transpose", ["x"], ["xt"], perm=[1, 0, 2]),
             helper.make_node("MatMul", ["xt", "W"], ["mm"]),
             helper.make_node("Add", ["mm", "b"], ["proj"])]
    order = [1, 0, 2] if swap_slices else [0, 1, 2]
    for part, p in zip(order, "qkv"):
        inits += [_init(f"s{p}", np.array([part * E], dtype=np.int64)),
                  _init(f"e{p}", np.array([(part + 1) * E], dtype=np.int64))]
        perm = [1, 2, 0] if p == "k" else [1, 0, 2]
        nodes += [helper.make_node("Slice", ["proj", f"s{p}", f"e{p}", "axis"], [f"{p}_sl"]),
                  helper.make_node("Reshape", [f"{p}_sl", "split_shape"], [f"{p}_r"]),
                  helper.make_node("Transpose", [f"{p}_r"], [f"{p}_t"], perm=perm)]
    nodes += [helper.make_node("Div", ["q_t", "scale"], ["q_s"]),
              helper.make_node("MatMul", ["q_s", "k_t"], ["qk"]),
              helper.make_node("Softmax", ["qk"], ["probs"], axis=-1),
              helper.make_node("MatMul", ["probs", "v_t"], ["ctx"]),
              helper.make_node("Transpose", ["ctx"], ["ctx_t"], perm=[1, 0, 2]),
              helper.make_node("Reshape", ["ctx_t", "out_shape"], ["y"])]
    return (_model(nodes, [_vi("x", F, [batch, S, E])], [_vi("y", F, None)], inits),
            [_spec("x", "float32", [batch, S, E])])


def skip_norm(B=1, S=4, H=8, epsilon=1e-5, gamma_shape=None, axes=(-1,), keepdims=1, power=2.0,
              sum_read=False, opset=14, sum_output=False):
    """A residual sum and its decomposed layer norm (mean, centre, square, mean, +eps, sqrt, /)."""
    rng = np.random.default_rng(2)
    gshape = [H] if gamma_shape is None else gamma_shape
    inits = [_init("eps", np.array(epsilon, dtype=np.float32)),
             _init("two", np.array(power, dtype=np.float32)),
             _init("gamma", rng.standard_normal(gshape).astype(np.float32)),
             _init("beta", rng.standard_normal(gshape).astype(np.float32))]
    if opset >= 18:
        inits.append(_init("axes", np.array(list(axes), dtype=np.int64)))
        reduce = lambda i, o: helper.make_node("ReduceMean", [i, "axes"], [o], keepdims=keepdims)
    else:
        reduce = lambda i, o: helper.make_node("ReduceMean", [i], [o], axes=list(axes),
                                               keepdims=keepdims)
    nodes = [helper.make_node("Add", ["a", "b"], ["sum"]), reduce("sum", "mean"),
             helper.make_node("Sub", ["sum", "mean"], ["d"]),
             helper.make_node("Pow", ["d", "two"], ["sq"]), reduce("sq", "var"),
             helper.make_node("Add", ["var", "eps"], ["ve"]),
             helper.make_node("Sqrt", ["ve"], ["std"]),
             helper.make_node("Div", ["d", "std"], ["n"]),
             helper.make_node("Mul", ["n", "gamma"], ["ng"]),
             helper.make_node("Add", ["ng", "beta"], ["y"])]
    outputs = [_vi("y", F, None)]
    if sum_read:
        nodes.append(helper.make_node("Relu", ["sum"], ["r"]))
        outputs.append(_vi("r", F, None))
    if sum_output:
        outputs.append(_vi("sum", F, None))
    return (_model(nodes, [_vi("a", F, [B, S, H]), _vi("b", F, [B, S, H])], outputs, inits,
                   opset=opset),
            [_spec("a", "float32", [B, S, H]), _spec("b", "float32", [B, S, H])])


def layer_norm17(shape=(1, 4, 8), axis=-1, epsilon=1e-5, scale_shape=None, bias=True,
                 extra_outputs=0, dtype=F, stash_type=None):
    """Opset 17's LayerNormalization with odd attributes."""
    rng = np.random.default_rng(3)
    rank = len(shape)
    norm = list(shape[(axis + rank) % rank:]) if -rank <= axis < rank else [shape[-1]]
    sshape = norm if scale_shape is None else scale_shape
    np_dtype = {F: np.float32, TensorProto.DOUBLE: np.float64, TensorProto.INT64: np.int64}[dtype]
    inits = [_init("scale", rng.standard_normal(sshape).astype(np_dtype))]
    ins = ["x", "scale"]
    if bias:
        inits.append(_init("bias", rng.standard_normal(sshape).astype(np_dtype)))
        ins.append("bias")
    outs = ["y"] + ["mean", "inv"][:extra_outputs]
    attrs = {"axis": axis, "epsilon": epsilon}
    if stash_type is not None:
        attrs["stash_type"] = stash_type
    nodes = [helper.make_node("LayerNormalization", ins, outs, **attrs),
             helper.make_node("Relu", ["y"], ["z"])]
    outputs = [_vi("z", dtype, None)] + [_vi(o, F, None) for o in outs[1:]]
    dname = {F: "float32", TensorProto.DOUBLE: "float64", TensorProto.INT64: "int64"}[dtype]
    return (_model(nodes, [_vi("x", dtype, list(shape))], outputs, inits, opset=17),
            [_spec("x", dname, list(shape))])


def control_flow(kind):
    """If and Loop as PyTorch exports them (subgraphs reading outer-scope names), with twists."""
    one = np.array(1.0, dtype=np.float32)
    inits = [_init("c1", one)]
    x = _vi("x", F, [2, 3])
    specs = [_spec("x", "float32", [2, 3])]
    if kind.startswith("if"):
        then_out, else_out = "t_out", "e_out"
        then_body = helper.make_graph([helper.make_node("Add", ["x", "c1"], [then_out])], "then",
                                      [], [_vi(then_out, F, [2, 3])])
        else_nodes = [helper.make_node("Relu", ["x"], [else_out])]
        if kind == "if-undefined":
            else_nodes = [helper.make_node("Relu", ["nowhere"], [else_out])]
        if kind == "if-shape-mismatch":
            else_nodes = [helper.make_node("ReduceSum", ["x"], [else_out], keepdims=0)]
        else_body = helper.make_graph(else_nodes, "else", [], [_vi(else_out, F, None)])
        cond = {"if-true": True, "if-false": False}.get(kind, True)
        inits.append(_init("cond", np.array(cond)))
        nodes = [helper.make_node("If", ["cond"], ["y"], then_branch=then_body,
                                  else_branch=else_body)]
        if kind == "if-cond-input":
            inits.pop()
            return (_model(nodes, [x, _vi("cond", TensorProto.BOOL, [])], [_vi("y", F, None)],
                           inits), specs + [_spec("cond", "bool", [])])
        if kind == "if-no-else":
            nodes = [helper.make_node("If", ["cond"], ["y"], then_branch=then_body)]
        return _model(nodes, [x], [_vi("y", F, None)], inits), specs
    # Loop: M trip count, cond, carried acc; body adds x (outer scope) each iteration.
    trips = {"loop": 3, "loop-zero": 0, "loop-negative": -5, "loop-huge": 2**62,
             "loop-scan-huge": 100000}.get(kind, 3)
    inits += [_init("M", np.array(trips, dtype=np.int64)), _init("cond", np.array(True))]
    body_nodes = [helper.make_node("Add", ["acc_in", "x"], ["acc_out"]),
                  helper.make_node("Identity", ["cond_in"], ["cond_out"])]
    body_outputs = [_vi("cond_out", TensorProto.BOOL, []), _vi("acc_out", F, [2, 3])]
    if kind in ("loop-scan", "loop-scan-huge"):
        body_nodes.append(helper.make_node("Identity", ["acc_out"], ["scan"]))
        body_outputs.append(_vi("scan", F, [2, 3]))
    body = helper.make_graph(body_nodes, "body",
                             [_vi("i", TensorProto.INT64, []), _vi("cond_in", TensorProto.BOOL, []),
                              _vi("acc_in", F, [2, 3])], body_outputs)
    outs = ["acc"] + (["scans"] if kind in ("loop-scan", "loop-scan-huge") else [])
    cond_name = "" if kind == "loop-no-cond" else "cond"
    nodes = [helper.make_node("Loop", ["M", cond_name, "x"], outs, body=body)]
    if kind == "loop-no-trip":
        nodes = [helper.make_node("Loop", ["", "cond", "x"], outs, body=body)]
    return _model(nodes, [x], [_vi(o, F, None) for o in outs], inits), specs


def bool_int(kind):
    """Bool and integer tensors as exporters write them (masks, comparisons, Where, Gather)."""
    nodes, inits = [], []
    inputs = [_vi("x", F, [2, 4])]
    specs = [_spec("x", "float32", [2, 4])]
    if kind == "where-compare":
        inits.append(_init("zero", np.array(0.0, dtype=np.float32)))
        nodes += [helper.make_node("Greater", ["x", "zero"], ["pos"]),
                  helper.make_node("Not", ["pos"], ["neg"]),
                  helper.make_node("And", ["pos", "neg"], ["none"]),
                  helper.make_node("Where", ["none", "x", "zero"], ["y"])]
    elif kind == "cast-bool":
        nodes += [helper.make_node("Cast", ["x"], ["b"], to=TensorProto.BOOL),
                  helper.make_node("Cast", ["b"], ["y"], to=F)]
    elif kind in ("gather", "gather-out-of-range", "gather-negative"):
        index = {"gather": [[0, 1], [3, 2]], "gather-out-of-range": [[0, 1000000000], [1, 2]],
                 "gather-negative": [[-1, -4], [-5, 0]]}[kind]
        inits.append(_init("idx", np.array(index, dtype=np.int64)))
        nodes.append(helper.make_node("Gather", ["x", "idx"], ["y"], axis=1))
    elif kind == "ids-input":  # an embedding lookup of int64 ids given as a graph input
        inits.append(_init("table", np.ones((16, 4), dtype=np.float32)))
        inputs = [_vi("ids", TensorProto.INT64, [2, 3])]
        specs = [_spec("ids", "int64", [2, 3], 3)]
        nodes.append(helper.make_node("Gather", ["table", "ids"], ["y"], axis=0))
    elif kind == "bool-output":
        inits.append(_init("zero", np.array(0.0, dtype=np.float32)))
        nodes.append(helper.make_node("Greater", ["x", "zero"], ["y"]))
        return (_model(nodes, inputs, [_vi("y", TensorProto.BOOL, None)], inits), specs)
    elif kind == "int-arith":
        nodes += [helper.make_node("Cast", ["x"], ["i"], to=TensorProto.INT64),
                  helper.make_node("Mul", ["i", "i"], ["ii"]),
                  helper.make_node("Cast", ["ii"], ["y"], to=F)]
    return _model(nodes, inputs, [_vi("y", F, None)], inits), specs


def unsorted(kind):
    """Graphs whose nodes are listed out of order, with a cycle, or reading an undefined name."""
    inits = [_init("w", np.ones((4, 4), dtype=np.float32))]
    nodes = [helper.make_node("MatMul", ["x", "w"], ["a"]),
             helper.make_node("Relu", ["a"], ["b"]),
             helper.make_node("Add", ["b", "a"], ["c"]),
             helper.make_node("Sigmoid", ["c"], ["y"])]
    if kind == "reversed":
        nodes = nodes[::-1]
    elif kind == "cycle":
        nodes[1] = helper.make_node("Relu", ["y"], ["b"])
    elif kind == "self-loop":
        nodes[1] = helper.make_node("Add", ["a", "b"], ["b"])
    elif kind == "undefined":
        nodes[2] = helper.make_node("Add", ["b", "ghost"], ["c"])
    elif kind == "two-producers":
        nodes.insert(2, helper.make_node("Tanh", ["a"], ["b"]))
    elif kind == "output-is-input":
        return (_model([], [_vi("x", F, [2, 4])], [_vi("x", F, [2, 4])], inits),
                [_spec("x", "float32", [2, 4])])
    return (_model(nodes, [_vi("x", F, [2, 4])], [_vi("y", F, None)], inits),
            [_spec("x", "float32", [2, 4])])


def cases():
    """(name, model bytes, input specs, whether a successful output is compared in ORT)."""
    out = []

    def add(name, built, compare=True):
        out.append((name, built[0], built[1], compare))

    add("attn plain", hf_attention())
    add("attn two blocks", hf_attention(double_block=True))
    add("attn batch 2", hf_attention(B=2))
    add("attn S=1", hf_attention(S=1))
    add("attn h=1", hf_attention(H=4, N=4))
    add("attn N=1", hf_attention(N=1))
    add("attn H=1", hf_attention(H=1, N=1))
    add("attn scale 1", hf_attention(scale=1.0))
    add("attn scale 0", hf_attention(scale=0.0))
    add("attn scale nan", hf_attention(scale=float("nan")))
    add("attn scale -sqrt", hf_attention(scale=-math.sqrt(8)))
    add("attn softmax axis 3", hf_attention(softmax_axis=3))
    add("attn softmax axis 2", hf_attention(softmax_axis=2))
    add("attn softmax axis -4", hf_attention(softmax_axis=-4))
    for leak in ("q_lin", "k_t", "probs", "scaled", "ctx", "qk"):
        add(f"attn leak {leak}", hf_attention(leak=leak))
    add("attn weights as inputs", hf_attention(weights_as_inputs=True))
    add("attn k heads differ", hf_attention(k_heads=4))
    add("attn cross (v from x2)", hf_attention(v_from_other=True))
    add("attn k perm 0213", hf_attention(perm_k=(0, 2, 1, 3)))
    add("attn out shape 2d", hf_attention(out_shape=[8, 16]))
    add("attn opset 13", hf_attention(opset=13))
    for m in ("additive", "additive-full", "additive-square", "additive-rank3", "additive-wide"):
        add(f"attn mask {m}", hf_attention(mask=m, B=2))
    add("attn mask additive B=1", hf_attention(mask="additive"))
    for dtype in ("int64", "int32", "bool"):
        add(f"attn flags {dtype}", hf_attention(mask="flags", flags_dtype=dtype, B=2))
    for fill in (-10000.0, float("-inf"), -3.4e38, 0.0, 1e30, float("nan")):
        add(f"attn flags fill {fill}", hf_attention(mask="flags", mask_fill=fill))
    for fill in (-10000.0, float("-inf"), -1e9, -1000.0, float("nan"), 0.0):
        add(f"attn causal fill {fill}", hf_attention(mask="causal", mask_fill=fill))
    add("attn causal upper", hf_attention(mask="causal", tri=np.triu(np.ones((8, 8), dtype=bool))))
    add("attn causal all ones", hf_attention(mask="causal", tri=np.ones((8, 8), dtype=bool)))
    add("attn causal S=1", hf_attention(mask="causal", S=1))
    add("attn causal batch 2", hf_attention(mask="causal", B=2))
    add("mha plain", torch_mha())
    add("mha batch 2", torch_mha(batch=2))
    add("mha scale 2", torch_mha(scale=2.0))
    add("mha slice axis 2", torch_mha(slice_axis=2))
    add("mha slice axis 0", torch_mha(slice_axis=0))
    add("mha swapped slices", torch_mha(swap_slices=True))
    add("mha S=1", torch_mha(S=1))
    add("mha N=1", torch_mha(N=1))
    add("skipnorm plain", skip_norm())
    add("skipnorm sum read", skip_norm(sum_read=True))
    add("skipnorm sum output", skip_norm(sum_output=True))
    for eps in (0.0, -1e-5, 1e-45, 1e30, float("inf"), float("nan")):
        add(f"skipnorm epsilon {eps}", skip_norm(epsilon=eps))
    add("skipnorm axes 1", skip_norm(axes=(1,)))
    add("skipnorm axes 1 S=1 H=1", skip_norm(axes=(1,), S=1, H=1))
    add("skipnorm axes 0 1 2", skip_norm(axes=(0, 1, 2)))
    add("skipnorm axes -1 keepdims 0", skip_norm(keepdims=0))
    add("skipnorm opset 18 axes input", skip_norm(opset=18))
    add("skipnorm power 3", skip_norm(power=3.0))
    add("skipnorm gamma [1]", skip_norm(gamma_shape=[1]))
    add("skipnorm gamma [S,H]", skip_norm(gamma_shape=[4, 8]))
    add("skipnorm H=1", skip_norm(H=1))
    for axis in (-1, -3, 0, 1, 2, 3, -4):
        add(f"layernorm axis {axis}", layer_norm17(axis=axis))
    for eps in (0.0, -1.0, 1e-45, 1e30, float("inf"), float("nan")):
        add(f"layernorm epsilon {eps}", layer_norm17(epsilon=eps))
    add("layernorm scale [1]", layer_norm17(scale_shape=[1]))
    add("layernorm scale [3]", layer_norm17(scale_shape=[3]))
    add("layernorm scale [4,8] axis -1", layer_norm17(scale_shape=[4, 8]))
    add("layernorm no bias", layer_norm17(bias=False))
    add("layernorm mean output", layer_norm17(extra_outputs=1))
    add("layernorm both outputs", layer_norm17(extra_outputs=2))
    add("layernorm rank 1", layer_norm17(shape=(8,)))
    add("layernorm double", layer_norm17(dtype=TensorProto.DOUBLE))
    add("layernorm int64", layer_norm17(dtype=TensorProto.INT64))
    add("layernorm stash 0", layer_norm17(stash_type=0))
    add("layernorm zero dim", layer_norm17(shape=(1, 0, 8)))
    for kind in ("if-true", "if-false", "if-cond-input", "if-undefined", "if-shape-mismatch",
                 "if-no-else", "loop", "loop-zero", "loop-negative", "loop-huge", "loop-scan",
                 "loop-scan-huge", "loop-no-cond", "loop-no-trip"):
        add(f"control {kind}", control_flow(kind))
    for kind in ("where-compare", "cast-bool", "gather", "gather-out-of-range",
                 "gather-negative", "ids-input", "bool-output", "int-arith"):
        add(f"tensors {kind}", bool_int(kind))
    for kind in ("reversed", "cycle", "self-loop", "undefined", "two-producers",
                 "output-is-input"):
        add(f"order {kind}", unsorted(kind))
    return out
