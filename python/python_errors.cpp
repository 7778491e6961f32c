// mctsat.Error and the callback error slot (see python_errors.hpp).
#include "python/python_errors.hpp"

#include "python/bindings.hpp"
#include "support/error.hpp"

namespace mctsat::python {

namespace py = pybind11;

void CallbackErrors::keep(py::error_already_set&& error) {
  const std::lock_guard lock(mutex_);
  if (!first_) first_.emplace(std::move(error));
}

void CallbackErrors::raise_kept() {
  std::optional<py::error_already_set> error;
  {
    const std::lock_guard lock(mutex_);
    error.swap(first_);
  }
  if (!error) throw std::logic_error("a Python callback failed without an exception");
  throw std::move(*error);
}

void bind_errors(py::module_& m) {
  static py::handle error_type = PyErr_NewExceptionWithDoc(
      "mctsat.Error",
      "An error in user input (a model, rule file, config, option), located like the CLI's "
      "messages: str(e) is 'file:line:col: error: ...'; attributes message, file, line, column, "
      "node (empty or 0 when unknown).",
      PyExc_ValueError, nullptr);
  m.attr("Error") = error_type;
  py::register_exception_translator([](std::exception_ptr thrown) {
    try {
      if (thrown) std::rethrow_exception(thrown);
    } catch (const Error& e) {
      py::object error = py::reinterpret_borrow<py::object>(error_type)(e.what());
      error.attr("message") = e.message();
      error.attr("file") = e.where().file;
      error.attr("line") = e.where().line;
      error.attr("column") = e.where().column;
      error.attr("node") = e.where().node;
      PyErr_SetObject(error_type.ptr(), error.ptr());
    }
  });
}

}  // namespace mctsat::python
