// The parts of the Python module mctsat._core, one function per concept (each file binds one):
// errors, models, cost models, rules and verification, optimization and extraction, studies.
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace mctsat::python {

void bind_errors(pybind11::module_& m);       // python_errors.cpp
void bind_models(pybind11::module_& m);       // model_bindings.cpp
void bind_cost_models(pybind11::module_& m);  // cost_model_bindings.cpp
void bind_rules(pybind11::module_& m);        // rule_bindings.cpp
void bind_optimize(pybind11::module_& m);     // optimize_bindings.cpp
void bind_bench(pybind11::module_& m);        // bench_bindings.cpp

}  // namespace mctsat::python
