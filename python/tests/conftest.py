"""Fixtures of the mctsat Python tests: the repository root and the mctsat executable (CTest sets
MCTSAT_BINARY; run by hand, the release build's), run with a result object."""

import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def root():
    return ROOT


@pytest.fixture(scope="session")
def cli():
    binary = os.environ.get("MCTSAT_BINARY", str(ROOT / "build/release/cli/mctsat"))
    assert pathlib.Path(binary).exists(), f"no mctsat executable at {binary}"

    def run(*args, check=True):
        result = subprocess.run([binary, *map(str, args)], capture_output=True, text=True, cwd=ROOT)
        if check:
            assert result.returncode == 0, result.stderr
        return result

    return run
