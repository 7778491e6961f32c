"""mctsat: tensor-graph superoptimization by equality saturation and Monte Carlo tree search.

The C++ library's operations for Python (docs/python.md): load models (`load`, `from_onnx`,
`from_json`, `zoo`), inspect and export them (`Model`; a notebook shows a model as an SVG
drawing), load, format and verify rules (`load_rules`, `parse_rules`, `format_rules`, `verify`),
optimize with every option of `mctsat optimize` as a keyword argument (`optimize`, `options`),
extract from e-graphs (`extract`), price with built-in or Python cost models (`CostModel`), and
run and read studies (`run_study`, `load_results`, as dicts or a pandas DataFrame). Errors in
user input raise `mctsat.Error` with the CLI's located message.

The functions carry signatures (`inspect.signature`, `help`) read from the extension's own
declarations (mctsat._signatures), which also generate the package's `.pyi` stub.
"""

import functools as _functools
import importlib as _importlib
import pathlib as _pathlib
import sys as _sys
import sysconfig as _sysconfig


def _import_core():
    """The extension, or an ImportError that says which Python it was built for."""
    try:
        return _importlib.import_module(f"{__name__}._core")
    except ModuleNotFoundError as error:
        if error.name != f"{__name__}._core":
            raise
        here = _pathlib.Path(__file__).resolve().parent
        built = sorted(p.name for p in here.glob("_core*.so"))
        running = (f"Python {_sys.version_info.major}.{_sys.version_info.minor} "
                   f"({_sys.executable}, extension suffix "
                   f"{_sysconfig.get_config_var('EXT_SUFFIX')})")
        if built:
            message = (f"mctsat's extension in {here} was built for another Python: "
                       f"{', '.join(built)}; this is {running}. Run it with the Python it was "
                       f"built for, or rebuild with cmake -DPython_EXECUTABLE={_sys.executable}")
        else:
            message = (f"mctsat's extension (_core) is not in {here}: build it (cmake --build "
                       f"--preset release) and set PYTHONPATH=build/release/python, or install "
                       f"the package (pip install . or cmake --install)")
        raise ImportError(message, name=f"{__name__}._core") from None


_core = _import_core()

from ._core import *  # noqa: F401,F403,E402
from ._core import __version__  # noqa: F401,E402
from . import _signatures  # noqa: E402


def _with_signature(name, function):
    """A Python function calling `function` whose inspect.signature is the extension's."""
    parts = _signatures.signature_parts(_core, name, function)
    if parts is None:
        return function

    @_functools.wraps(function)
    def call(*args, **kwargs):
        return function(*args, **kwargs)

    call.__signature__ = _signatures.to_signature(parts)
    call.__module__ = __name__
    return call


for _name in dir(_core):
    _value = getattr(_core, _name)
    if not _name.startswith("_") and callable(_value) and not isinstance(_value, type):
        globals()[_name] = _with_signature(_name, _value)


def load_results(path: str, as_frame: bool = False):
    records = _core.load_results(path)
    if not as_frame:
        return records
    try:
        import pandas
    except ImportError:
        raise ImportError("load_results(..., as_frame=True) needs pandas (Debian: python3-pandas; "
                          "or pip install pandas)") from None
    return pandas.json_normalize(records)


load_results.__doc__ = _signatures._LOAD_RESULTS_DOC


def _result_dir(self):
    """The attributes, with every key of the report (tab completion shows them)."""
    return sorted(set(object.__dir__(self)) | set(self.report))


OptimizeResult.__dir__ = _result_dir  # noqa: F405

del _name, _value
