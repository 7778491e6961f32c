"""What a notebook and an editor see: signatures (inspect.signature and the .pyi stub), the
report's attributes in dir(), a model drawn as SVG, results as a DataFrame, and a clear message
when the extension was built for another Python."""

import ast
import inspect
import pathlib
import shutil
import subprocess
import sys

import mctsat
import pytest


def test_functions_have_signatures():
    load = inspect.signature(mctsat.load)
    assert list(load.parameters)[:3] == ["model", "input_shapes", "input_values"]
    optimize = inspect.signature(mctsat.optimize)
    # The option registry's keywords are keyword-only parameters with their defaults.
    for option in mctsat.options():
        for keyword in option["keywords"]:
            assert keyword in optimize.parameters, keyword
            assert optimize.parameters[keyword].kind is inspect.Parameter.KEYWORD_ONLY
    assert optimize.parameters["device"].default == "v100"
    assert optimize.parameters["model"].kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
    # The wrappers still call through.
    assert mctsat.optimize("demo", strategy="eqsat").speedup_percent > 0
    with pytest.raises(TypeError):
        mctsat.optimize("demo", no_such_option=1)


def test_the_stub_declares_every_public_name():
    stub = pathlib.Path(mctsat.__file__).with_name("__init__.pyi")
    assert stub.exists() and stub.with_name("py.typed").exists()
    tree = ast.parse(stub.read_text())
    declared = {node.name for node in tree.body
                if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
    public = {name for name in dir(mctsat)
              if not name.startswith("_") and callable(getattr(mctsat, name))}
    assert public <= declared, public - declared
    functions = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
    stub_load = [a.arg for a in functions["load"].args.args]
    assert stub_load == list(inspect.signature(mctsat.load).parameters)
    assert "strategy" in [a.arg for a in functions["optimize"].args.kwonlyargs]


def test_dir_of_a_result_lists_the_report():
    result = mctsat.optimize("demo", strategy="eqsat")
    names = dir(result)
    for key in result.report:
        assert key in names
        getattr(result, key)
    assert "graph" in names and "to_dict" in names


def test_a_model_draws_itself_as_svg():
    model = mctsat.load("demo")
    svg = model._repr_svg_()
    assert svg.lstrip().startswith(("<?xml", "<svg")) and "</svg>" in svg
    assert model.to_svg() == svg


def test_load_results_as_a_dataframe(root):
    pandas = pytest.importorskip("pandas")
    path = str(root / "bench/results/2026-12-01-taso-graph")
    records = mctsat.load_results(path)
    frame = mctsat.load_results(path, as_frame=True)
    assert isinstance(frame, pandas.DataFrame)
    assert len(frame) == len(records) > 0
    assert "configuration" in frame.columns
    assert any(c.startswith("result.") for c in frame.columns)  # nested keys flattened


def test_an_extension_for_another_python_gets_a_clear_message(tmp_path):
    package = pathlib.Path(mctsat.__file__).parent
    copy = tmp_path / "mctsat"
    copy.mkdir()
    for path in package.glob("*.py"):
        shutil.copy(path, copy)
    (copy / "_core.cpython-39-x86_64-linux-gnu.so").write_bytes(b"")
    result = subprocess.run([sys.executable, "-c", "import mctsat"], cwd=tmp_path,
                            capture_output=True, text=True, env={"PYTHONPATH": str(tmp_path)})
    assert result.returncode != 0
    assert "built for another Python" in result.stderr, result.stderr
    assert "_core.cpython-39-x86_64-linux-gnu.so" in result.stderr
    assert f"Python {sys.version_info.major}.{sys.version_info.minor}" in result.stderr
