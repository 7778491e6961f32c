"""mctsat: tensor-graph superoptimization by equality saturation and Monte Carlo tree search.

The C++ library's operations for Python (docs/python.md): load models (`load`, `from_onnx`,
`from_json`, `zoo`), inspect and export them (`Model`), load, format and verify rules
(`load_rules`, `parse_rules`, `format_rules`, `verify`), optimize with every option of
`mctsat optimize` as a keyword argument (`optimize`, `options`), extract from e-graphs
(`extract`), price with built-in or Python cost models (`CostModel`), and run and read studies
(`run_study`, `load_results`). Errors in user input raise `mctsat.Error` with the CLI's located
message.
"""

from ._core import *  # noqa: F401,F403
from ._core import __version__  # noqa: F401
