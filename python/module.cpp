// The extension module mctsat._core: the C++ library's operations for Python (the package
// mctsat re-exports them; docs/python.md describes the API).
#include "python/bindings.hpp"

PYBIND11_MODULE(_core, m) {
  m.doc() = "mctsat: tensor-graph superoptimization by equality saturation and MCTS";
  m.attr("__version__") = MCTSAT_VERSION;
  mctsat::python::bind_errors(m);
  mctsat::python::bind_models(m);
  mctsat::python::bind_cost_models(m);
  mctsat::python::bind_rules(m);
  mctsat::python::bind_optimize(m);
  mctsat::python::bind_bench(m);
}
