#!/usr/bin/python3
"""Hand rewrites of the exported (original) ONNX graphs. Usage:
  rewrite.py REWRITE IN.onnx OUT.onnx
REWRITE: qkv | attn | attn+qkv | skipbias | convmerge
  qkv       merge MatMul(+bias Add) nodes that read the same tensor with constant weights into one
            MatMul (+ one Add) + Split (HF-style separate q/k/v Linear)
  attn      replace each self-attention block by com.microsoft.Attention (fused QKV weight),
            pattern per exporter style (HF-style with additive/int mask or causal Where, torch MHA)
  skipbias  put Add(bias, MatMul) as Add(MatMul, bias) (operand order) everywhere
  convmerge merge 1x1 Convs (same input, same attrs) into one Conv + Split (CNNs)"""
import sys, numpy as np, onnx
from onnx import helper, numpy_helper, TensorProto

class G:
    def __init__(self, m):
        self.m, self.g = m, m.graph
        self.init = {i.name: i for i in self.g.initializer}
        self.n = 0
        self.refresh()
    def refresh(self):
        self.prod = {o: n for n in self.g.node for o in n.output}
        self.cons = {}
        for n in self.g.node:
            for i in n.input: self.cons.setdefault(i, []).append(n)
        for o in self.g.output: self.cons.setdefault(o.name, []).append(None)
    def const(self, name):
        """numpy value of an initializer or Constant output (through Identity), else None"""
        if name in self.init: return numpy_helper.to_array(self.init[name])
        p = self.prod.get(name)
        if p is None: return None
        if p.op_type == "Constant": return numpy_helper.to_array(p.attribute[0].t)
        if p.op_type == "Identity": return self.const(p.input[0])
        return None
    def add_init(self, arr, base):
        self.n += 1; name = f"{base}__rw{self.n}"
        t = numpy_helper.from_array(np.asarray(arr), name); self.g.initializer.append(t); self.init[name] = t
        return name
    def uniq(self, base):
        self.n += 1; return f"{base}__rw{self.n}"
    def one_consumer(self, t):
        c = self.cons.get(t, []); return c[0] if len(c) == 1 else None
    def finish(self):
        # drop dead nodes, topologically sort, drop unused initializers
        outs = {o.name for o in self.g.output}
        changed = True
        while changed:
            self.refresh(); changed = False
            keep = [n for n in self.g.node if any(o in outs or self.cons.get(o) for o in n.output)]
            if len(keep) != len(self.g.node):
                del self.g.node[:]; self.g.node.extend(keep); changed = True
        avail = {i.name for i in self.g.input} | set(self.init) | {""}
        order, pending = [], list(self.g.node)
        while pending:
            rest = []
            for n in pending:
                if all(i in avail for i in n.input): order.append(n); avail.update(n.output)
                else: rest.append(n)
            if len(rest) == len(pending): raise RuntimeError("cycle or missing input: " + str([n.name for n in rest[:3]]))
            pending = rest
        del self.g.node[:]; self.g.node.extend(order)
        used = {i for n in self.g.node for i in n.input} | outs
        keepi = [i for i in self.g.initializer if i.name in used]
        del self.g.initializer[:]; self.g.initializer.extend(keepi)
        if not any(o.domain == "com.microsoft" for o in self.m.opset_import) and any(n.domain == "com.microsoft" for n in self.g.node):
            self.m.opset_import.append(helper.make_opsetid("com.microsoft", 1))
        del self.g.value_info[:]
        return self.m

def linear_of(g, mm):
    """MatMul(X, W const 2D) [+ Add(bias const 1D)] -> (W, bias or None, final output, nodes)"""
    W = g.const(mm.input[1])
    if W is None or W.ndim != 2: return None
    add = g.one_consumer(mm.output[0])
    if add is not None and add.op_type == "Add":
        other = add.input[0] if add.input[1] == mm.output[0] else add.input[1]
        b = g.const(other)
        if b is not None and b.ndim == 1 and b.shape[0] == W.shape[1]:
            return W, b, add.output[0], [mm, add]
    return W, None, mm.output[0], [mm]

def rw_qkv(g):
    groups = {}
    for n in g.g.node:
        if n.op_type == "MatMul" and g.const(n.input[1]) is not None and g.const(n.input[0]) is None:
            groups.setdefault(n.input[0], []).append(n)
    count = 0
    for x, mms in groups.items():
        lins = [linear_of(g, mm) for mm in mms]
        lins = [l for l in lins if l is not None]
        if len(lins) < 2: continue
        # group by whether biased (all must match); same K
        if len({l[0].shape[0] for l in lins}) != 1 or len({l[1] is None for l in lins}) != 1: continue
        W = np.concatenate([l[0] for l in lins], axis=1)
        wname = g.add_init(W, "qkv_W")
        mm_out = g.uniq("qkv_mm")
        new = [helper.make_node("MatMul", [x, wname], [mm_out], name=g.uniq("qkv_MatMul"))]
        cur = mm_out
        if lins[0][1] is not None:
            bname = g.add_init(np.concatenate([l[1] for l in lins]), "qkv_b")
            cur = g.uniq("qkv_add")
            new.append(helper.make_node("Add", [mm_out, bname], [cur], name=g.uniq("qkv_Add")))
        sname = g.add_init(np.array([l[0].shape[1] for l in lins], dtype=np.int64), "qkv_split")
        new.append(helper.make_node("Split", [cur, sname], [l[2] for l in lins], axis=-1, name=g.uniq("qkv_Split")))
        for l in lins:
            for nd in l[3]: g.g.node.remove(nd)
        g.g.node.extend(new); count += 1
        g.refresh()
    print(f"qkv: merged {count} groups")

def rw_skipbias(g):
    c = 0
    for n in g.g.node:
        if n.op_type == "Add" and g.const(n.input[0]) is not None and g.const(n.input[1]) is None:
            p = g.prod.get(n.input[1])
            if p is not None and p.op_type in ("MatMul",):
                a, b = n.input[0], n.input[1]; n.input[0] = b; n.input[1] = a; c += 1
    print(f"skipbias: swapped {c} Adds")

def rw_reshape0(g):
    """attention Reshapes with concrete shapes (B,S,N,H) / (B,S,W) -> (0,0,N,H) / (0,0,W): same result
    (allowzero=0 copies the input dims), and the form ORT's AttentionFusion (CheckNodesInPathV/Q/K) requires"""
    c = 0
    for n in g.g.node:
        if n.op_type != "Reshape": continue
        shp = g.const(n.input[1])
        if shp is None: continue
        p = g.prod.get(n.input[0]); cons = g.cons.get(n.output[0], [])
        to4 = len(shp) == 4 and len(cons) == 1 and cons[0] is not None and cons[0].op_type == "Transpose"
        to3 = len(shp) == 3 and p is not None and p.op_type == "Transpose" and list(p.attribute[0].ints) == [0, 2, 1, 3]
        if to4 or to3:
            new = np.array([0, 0] + list(shp[2:]), dtype=np.int64)
            n.input[1] = g.add_init(new, "shape0"); c += 1
    print(f"reshape0: {c} Reshapes")

def rw_softmax3(g):
    """Softmax(axis=-1) on the 4D attention scores -> axis=3 (same op; ORT's fusion checks axis == 3)"""
    c = 0
    for n in g.g.node:
        if n.op_type == "Softmax":
            for a in n.attribute:
                if a.name == "axis" and a.i == -1: a.i = 3; c += 1
    print(f"softmax3: {c}")

def match_ln(g, sub):
    """decomposed LayerNorm from torch 1.13 opset 14 starting at Sub(x, ReduceMean(x)):
    returns (x, gamma, beta, eps, final Add node, nodes) or None"""
    if sub.op_type != "Sub": return None
    rm = g.prod.get(sub.input[1])
    if rm is None or rm.op_type != "ReduceMean" or rm.input[0] != sub.input[0]: return None
    x = sub.input[0]
    cs = [c for c in g.cons.get(sub.output[0], []) if c is not None]
    pw = [c for c in cs if c.op_type == "Pow"]; dv = [c for c in cs if c.op_type == "Div"]
    if len(cs) != 2 or not pw or not dv: return None
    pw, dv = pw[0], dv[0]
    rm2 = g.one_consumer(pw.output[0]); ad = g.one_consumer(rm2.output[0]) if rm2 else None
    sq = g.one_consumer(ad.output[0]) if ad else None
    if not (rm2 and rm2.op_type == "ReduceMean" and ad and ad.op_type == "Add" and sq and sq.op_type == "Sqrt" and dv.input[1] == sq.output[0]): return None
    mu = g.one_consumer(dv.output[0]); ab = g.one_consumer(mu.output[0]) if mu else None
    if not (mu and mu.op_type == "Mul" and ab and ab.op_type == "Add"): return None
    gamma = g.const(mu.input[1]); beta = g.const(ab.input[1]); eps = float(g.const(ad.input[1]))
    if gamma is None or beta is None: return None
    return x, mu.input[1], ab.input[1], eps, ab, [rm, sub, pw, rm2, ad, sq, dv, mu, ab]

def rw_skipln(g):
    """residual Add(a, Add(MatMul, bias) | MatMul) feeding a decomposed LayerNorm (and maybe other nodes)
    -> com.microsoft.SkipLayerNormalization(input, skip, gamma, beta, bias) with output 3 = the sum"""
    c = 0
    for sub in [n for n in g.g.node if n.op_type == "Sub"]:
        g.refresh()
        m = match_ln(g, sub)
        if m is None: continue
        x, gamma, beta, eps, last, nodes = m
        res = g.prod.get(x)
        if res is None or res.op_type != "Add": continue
        branch, skip, bias = None, None, None
        for i in (0, 1):
            p = g.prod.get(res.input[i])
            if p is not None and p.op_type == "Add":
                mm = [g.prod.get(t) for t in p.input]
                for j in (0, 1):
                    if mm[j] is not None and mm[j].op_type == "MatMul" and g.const(p.input[1 - j]) is not None \
                       and len(g.cons[p.output[0]]) == 1:
                        branch, bias, skip = p.input[j], p.input[1 - j], res.input[1 - i]
            if branch: break
        if branch is None: continue
        ins = [branch, skip, g.add_init(np.broadcast_to(g.const(gamma), g.const(beta).shape).copy(), "ln_g") if g.const(gamma).ndim == 0 else gamma, beta, bias]
        other = [c2 for c2 in g.cons.get(x, []) if c2 not in nodes]
        outs = [last.output[0]]
        if other: outs += ["", "", x]
        new = helper.make_node("SkipLayerNormalization", ins, outs, domain="com.microsoft", epsilon=eps, name=g.uniq("SkipLN"))
        last.output[0] = g.uniq("dead")
        if other: res.output[0] = g.uniq("dead")
        g.g.node.append(new); c += 1
    print(f"skipln: {c} SkipLayerNormalization")

def rw_resorder(g):
    """residual Add(x, Add(MatMul, bias)) -> Add(Add(MatMul, bias), x): ORT's BERT AttentionFusion
    walks the residual Add's input 0 to the projection's bias Add"""
    c = 0
    for n in g.g.node:
        if n.op_type == "Add" and len(n.input) == 2:
            p0, p1 = g.prod.get(n.input[0]), g.prod.get(n.input[1])
            if p1 is not None and p1.op_type == "Add" and any((g.prod.get(i) is not None and g.prod[i].op_type == "MatMul") for i in p1.input) \
               and not (p0 is not None and p0.op_type == "Add" and any((g.prod.get(i) is not None and g.prod[i].op_type == "MatMul") for i in p0.input)):
                a, b = n.input[0], n.input[1]; n.input[0] = b; n.input[1] = a; c += 1
    print(f"resorder: swapped {c} residual Adds")

def chain_up(g, t, ops):
    """follow producers of input 0 through ops (list of op types); return nodes or None"""
    nodes = []
    for op in ops:
        p = g.prod.get(t)
        if p is None or p.op_type != op: return None
        nodes.append(p); t = p.input[0]
    return nodes

def rw_attn(g, use_mha=False):
    """HF-style: Softmax(Add(Div(MatMul(q,k)), mask) | Where(cond, Div(..), c)) ; torch-MHA style handled separately"""
    count = 0
    for sm in [n for n in g.g.node if n.op_type == "Softmax"]:
        g.refresh()
        pre = g.prod[sm.input[0]]
        mask_bias = None; unidirectional = 0
        if pre.op_type == "Add":
            div = g.prod.get(pre.input[0]); mask_t = pre.input[1]
            if div is None or div.op_type != "Div": div = g.prod.get(pre.input[1]); mask_t = pre.input[0]
            if div is None or div.op_type != "Div": continue
        elif pre.op_type == "Where":
            div = g.prod.get(pre.input[1]); cond = g.const(pre.input[0])
            if div is None or div.op_type != "Div" or cond is None: continue
            S = cond.shape[-1]
            if not np.array_equal(cond.reshape(cond.shape[-2:]).astype(bool), np.tril(np.ones((cond.shape[-2], S), bool))): continue
            unidirectional = 1; mask_t = None
        else:
            continue
        qk = g.prod[div.input[0]]
        scale = float(g.const(div.input[1]))
        qt = g.prod[qk.input[0]]; kt = g.prod[qk.input[1]]
        pv = g.one_consumer(sm.output[0])
        if pv is None or pv.op_type != "MatMul": continue
        vt = g.prod[pv.input[1]]
        ot = g.one_consumer(pv.output[0]); orr = g.one_consumer(ot.output[0])
        if ot.op_type != "Transpose" or orr.op_type != "Reshape": continue
        lin = {}
        for nm, t, perm in (("q", qt, [0, 2, 1, 3]), ("k", kt, [0, 2, 3, 1]), ("v", vt, [0, 2, 1, 3])):
            if t.op_type != "Transpose" or list(t.attribute[0].ints) != perm: break
            r = g.prod[t.input[0]]
            shp = g.const(r.input[1])
            ad = g.prod[r.input[0]]
            mm = g.prod.get(ad.input[1]) if g.prod.get(ad.input[1]) is not None and g.prod[ad.input[1]].op_type == "MatMul" else g.prod.get(ad.input[0])
            l = linear_of(g, mm)
            if l is None or l[1] is None: break
            lin[nm] = (mm.input[0], l[0], l[1], shp)
        if len(lin) != 3 or len({v[0] for v in lin.values()}) != 1: continue
        x = lin["q"][0]; heads = int(lin["q"][3][2]); hs = int(lin["q"][3][3])
        if abs(scale - np.sqrt(hs)) > 1e-6 * scale: print("scale mismatch", scale); continue
        W = np.concatenate([lin[k][1] for k in "qkv"], axis=1); b = np.concatenate([lin[k][2] for k in "qkv"])
        ins = [x, g.add_init(W, "attn_W"), g.add_init(b, "attn_b")]
        if use_mha:   # q, k, v = X @ Wq etc. (no bias; the bias goes into MHA's packed bias input)
            qkv = []
            for k in "qkv":
                t = g.uniq("mha_" + k)
                g.g.node.append(helper.make_node("MatMul", [x, g.add_init(lin[k][1], "mha_W" + k)], [t], name=g.uniq("mha_MatMul")))
                qkv.append(t)
            ins = qkv + [g.add_init(b, "mha_b")]
        attrs = dict(num_heads=heads)
        new = []
        if mask_t is not None:
            mp = g.prod.get(mask_t)
            # HF int mask: Mul(Sub(1, Cast(Unsqueeze(Unsqueeze(mask2d)))), c) -> raw 2D int32 mask + filter value
            if mp is not None and mp.op_type == "Mul" and g.const(mp.input[1]) is not None:
                sub = g.prod[mp.input[0]]; cast = g.prod[sub.input[1]]
                un = chain_up(g, cast.input[0], ["Unsqueeze", "Unsqueeze"])
                assert sub.op_type == "Sub" and float(g.const(sub.input[0])) == 1.0 and cast.op_type == "Cast" and un
                m2 = un[1].input[0]
                key = "mask32_" + m2
                if key not in g.init and not any(key in n.output for n in g.g.node):
                    g.g.node.append(helper.make_node("Cast", [m2], [key], to=TensorProto.INT32, name=g.uniq("maskcast")))
                ins += [key]
                attrs["mask_filter_value"] = float(g.const(mp.input[1]))
            else:
                # additive float mask (B,1,1,T): attention_bias needs (B|1, N|1, S, T): Expand
                seq = int(lin["q"][3][1])
                shp = g.add_init(np.array([1, 1, seq, seq], dtype=np.int64), "mask_shape")
                e = g.uniq("mask_expanded")
                g.g.node.append(helper.make_node("Expand", [mask_t, shp], [e], name=g.uniq("maskexpand")))
                ins += (["", e] if use_mha else ["", "", e])
        if unidirectional: attrs["unidirectional"] = 1
        if use_mha: assert not unidirectional and "mask_filter_value" not in attrs
        g.g.node.append(helper.make_node("MultiHeadAttention" if use_mha else "Attention", ins, [orr.output[0]], domain="com.microsoft", name=g.uniq("Attention"), **attrs))
        # old nodes become dead (finish() removes them): detach the reshape output producer
        orr.output[0] = g.uniq("dead")
        count += 1
    print(f"attn: {count} Attention nodes")

def rw_attn_mha(g):
    """torch.nn.MultiheadAttention export (encoder-2l, vit): Transpose(x,[1,0,2]) -> MatMul(in_proj)+Add
    -> Slice x3 -> ... -> Softmax -> ... -> Reshape -> Gemm(out_proj) -> Reshape -> Transpose([1,0,2])"""
    count = 0
    for sm in [n for n in g.g.node if n.op_type == "Softmax"]:
        g.refresh()
        qk = g.prod[sm.input[0]]
        if qk.op_type != "MatMul": continue
        qdiv = g.prod[qk.input[0]]          # Div(q, sqrt(hs)) or Mul
        pv = g.one_consumer(sm.output[0])
        t4 = g.one_consumer(pv.output[0]); r3 = g.one_consumer(t4.output[0]); gemm = g.one_consumer(r3.output[0])
        r4 = g.one_consumer(gemm.output[0]); t5 = g.one_consumer(r4.output[0])
        if gemm.op_type != "Gemm" or t5.op_type != "Transpose": print("mha: tail mismatch"); continue
        # find in_proj: walk q side up to the Add
        n = qdiv
        while n.op_type != "Add": n = g.prod[n.input[0]]
        add = n; mm = g.prod[add.input[1]] if g.prod.get(add.input[1]) is not None else g.prod[add.input[0]]
        tin = g.prod[mm.input[0]]
        assert tin.op_type == "Transpose" and list(tin.attribute[0].ints) == [1, 0, 2], tin
        x = tin.input[0]
        W = g.const(mm.input[1]); b = g.const(add.input[0] if g.const(add.input[0]) is not None else add.input[1])
        D = W.shape[0]
        r = g.prod[qdiv.input[0]]
        while r.op_type != "Reshape": r = g.prod[r.input[0]]
        shp = g.const(r.input[1])   # (S, B*N, hs)
        hs = int(shp[-1]); heads = D // hs
        sc = float(g.const(qdiv.input[1])); assert (qdiv.op_type == "Div" and abs(sc - np.sqrt(hs)) < 1e-5) , (qdiv.op_type, sc)
        wo = g.const(gemm.input[1]); bo = g.const(gemm.input[2])
        assert gemm.attribute and {a.name: helper.get_attribute_value(a) for a in gemm.attribute}.get("transB") == 1
        a_out = g.uniq("attn_out")
        g.g.node.append(helper.make_node("Attention", [x, g.add_init(W, "attn_W"), g.add_init(b, "attn_b")], [a_out],
                                         domain="com.microsoft", num_heads=heads, name=g.uniq("Attention")))
        m_out = g.uniq("attn_proj")
        g.g.node.append(helper.make_node("MatMul", [a_out, g.add_init(wo.T.copy(), "out_W")], [m_out], name=g.uniq("out_MatMul")))
        g.g.node.append(helper.make_node("Add", [m_out, g.add_init(bo, "out_b")], [t5.output[0]], name=g.uniq("out_Add")))
        t5.output[0] = g.uniq("dead"); count += 1
    print(f"attn(mha): {count} Attention nodes")

def rw_convmerge(g, relu_first=False):
    groups = {}
    for n in g.g.node:
        if n.op_type == "Conv" and g.const(n.input[1]) is not None:
            W = g.const(n.input[1])
            attrs = tuple(sorted((a.name, str(helper.get_attribute_value(a))) for a in n.attribute))
            if W.shape[2:] == (1, 1) and len(n.input) == 3:
                groups.setdefault((n.input[0], attrs), []).append(n)
    c = 0
    for (x, attrs), convs in groups.items():
        if len(convs) < 2: continue
        Ws = [g.const(cv.input[1]) for cv in convs]; bs = [g.const(cv.input[2]) for cv in convs]
        out = g.uniq("merged_conv")
        nd = helper.make_node("Conv", [x, g.add_init(np.concatenate(Ws), "mW"), g.add_init(np.concatenate(bs), "mb")], [out], name=g.uniq("MergedConv"))
        nd.attribute.extend(convs[0].attribute)
        sp = g.add_init(np.array([w.shape[0] for w in Ws], dtype=np.int64), "msplit")
        outs = [cv.output[0] for cv in convs]; extra = []
        relus = [g.one_consumer(o) for o in outs]
        if relu_first and all(r is not None and r.op_type == "Relu" for r in relus):
            # Conv -> Relu -> Split (Relu is elementwise): keeps Conv+Relu fusable
            ro = g.uniq("merged_relu"); extra = [helper.make_node("Relu", [out], [ro], name=g.uniq("MergedRelu"))]
            outs = [r.output[0] for r in relus]; out = ro
            for r in relus: g.g.node.remove(r)
        sn = helper.make_node("Split", [out, sp], outs, axis=1, name=g.uniq("MergedSplit"))
        for cv in convs: g.g.node.remove(cv)
        g.g.node.extend([nd] + extra + [sn]); c += 1; g.refresh()
    print(f"convmerge: merged {c} groups")

if __name__ == "__main__":
    what, src, dst = sys.argv[1:4]
    m = onnx.load(src)
    g = G(m)
    for step in what.split("+"):
        {"qkv": rw_qkv, "attn": rw_attn, "mha": rw_attn_mha, "skipbias": rw_skipbias, "convmerge2": lambda g: rw_convmerge(g, True), "mhaop": lambda g: rw_attn(g, True), "skipln": rw_skipln, "softmax3": rw_softmax3, "reshape0": rw_reshape0, "resorder": rw_resorder, "convmerge": rw_convmerge}[step](g)
        g.finish(); g.refresh()
    onnx.checker.check_model(m) if m.ByteSize() < 2**31 - 1 else None
    onnx.save(m, dst)
    from collections import Counter
    print(dst, dict(Counter(n.op_type for n in m.graph.node)))
