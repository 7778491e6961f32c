"""Studies from Python: run a study config, read results directories as lists of dicts."""

import json

import mctsat
import pytest


TINY = {
    "name": "tiny",
    "models": ["demo"],
    "configurations": [
        {"name": "eqsat", "strategy": "eqsat", "final_extract": "dag"},
        {"name": "mcts", "strategy": "mcts", "final_extract": "dag", "taso_graph": "none",
         "mcts": {"simulations": 8, "node_limit": 1000, "max_steps": 3}}],
    "seeds": [1, 2],
    "limits": {"seconds": 60, "memory_mb": 4096},
}


def test_run_a_study_and_read_its_records(tmp_path):
    config = tmp_path / "tiny.json"
    config.write_text(json.dumps(TINY))
    out = tmp_path / "tiny"
    summary = mctsat.run_study(str(config), out=str(out), jobs=2)
    # eqsat draws no random numbers: it runs once, mcts once per seed.
    assert summary["study"] == "tiny" and summary["ran"] == summary["grid"] == 3
    assert summary["failed"] == 0
    records = mctsat.load_results(str(out))
    assert len(records) == 3 and all(r["status"] == "ok" for r in records)
    assert sorted((r["configuration"], r["seed"]) for r in records) == [
        ("eqsat", 1), ("mcts", 1), ("mcts", 2)]
    on_disk = [json.loads(line) for line in (out / "runs.jsonl").read_text().splitlines()]
    assert sorted(records, key=lambda r: r["index"]) == sorted(on_disk, key=lambda r: r["index"])
    with pytest.raises(mctsat.Error, match="already"):
        mctsat.run_study(str(config), out=str(out))
    assert mctsat.run_study(str(config), out=str(out), resume=True)["skipped"] == 3


def test_recorded_results_load(root):
    records = mctsat.load_results(str(root / "bench/results/2026-11-30-paper-loop-tiebreak"))
    assert len(records) == 90
    assert records[0]["result"]["speedup_percent"] == pytest.approx(17.227282485555495)
    with pytest.raises(mctsat.Error):
        mctsat.load_results(str(root / "no/such/dir"))
