"""Hostile values through Python: tensor types, option ranges, extract()'s options, a batch of
2^64 - 1 simulations, and Ctrl-C during an ILP solve (issue 38)."""

import os
import pathlib
import signal
import threading
import time

import pytest

import mctsat


def test_tensor_types_are_checked():
    T = mctsat.TensorType
    assert T("f32", [2, 3]).numel == 6
    with pytest.raises(mctsat.Error, match="more than 2\\^40 elements"):
        T("f32", [2**62, 2**62])
    with pytest.raises(mctsat.Error, match="dimension -4 is not positive"):
        T("f32", [3, -4])
    with pytest.raises(mctsat.Error, match="dimension 0 is not positive"):
        T("f32", [0])


def test_extract_checks_its_options_as_optimize_does():
    egraph = mctsat.optimize("demo", strategy="greedy", export_egraph=True).egraph
    for keyword, value in (("ilp_seconds", -1), ("ilp_seconds", 0), ("ilp_seconds", float("nan")),
                           ("dag_restarts", -1), ("dag_restarts", 100001)):
        with pytest.raises(mctsat.Error, match=keyword):
            mctsat.extract(egraph, extractor="dag", **{keyword: value})
    assert mctsat.extract(egraph, extractor="dag", ilp_seconds=0.5)["dag_cost"] > 0


def test_huge_counts_are_range_errors_or_run_within_limits():
    with pytest.raises(mctsat.Error, match="node_limit"):
        mctsat.optimize("demo", node_limit=2**32)
    # A batch larger than the simulations runs as many as there are (no allocation by the batch).
    result = mctsat.optimize("demo", batch=2**64 - 1, simulations=4, max_steps=2)
    assert result.optimized_cost_ms <= result.original_cost_ms


def _chain_egraph(classes):
    nodes = ['"n0": {"op": "x", "children": [], "eclass": "c0"}']
    nodes += [f'"n{i}": {{"op": "f", "children": ["n{i - 1}"], "eclass": "c{i}"}}'
              for i in range(1, classes)]
    return '{"nodes": {' + ", ".join(nodes) + f'}}, "root_eclasses": ["c{classes - 1}"]}}'


def _children():
    path = pathlib.Path(f"/proc/{os.getpid()}/task/{threading.main_thread().native_id}/children")
    return path.read_text().split()


def test_ctrl_c_stops_an_ilp_solve_at_once():
    # CBC's presolve of a chain of 50,000 classes takes far longer than the wait for its process.
    egraph = _chain_egraph(50000)
    started = threading.Event()

    def interrupt_once_cbc_runs():
        for _ in range(600):
            if _children():
                break
            time.sleep(0.1)
        started.set()
        os.kill(os.getpid(), signal.SIGINT)

    threading.Thread(target=interrupt_once_cbc_runs, daemon=True).start()
    begin = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        mctsat.extract(egraph, extractor="ilp", ilp_seconds=3600)
    assert started.is_set()
    # Not the hour of ilp_seconds (a bound no machine comes near), and no CBC process left.
    assert time.monotonic() - begin < 600
    assert _children() == []
