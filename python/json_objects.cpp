// Converting between nlohmann::json and Python objects (see json_objects.hpp).
#include "python/json_objects.hpp"

#include <string>

namespace mctsat::python {

namespace py = pybind11;
using nlohmann::json;

py::object to_python(const json& value) {
  switch (value.type()) {
    case json::value_t::null:
    case json::value_t::discarded:
      return py::none();
    case json::value_t::boolean:
      return py::bool_(value.get<bool>());
    case json::value_t::number_integer:
      return py::int_(value.get<std::int64_t>());
    case json::value_t::number_unsigned:
      return py::int_(value.get<std::uint64_t>());
    case json::value_t::number_float:
      return py::float_(value.get<double>());
    case json::value_t::string:
      return py::str(value.get_ref<const std::string&>());
    case json::value_t::array: {
      py::list list;
      for (const json& item : value) list.append(to_python(item));
      return list;
    }
    case json::value_t::object: {
      py::dict dict;
      for (const auto& [key, item] : value.items()) dict[py::str(key)] = to_python(item);
      return dict;
    }
    case json::value_t::binary:
      break;
  }
  throw py::type_error("a JSON value without a Python equivalent");
}

json from_python(py::handle value) {
  if (value.is_none()) return nullptr;
  if (py::isinstance<py::bool_>(value)) return value.cast<bool>();
  if (py::isinstance<py::int_>(value)) {
    if (value.cast<py::int_>() < py::int_(0)) return value.cast<std::int64_t>();
    return value.cast<std::uint64_t>();
  }
  if (py::isinstance<py::float_>(value)) return value.cast<double>();
  if (py::isinstance<py::str>(value)) return value.cast<std::string>();
  if (py::isinstance<py::dict>(value)) {
    json object = json::object();
    for (const auto& [key, item] : value.cast<py::dict>()) {
      if (!py::isinstance<py::str>(key))
        throw py::type_error("JSON object keys must be strings, got " +
                             py::repr(key).cast<std::string>());
      object[key.cast<std::string>()] = from_python(item);
    }
    return object;
  }
  if (py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value)) {
    json array = json::array();
    for (const auto& item : value) array.push_back(from_python(item));
    return array;
  }
  throw py::type_error("cannot be JSON: " + py::repr(value).cast<std::string>());
}

}  // namespace mctsat::python
