// Cost models for Python: a built-in one (roofline, table, measured: runtime/cost_model_factory)
// or a Python callable `f(op, input_types, attributes) -> ms` that prices operator instances.
// A Python model is cached by operator instance (tensor::cost_key: operator, attributes, input
// types), so the callable runs once per distinct instance for the model's lifetime, whichever
// search, extractor or thread asks; views are never priced (they cost 0). The callable must
// return a finite number >= 0; anything else, or an exception it raises, stops the C++ work and
// reaches Python as that exception (python_errors.hpp).
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "python/python_errors.hpp"
#include "tensor/cost_model.hpp"

namespace mctsat::python {

class PythonCostFunction {
 public:
  PythonCostFunction(pybind11::function function, std::string name)
      : function_(std::move(function)), name_(std::move(name)) {}

  // Thread-safe; the GIL must not be held by another thread waiting on this one.
  double cost(const tensor::OpInstance& instance, CallbackErrors& errors) const;
  const std::string& name() const { return name_; }
  std::size_t calls() const;
  std::size_t cached() const;

 private:
  pybind11::function function_;
  std::string name_;
  mutable std::mutex mutex_;
  mutable std::unordered_map<std::string, double> cache_;
  mutable std::size_t calls_ = 0;
};

// mctsat.CostModel: what Python passes wherever a cost model is asked for.
class CostModelHandle {
 public:
  explicit CostModelHandle(std::shared_ptr<const tensor::CostModel> builtin)
      : builtin_(std::move(builtin)) {}
  explicit CostModelHandle(std::shared_ptr<PythonCostFunction> function)
      : function_(std::move(function)) {}

  std::string name() const { return builtin_ ? builtin_->name() : function_->name(); }
  // The model for one call into C++ whose Python exceptions `errors` collects; valid while this
  // handle and `errors` live.
  std::unique_ptr<tensor::CostModel> bind(CallbackErrors& errors) const;
  const PythonCostFunction* function() const { return function_.get(); }
  // The cost of `op` applied to tensors of `inputs` with `attributes` (by the catalog's names);
  // mctsat::Error for an unknown operator, missing or extra attributes, ill-typed inputs.
  double price(const std::string& op, const std::vector<tensor::TensorType>& inputs,
               const pybind11::dict& attributes) const;

 private:
  std::shared_ptr<const tensor::CostModel> builtin_;
  std::shared_ptr<PythonCostFunction> function_;
};

// A cost model from what Python gave: None (roofline on the default device), a kind name
// ("roofline", "table", "measured", with `device`, `table` and `fallback` as `--device`,
// `--cost-table` and `--cost-fallback`), a CostModel, or a callable (wrapped in a new
// PythonCostFunction, whose cache then lasts one call).
CostModelHandle cost_model_from(pybind11::handle spec, const std::string& device = "v100",
                                const std::string& table = "", bool fallback = false);

}  // namespace mctsat::python
