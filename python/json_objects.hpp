// JSON values (nlohmann::json) as Python objects and back: objects <-> dicts (string keys),
// arrays <-> lists, numbers <-> int/float, strings, booleans, null <-> None. Reports, records
// and results reach Python as plain dicts this way.
#pragma once

#include <pybind11/pybind11.h>
#include <nlohmann/json.hpp>

namespace mctsat::python {

pybind11::object to_python(const nlohmann::json& value);
// Throws pybind11::type_error for a value JSON cannot hold (a set, an object, a non-string key).
nlohmann::json from_python(pybind11::handle value);

}  // namespace mctsat::python
