"""`cmake --install`: the installed package imports from its site-packages folder and finds the
installed rule library, never the build tree's."""

import os
import pathlib
import shutil
import subprocess
import sys

import pytest

SCRIPT = """
import mctsat
print(mctsat.rule_library_dir())
print(mctsat.optimize("demo", strategy="eqsat").speedup_percent)
"""


def test_the_installed_package_finds_the_installed_rules(root, tmp_path):
    cmake = os.environ.get("MCTSAT_CMAKE_COMMAND", "cmake")
    build = os.environ.get("MCTSAT_BUILD_DIR", str(root / "build/release"))
    site = os.environ.get("MCTSAT_PYTHON_INSTALL_DIR",
                          f"lib/python{sys.version_info.major}.{sys.version_info.minor}/site-packages")
    prefix = tmp_path / "prefix"
    subprocess.run([cmake, "--install", build, "--prefix", str(prefix)], check=True,
                   capture_output=True)
    package = prefix / site
    rules = prefix / "share/mctsat/rules"
    assert (package / "mctsat/__init__.py").exists() and (rules / "taso").is_dir()
    env = {**os.environ, "PYTHONPATH": str(package)}
    run = lambda: subprocess.run([sys.executable, "-c", SCRIPT], cwd="/", env=env,
                                 capture_output=True, text=True)
    installed = run()
    assert installed.returncode == 0, installed.stderr
    lines = installed.stdout.splitlines()
    assert pathlib.Path(lines[0]) == rules and float(lines[1]) > 0
    shutil.rmtree(rules)
    missing = run()
    assert missing.returncode != 0 and str(rules) in missing.stderr
