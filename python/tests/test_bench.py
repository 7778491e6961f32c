"""Studies from Python: run a study config, read results directories as lists of dicts."""

import json

import mctsat
import pytest


def test_run_a_study_and_read_its_records(root, tmp_path):
    out = tmp_path / "smoke"
    summary = mctsat.run_study(str(root / "bench/configs/smoke.json"), out=str(out), jobs=2)
    assert summary["study"] == "smoke" and summary["ran"] == 4 and summary["failed"] == 0
    records = mctsat.load_results(str(out))
    assert len(records) == 4 and all(r["status"] == "ok" for r in records)
    assert {r["model"] for r in records} == {"demo", "bert"}
    on_disk = [json.loads(line) for line in (out / "runs.jsonl").read_text().splitlines()]
    assert sorted(records, key=lambda r: r["index"]) == sorted(on_disk, key=lambda r: r["index"])
    with pytest.raises(mctsat.Error, match="already"):
        mctsat.run_study(str(root / "bench/configs/smoke.json"), out=str(out))


def test_recorded_results_load(root):
    records = mctsat.load_results(str(root / "bench/results/2026-11-30-paper-loop-tiebreak"))
    assert len(records) == 90
    assert records[0]["result"]["speedup_percent"] == pytest.approx(17.227282485555495)
    with pytest.raises(mctsat.Error):
        mctsat.load_results(str(root / "no/such/dir"))
