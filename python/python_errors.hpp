// Errors between C++ and Python. mctsat::Error becomes the Python exception mctsat.Error with the
// same located message the CLI prints (str(e) is "file:line:col: error: ..."), and attributes
// message, file, line, column and node. A Python exception raised inside a callback that the C++
// search calls (a cost model, a hook) cannot cross the search: CallbackErrors keeps it, a
// PythonCallbackFailed unwinds the search, and the binding re-raises the kept exception, unchanged,
// once the search has returned (so a KeyboardInterrupt or a user's own exception reaches Python).
#pragma once

#include <exception>
#include <mutex>
#include <optional>
#include <utility>

#include <pybind11/pybind11.h>

#include "support/interrupt.hpp"

namespace mctsat::python {

// Thrown through C++ code to unwind it after a Python callback raised (see CallbackErrors).
class PythonCallbackFailed : public std::exception {
 public:
  const char* what() const noexcept override { return "a Python callback raised an exception"; }
};

// The first Python exception raised by the callbacks of one call into C++. Thread-safe.
class CallbackErrors {
 public:
  // Runs `f` with the GIL held (acquired here). A Python exception it raises is kept and
  // PythonCallbackFailed thrown instead; so is a pending signal (Ctrl-C: KeyboardInterrupt) when
  // `check_signals` and this is the main thread.
  template <typename F>
  auto call(F&& f, bool check_signals = false) -> decltype(f()) {
    pybind11::gil_scoped_acquire gil;
    try {
      if (check_signals && PyErr_CheckSignals() != 0) throw pybind11::error_already_set();
      return f();
    } catch (pybind11::error_already_set& error) {
      keep(std::move(error));
      throw PythonCallbackFailed();
    }
  }

  // Runs `f` (C++ work that may call back into Python) with the GIL released, then re-raises a
  // kept Python exception. Call with the GIL held. Long waits inside `f` (an isolated CBC solve)
  // check for Ctrl-C meanwhile (support/interrupt.hpp's HostInterruptCheck): it stops the work
  // and raises KeyboardInterrupt.
  template <typename F>
  auto run_without_gil(F&& f) -> decltype(f()) {
    try {
      const HostInterruptCheck ctrl_c([this] { call([] {}, true); });
      pybind11::gil_scoped_release release;
      return f();
    } catch (const PythonCallbackFailed&) {
      raise_kept();
    }
  }

 private:
  void keep(pybind11::error_already_set&& error);
  [[noreturn]] void raise_kept();

  std::mutex mutex_;
  std::optional<pybind11::error_already_set> first_;
};

}  // namespace mctsat::python
