"""Hooks: progress reports, the per-planning-step callback (early stopping), the MCTS reward hook,
their exceptions, and Ctrl-C during a search."""

import os
import signal
import threading
import time

import mctsat
import pytest

SMALL = dict(simulations=8, max_steps=6, node_limit=1500, taso_graph="none")


def test_progress_and_steps_are_reported():
    progress, steps = [], []
    result = mctsat.optimize("bert", progress=progress.append, on_step=steps.append, **SMALL)
    assert [s["step"] for s in steps] == list(range(1, result.iterations + 1))
    assert [s["cost_ms"] for s in steps] == [s["cost_ms"] for s in result.mcts["steps"]]
    assert all(s["mean_value"] > 0 and s["nodes"] > 0 and s["simulations"] > 0 for s in steps)
    assert progress[0]["step"] == 0 and len(progress) == len(steps) + 1
    assert progress[-1]["best_cost_ms"] == pytest.approx(steps[-1]["cost_ms"])
    assert all(p["phase"] == "search" and p["region"] == p["regions"] == 0 for p in progress)


def test_a_step_hook_stops_the_search():
    result = mctsat.optimize("bert", on_step=lambda step: step["step"] < 2, **SMALL)
    assert result.iterations == 2 and result.stop_reason == "stopped"


def test_the_reward_hook_replaces_the_reward():
    calls = []

    def nothing_pays(parent_cost, cost):
        calls.append((parent_cost, cost))
        return 0.0

    result = mctsat.optimize("bert", reward=nothing_pays, **SMALL)
    assert calls and result.iterations == 0 and result.stop_reason == "no improving action"
    doubled = mctsat.optimize("bert", reward=lambda p, c: 2 * max(p - c, 0.0), **SMALL)
    default = mctsat.optimize("bert", **SMALL)
    assert [s["rule"] for s in doubled.mcts["steps"]] == [s["rule"] for s in default.mcts["steps"]]
    assert doubled.optimized_cost_ms == default.optimized_cost_ms
    assert doubled.mcts["steps"][0]["mean_value"] == pytest.approx(
        2 * default.mcts["steps"][0]["mean_value"])
    with pytest.raises(mctsat.Error, match="only strategy mcts"):
        mctsat.optimize("demo", strategy="eqsat", reward=nothing_pays)


def test_hook_exceptions_reach_python():
    class Stop(Exception):
        pass

    def fail(*args):
        raise Stop("from the hook")

    for hook in ("progress", "on_step", "reward"):
        with pytest.raises(Stop, match="from the hook"):
            mctsat.optimize("bert", threads=2, **{hook: fail}, **SMALL)
    with pytest.raises(ValueError, match="reward returned nan"):
        mctsat.optimize("bert", reward=lambda p, c: float("nan"), **SMALL)


def test_ctrl_c_stops_a_search():
    timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        # Without the interrupt this runs for minutes (no step limit, a large e-graph).
        mctsat.optimize("nasrnn", strategy="mcts", node_limit=50000, max_steps=10000,
                        mcts_stop_without_gain=False, taso_graph="none", simulations=4)
    timer.join()
    assert time.monotonic() - start < 30
    # The module still works afterwards.
    assert mctsat.optimize("demo", strategy="eqsat").speedup_percent > 0


def test_the_gil_is_released_during_a_search():
    # Another Python thread notes the time as it runs. Were the GIL held for the search, it could
    # not run from the search's start to its end; released, its longest pause is the scheduler's.
    moments, running = [], [True]

    def note():
        while running[0]:
            moments.append(time.monotonic())
            time.sleep(0.001)

    thread = threading.Thread(target=note)
    thread.start()
    time.sleep(0.05)
    start = time.monotonic()
    mctsat.optimize("bert", **SMALL)  # about a second of C++ work
    end = time.monotonic()
    running[0] = False
    thread.join()
    during = [start] + [t for t in moments if start < t < end] + [end]
    longest_pause = max(b - a for a, b in zip(during, during[1:]))
    assert longest_pause < 0.5 * (end - start)
