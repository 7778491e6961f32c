"""`pip install .` from the checkout, offline, into a fresh virtual environment with the system's
site packages (where Debian's pybind11, pytest and pandas are): `import mctsat` works there, finds
the rule library installed with it, and the `mctsat` executable comes along with the examples."""

import os
import pathlib
import subprocess
import sys


def test_pip_install_from_the_checkout_into_a_fresh_venv(root, tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip",
                    str(venv)], check=True)
    python = venv / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    # The build the tests run in (CTest sets MCTSAT_BUILD_DIR): pip rebuilds nothing there.
    env["MCTSAT_BUILD_DIR"] = os.environ.get("MCTSAT_BUILD_DIR", str(root / "build/release"))
    env["PIP_NO_INDEX"] = "1"  # nothing from the network
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    installed = subprocess.run([str(python), "-m", "pip", "install", "--no-deps", "."], cwd=root,
                               env=env, capture_output=True, text=True)
    assert installed.returncode == 0, installed.stdout + installed.stderr

    script = ("import mctsat, inspect; print(mctsat.__file__); print(mctsat.rule_library_dir()); "
              "print(mctsat.optimize('demo', strategy='eqsat').speedup_percent); "
              "print(list(inspect.signature(mctsat.load).parameters))")
    run = subprocess.run([str(python), "-c", script], cwd=tmp_path, env=env, capture_output=True,
                         text=True)
    assert run.returncode == 0, run.stderr
    module, rules, speedup, parameters = run.stdout.splitlines()
    assert pathlib.Path(module).is_relative_to(venv)  # the installed copy, not the build tree's
    assert pathlib.Path(rules) == (venv / "share/mctsat/rules").resolve()
    assert float(speedup) > 0
    assert parameters.startswith("['model'")
    assert (pathlib.Path(module).parent / "__init__.pyi").exists()

    cli = subprocess.run([str(venv / "bin" / "mctsat"), "examples", "--path"], cwd=tmp_path,
                         env=env, capture_output=True, text=True)
    assert cli.returncode == 0, cli.stderr
    assert pathlib.Path(cli.stdout.strip()).resolve() == (venv / "share/mctsat/examples").resolve()
