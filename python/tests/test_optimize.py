"""optimize(): registry keywords, the report as attributes, dict and CLI JSON, the optimized graph,
the exported e-graph and extract(), errors."""

import json
import re

import mctsat
import pytest

FAST = dict(simulations=8, max_steps=3, node_limit=800, taso_graph="none")


def test_every_registry_option_is_a_keyword_with_its_default():
    options = mctsat.options()
    assert len(options) >= 30
    for option in options:
        assert option["name"].replace(".", "_") in option["keywords"]
        for keyword in option["keywords"]:
            assert keyword in mctsat.optimize.__doc__
    defaults = {o["name"]: o["default"] for o in options if o["default"] is not None}
    result = mctsat.optimize("demo", strategy="eqsat",
                             **{o["keywords"][-1]: o["default"] for o in options
                                if o["default"] is not None and o["name"] != "strategy"})
    assert {k: v for k, v in result.report["options"].items() if k in defaults} == {
        **defaults, "strategy": "eqsat"}


def test_keywords_set_the_options():
    result = mctsat.optimize("demo", strategy="mcts", mcts_simulations=8, max_steps=2, seed=7,
                             node_limit=900, taso_graph="none", tie_break="fair")
    options = result.options
    assert options["mcts.simulations"] == 8 and options["mcts.max_steps"] == 2
    assert options["mcts.seed"] == 7 and options["mcts.node_limit"] == 900
    assert options["mcts.tie_break"] == "fair"
    with pytest.raises(TypeError, match="unexpected keyword argument 'simulation'"):
        mctsat.optimize("demo", simulation=8)
    with pytest.raises(TypeError, match="set the same option"):
        mctsat.optimize("demo", simulations=8, mcts_simulations=9)
    with pytest.raises(mctsat.Error, match=r"node_limit=0: 0 is out of range \(>= 1 and"):
        mctsat.optimize("demo", node_limit=0)
    with pytest.raises(mctsat.Error, match="unknown value 'best'"):
        mctsat.optimize("demo", tie_break="best")


def test_the_report_as_attributes_and_dict():
    result = mctsat.optimize("demo", strategy="eqsat")
    report = result.report
    assert report == result.to_dict() == json.loads(result.report_json)
    assert result.speedup_percent == report["speedup_percent"] > 0
    assert result.stop_reason == report["stop_reason"]
    assert result.optimized_cost_ms == pytest.approx(result.graph.cost())
    assert report["optimized_operators"] == len(result.graph.operators)
    with pytest.raises(AttributeError):
        result.no_such_key


# A timing field: a number, or an object of numbers (e.g. per thread count).
TIMING = re.compile(r'("[a-z_]*seconds"): (\{[^{}]*\}|[0-9.e+-]+)')


@pytest.mark.parametrize("args,kwargs", [
    (["--strategy", "eqsat"], dict(strategy="eqsat")),
    (["--simulations", "8", "--max-steps", "3", "--node-limit", "800", "--taso-graph", "none",
      "--tie-break", "fair", "--final-extract", "dag"],
     dict(FAST, tie_break="fair", final_extract="dag")),
    (["--strategy", "taso", "--budget", "30", "--exclude-tags", "multi"],
     dict(strategy="taso", budget=30, exclude_tags=["multi"])),
])
def test_reproduces_the_cli_report_byte_for_byte(cli, args, kwargs):
    printed = cli("optimize", "demo", *args, "--json").stdout
    result = mctsat.optimize("demo", **kwargs)
    # Timings differ between two runs; every other byte is the same.
    assert TIMING.sub(r"\1: T", result.report_json + "\n") == TIMING.sub(r"\1: T", printed)


def test_export_egraph_and_extract(cli, tmp_path):
    result = mctsat.optimize("demo", strategy="eqsat", export_egraph=True)
    assert json.loads(result.egraph)["nodes"]
    dag = mctsat.extract(result.egraph, extractor="dag")
    assert dag["dag_cost"] == pytest.approx(result.optimized_cost_ms)
    several = mctsat.extract(result.egraph, extractor=["greedy", "ilp"])
    assert [r["extractor"] for r in several] == ["greedy", "ilp"]
    assert several[1]["status"] == "optimal"
    path = tmp_path / "demo.json"
    path.write_text(result.egraph)
    printed = json.loads(cli("extract", path, "--extractor", "ilp", "--json").stdout)
    assert printed["results"][0]["dag_cost"] == several[1]["dag_cost"]
    with pytest.raises(mctsat.Error):
        mctsat.extract("{not json")
    with pytest.raises(mctsat.Error, match="taso"):
        mctsat.optimize("demo", strategy="taso", export_egraph=True)


def test_rule_selection_and_files(root):
    result = mctsat.optimize(mctsat.load(str(root / "examples/models/mlp.json")), strategy="eqsat",
                             rules=[str(root / "examples/rules")], ruleset="mine",
                             rule=["matmul-share-input"])
    assert [r["rule"] for r in result.rules_used] == ["matmul-share-input"]
    with pytest.raises(mctsat.Error, match="nope"):
        mctsat.optimize("demo", tags="nope")


def test_check_compares_outputs_as_the_cli_does(cli):
    result = mctsat.optimize("demo", strategy="eqsat", check=True)
    printed = json.loads(cli("optimize", "demo", "--strategy", "eqsat", "--check", "--json").stdout)
    assert result.check == printed["check"] and result.check["passed"]
    assert "check" not in mctsat.optimize("demo", strategy="eqsat").report


def test_measure_and_verify_rules(tmp_path):
    result = mctsat.optimize("demo", strategy="eqsat", measure=True, measure_runs=2,
                             measure_instances=1, measure_threads=1)
    assert result.measured["runs"] == 2 and result.measured["threads"] == 1
    assert "speedup_percent" in result.measured
    unsound = tmp_path / "unsound.rules"
    unsound.write_text("ruleset mine\nrule add-is-mul: (ewadd ?x ?y) => (ewmul ?x ?y)\n")
    with pytest.raises(mctsat.Error, match="add-is-mul"):
        mctsat.optimize("demo", strategy="eqsat", rules=[str(unsound)], verify_rules=True)
