"""Cost models written in Python: used by the search and every extractor, called once per
distinct operator instance, exceptions reach Python, and they change what the search picks."""

import mctsat
import pytest

ROOFLINE = mctsat.CostModel.roofline()


def test_called_once_per_distinct_instance():
    seen = []

    def cost(op, inputs, attributes):
        seen.append((op, tuple(map(repr, inputs)), tuple(sorted(attributes.items(), key=str))))
        return 1e-6 * sum(t.numel for t in inputs)

    model = mctsat.CostModel(cost, name="numel")
    result = mctsat.optimize("demo", cost_model=model, threads=2, **{"simulations": 8,
                             "max_steps": 3, "node_limit": 800, "taso_graph": "none"})
    assert result.cost_model == "numel"
    assert model.calls == model.cached == len(seen) == len(set(seen)) > 0
    calls = model.calls
    for extractor in ("greedy", "paper", "dag", "ilp", "beam"):
        mctsat.optimize("demo", strategy="eqsat", cost_model=model, final_extract=extractor)
    mctsat.load("demo").cost(model)
    assert model.calls == len(seen) >= calls  # new instances only; no instance twice
    assert len(seen) == len(set(seen))


def test_a_python_model_changes_the_chosen_graph():
    # Roofline fuses ReLUs into convolutions; a model that makes fused activations expensive and
    # ReLU free keeps them apart.
    def no_fusion(op, inputs, attributes):
        if op == "relu":
            return 0.0
        return 1.0 if attributes.get("act", 0) != 0 else 0.01

    roofline = mctsat.optimize("demo", strategy="eqsat")
    mine = mctsat.optimize("demo", strategy="eqsat", cost_model=no_fusion)
    ops = lambda result: result.graph.stats()["by_op"]
    assert ops(roofline).get("relu", 0) < ops(mine).get("relu", 0)
    fused = lambda result: sum(1 for n in result.graph.operators if n.attributes.get("act", 0))
    assert fused(roofline) > fused(mine) == 0


class Refused(Exception):
    pass


def test_an_exception_stops_the_search_and_reaches_python():
    def refuse(op, inputs, attributes):
        if op == "matmul":
            raise Refused(op)
        return ROOFLINE_COSTS.get(op, 0.01)

    ROOFLINE_COSTS = {}
    for strategy in ("eqsat", "mcts", "taso"):
        with pytest.raises(Refused, match="matmul"):
            mctsat.optimize("demo", strategy=strategy, cost_model=refuse, threads=2,
                            simulations=8, budget=20)
    for refused in (-1.0, 5e-324, 1e308, float("nan")):
        # A denormal cost made CBC abort; 1e308 made sums infinite.
        with pytest.raises(ValueError, match="expected 0 or a number from 1e-10 to 1e"):
            mctsat.optimize("demo", strategy="eqsat", cost_model=lambda op, i, a: refused,
                            final_extract="ilp")
    with pytest.raises(TypeError):
        mctsat.load("demo").cost(lambda op, i, a: "fast")
    with pytest.raises(TypeError):
        mctsat.optimize("demo", cost_model=42)


def test_built_in_models_price_one_instance():
    T = mctsat.TensorType
    matmul = ROOFLINE("matmul", [T("f32", [64, 256]), T("f32", [256, 256])], {"act": 0})
    assert matmul > 0
    assert ROOFLINE("matmul", [T("f32", [64, 256]), T("f32", [256, 512])], {"act": 0}) > matmul
    with pytest.raises(mctsat.Error, match="inner dimensions differ"):
        ROOFLINE("matmul", [T("f32", [64, 256]), T("f32", [3, 256])], {"act": 0})
    with pytest.raises(mctsat.Error, match="missing attribute 'act'"):
        ROOFLINE("matmul", [T("f32", [64, 256]), T("f32", [256, 256])], {})
    with pytest.raises(mctsat.Error, match="unknown operator"):
        ROOFLINE("nosuchop", [], {})
    # A Python model that returns roofline's costs finds roofline's graph.
    python = mctsat.CostModel(lambda op, inputs, attrs: ROOFLINE(op, inputs, attrs))
    fast = dict(simulations=8, max_steps=3, node_limit=800, taso_graph="none")
    built_in = mctsat.optimize("demo", **fast)
    mirrored = mctsat.optimize("demo", cost_model=python, **fast)
    assert mirrored.optimized_cost_ms == built_in.optimized_cost_ms
    assert mirrored.graph.to_json() == built_in.graph.to_json()
