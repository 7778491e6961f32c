"""Models: zoo, ONNX files and bytes, graph JSON; nodes, shapes, attributes, costs; export."""

import mctsat
import pytest


def test_zoo_lists_the_built_in_models():
    zoo = mctsat.zoo()
    assert {"demo", "bert", "nasrnn", "squeezenet"} <= set(zoo)
    assert all(isinstance(text, str) and text for text in zoo.values())


def test_nodes_shapes_and_attributes(cli):
    model = mctsat.load("demo")
    assert model.name == "demo"
    assert len(model.operators) == model.stats()["operators"] == 10
    conv = next(node for node in model.operators if node.op == "conv2d")
    assert set(conv.attributes) == {"stride_h", "stride_w", "pad", "act"}
    assert conv.outputs[0].dtype == "f32" and len(conv.outputs[0].shape) == 4
    assert all(model.node(name).op in ("input", "weight") or True for name in conv.inputs)
    first_input = model.node(conv.inputs[0].split(":")[0])
    assert first_input.op == "input"
    # The same operators as `mctsat show --json` counts.
    import json

    shown = json.loads(cli("show", "demo", "--json").stdout)
    assert shown["operators"] == len(model.operators)


def test_costs_sum_to_the_cost_and_match_the_cli(cli):
    import json

    model = mctsat.load("squeezenet")
    costs = model.costs()
    assert sum(costs.values()) == pytest.approx(model.cost())
    shown = json.loads(cli("show", "squeezenet", "--json").stdout)
    assert model.cost() == pytest.approx(shown["cost"]["total_ms"], rel=1e-12)
    assert model.cost(device="a100") != model.cost()


def test_onnx_bytes_json_and_dot_round_trips(tmp_path):
    model = mctsat.load("demo")
    again = mctsat.from_onnx(model.to_onnx(), name="demo.onnx")
    assert len(again.operators) == len(model.operators)
    assert again.cost() == pytest.approx(model.cost())
    from_json = mctsat.from_json(model.to_json())
    assert [n.name for n in from_json.nodes] == [n.name for n in model.nodes]
    dot = model.to_dot()
    assert dot.startswith("digraph") and all(n.name in dot for n in model.operators)
    path = tmp_path / "demo.onnx"
    model.save(str(path))
    assert len(mctsat.load(str(path)).operators) == len(model.operators)


def test_errors_carry_the_cli_message(cli, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "mctsat-graph", "version": 2,\n "nodes": [}\n')
    with pytest.raises(mctsat.Error) as error:
        mctsat.load(str(bad))
    assert error.value.file == str(bad) and error.value.line == 2
    assert cli("show", bad, check=False).stderr.strip() == f"mctsat: {error.value}"
    with pytest.raises(mctsat.Error) as error:
        mctsat.load("no-such-model")
    assert cli("show", "no-such-model", check=False).stderr.strip() == f"mctsat: {error.value}"
    with pytest.raises(mctsat.Error, match="<bytes>"):
        mctsat.from_onnx(b"not a model", name="<bytes>")
    assert isinstance(error.value, ValueError)
