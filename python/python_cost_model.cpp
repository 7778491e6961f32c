// Python cost functions, cached per operator instance (see python_cost_model.hpp).
#include "python/python_cost_model.hpp"

#include <cmath>

#include <fmt/format.h>

#include "python/bindings.hpp"
#include "study/cost_model_factory.hpp"
#include "support/cost_range.hpp"
#include "support/error.hpp"
#include "tensor/shape_inference.hpp"
#include "tensor/table_cost_model.hpp"

namespace mctsat::python {

namespace py = pybind11;

namespace {

// The operator's attributes by their catalog names (ints, int lists, floats).
py::dict attributes_dict(tensor::Op op, const tensor::Attrs& attrs) {
  const tensor::OpSignature& signature = tensor::signature(op);
  py::dict dict;
  for (std::size_t i = 0; i < attrs.size(); ++i) {
    const std::string name =
        i < signature.attr_count() ? std::string(signature.attr(i).name) : fmt::format("attr{}", i);
    std::visit([&](const auto& value) { dict[py::str(name)] = py::cast(value); }, attrs[i]);
  }
  return dict;
}

class BoundPythonCostModel final : public tensor::CostModel {
 public:
  BoundPythonCostModel(const PythonCostFunction& function, CallbackErrors& errors)
      : function_(function), errors_(errors) {}
  double cost(const tensor::OpInstance& instance) const override {
    return function_.cost(instance, errors_);
  }
  std::string name() const override { return function_.name(); }

 private:
  const PythonCostFunction& function_;
  CallbackErrors& errors_;
};

class BorrowedCostModel final : public tensor::CostModel {
 public:
  explicit BorrowedCostModel(const tensor::CostModel& model) : model_(model) {}
  double cost(const tensor::OpInstance& instance) const override { return model_.cost(instance); }
  std::string name() const override { return model_.name(); }
  tensor::RuntimeFusions runtime_fusions() const override { return model_.runtime_fusions(); }

 private:
  const tensor::CostModel& model_;
};

// The attributes of `op` from a dict by the catalog's names, in the catalog's order.
tensor::Attrs attributes_from(tensor::Op op, const py::dict& dict) {
  const tensor::OpSignature& signature = tensor::signature(op);
  tensor::Attrs attrs;
  for (std::size_t i = 0; i < signature.attr_count(); ++i) {
    const tensor::Param& param = signature.attr(i);
    const py::str name(std::string(param.name));
    if (!dict.contains(name))
      throw Error(fmt::format("{}: missing attribute '{}'", signature.name, param.name));
    const py::handle value = dict[name];
    switch (param.kind) {
      case tensor::ParamKind::kInt:
        attrs.emplace_back(value.cast<std::int64_t>());
        break;
      case tensor::ParamKind::kInts:
        attrs.emplace_back(value.cast<std::vector<std::int64_t>>());
        break;
      case tensor::ParamKind::kFloat:
        attrs.emplace_back(value.cast<double>());
        break;
      case tensor::ParamKind::kTensor:
        break;
    }
  }
  if (dict.size() != attrs.size())
    throw Error(fmt::format(
        "{}: expected the attributes {}", signature.name,
        py::repr(py::list(attributes_dict(op, attrs).attr("keys")())).cast<std::string>()));
  return attrs;
}

}  // namespace

double CostModelHandle::price(const std::string& op_name,
                              const std::vector<tensor::TensorType>& inputs,
                              const py::dict& attributes) const {
  const std::optional<tensor::Op> op = tensor::find_op(op_name);
  if (!op) throw Error(fmt::format("unknown operator '{}'", op_name));
  const tensor::Attrs attrs = attributes_from(*op, attributes);
  const tensor::InferResult types = tensor::infer_types(*op, inputs, attrs);
  if (!types.ok()) throw Error(types.error);
  CallbackErrors errors;
  return errors.run_without_gil([&] {
    return bind(errors)->cost(tensor::OpInstance{*op, inputs, attrs, types.outputs});
  });
}

double PythonCostFunction::cost(const tensor::OpInstance& instance, CallbackErrors& errors) const {
  if (tensor::signature(instance.op).view) return 0;
  const std::string key = tensor::cost_key(instance);
  {
    const std::lock_guard lock(mutex_);
    if (const auto found = cache_.find(key); found != cache_.end()) return found->second;
  }
  // With the GIL held, at most one thread calls Python: a second thread that missed the same key
  // finds it cached once it holds the GIL.
  return errors.call(
      [&] {
        {
          const std::lock_guard lock(mutex_);
          if (const auto found = cache_.find(key); found != cache_.end()) return found->second;
        }
        py::list inputs;
        for (const tensor::TensorType& type : instance.inputs) inputs.append(py::cast(type));
        const py::object result = function_(std::string(tensor::op_name(instance.op)), inputs,
                                            attributes_dict(instance.op, instance.attrs));
        const double ms = PyFloat_AsDouble(result.ptr());
        if (ms == -1.0 && PyErr_Occurred()) throw py::error_already_set();
        if (const std::string error = cost_error(ms); !error.empty()) {
          PyErr_SetString(
              PyExc_ValueError,
              fmt::format("cost model '{}' returned {} for '{}': {}; expected 0 or a number "
                          "from {:g} to {:g} (milliseconds)",
                          name_, py::repr(result).cast<std::string>(), key, error, kMinCostMs,
                          kMaxCostMs)
                  .c_str());
          throw py::error_already_set();
        }
        const std::lock_guard lock(mutex_);
        ++calls_;
        cache_.emplace(key, ms);
        return ms;
      },
      true);
}

std::size_t PythonCostFunction::calls() const {
  const std::lock_guard lock(mutex_);
  return calls_;
}

std::size_t PythonCostFunction::cached() const {
  const std::lock_guard lock(mutex_);
  return cache_.size();
}

std::unique_ptr<tensor::CostModel> CostModelHandle::bind(CallbackErrors& errors) const {
  if (builtin_) return std::make_unique<BorrowedCostModel>(*builtin_);
  return std::make_unique<BoundPythonCostModel>(*function_, errors);
}

namespace {

tensor::RuntimeFusions runtime_fusions_named(const std::string& name) {
  return parse_name(tensor::kRuntimeFusionNames, name, "runtime");
}

CostModelHandle builtin_cost_model(const study::CostModelSpec& spec) {
  if (spec.kind == study::CostModelKind::kTable && spec.table.empty())
    throw Error("cost model table needs cost_table=FILE");
  return CostModelHandle(std::shared_ptr<const tensor::CostModel>(study::make_cost_model(spec)));
}

}  // namespace

CostModelHandle cost_model_from(py::handle spec, const std::string& device,
                                const std::string& table, bool fallback) {
  if (spec.is_none() || py::isinstance<py::str>(spec)) {
    const study::CostModelKind kind =
        spec.is_none()
            ? study::CostModelKind::kRoofline
            : parse_name(study::kCostModelNames, spec.cast<std::string>(), "cost model");
    study::CostModelSpec model;
    model.kind = kind;
    model.device = device;
    model.table = table;
    model.fallback = fallback;
    return builtin_cost_model(model);
  }
  if (py::isinstance<CostModelHandle>(spec)) return spec.cast<CostModelHandle>();
  if (PyCallable_Check(spec.ptr()))
    return CostModelHandle(
        std::make_shared<PythonCostFunction>(py::reinterpret_borrow<py::function>(spec), "python"));
  throw py::type_error(
      "cost_model: expected None, a cost model's name (" + joined_names(study::kCostModelNames) +
      "), a mctsat.CostModel or a callable (op, input_types, attributes) -> ms, got " +
      py::repr(spec).cast<std::string>());
}

void bind_cost_models(py::module_& m) {
  py::class_<tensor::TensorType>(m, "TensorType",
                                 "A tensor's element type and shape, e.g. f32[64x256]")
      .def_property_readonly(
          "dtype",
          [](const tensor::TensorType& t) { return std::string(tensor::dtype_name(t.dtype)); })
      .def_property_readonly(
          "shape", [](const tensor::TensorType& t) { return py::tuple(py::cast(t.shape)); })
      .def_property_readonly("numel",
                             [](const tensor::TensorType& t) { return tensor::numel(t.shape); })
      .def(py::init([](const std::string& dtype, std::vector<std::int64_t> shape) {
             tensor::TensorType type{std::move(shape)};
             if (!tensor::parse_dtype(dtype, type.dtype))
               throw Error(fmt::format("unknown element type '{}'", dtype));
             if (const std::string error = tensor::shape_error(type.shape); !error.empty())
               throw Error(fmt::format("TensorType: {}", error));
             return type;
           }),
           py::arg("dtype"), py::arg("shape"))
      .def("__repr__", [](const tensor::TensorType& t) { return tensor::type_string(t); })
      .def("__eq__",
           [](const tensor::TensorType& a, const tensor::TensorType& b) { return a == b; });

  py::class_<CostModelHandle>(
      m, "CostModel",
      "A cost model: CostModel(function, name='python') wraps a Python function (op, "
      "input_types, attributes) -> milliseconds, called once per distinct operator instance; "
      "CostModel.roofline(device), .table(path, fallback), .measured(cache, fallback), "
      ".onnxruntime(onnxruntime, cache, fallback) are the built-in ones.")
      .def(py::init([](py::function function, std::string name) {
             return CostModelHandle(
                 std::make_shared<PythonCostFunction>(std::move(function), std::move(name)));
           }),
           py::arg("function"), py::arg("name") = "python")
      .def_static(
          "roofline",
          [](const std::string& device, const std::string& runtime_fusions) {
            return builtin_cost_model({study::CostModelKind::kRoofline, device, "", false,
                                       "", runtime_fusions_named(runtime_fusions)});
          },
          py::arg("device") = "v100", py::arg("runtime_fusions") = "none")
      .def_static(
          "table",
          [](const std::string& path, bool fallback, const std::string& device,
             const std::string& runtime_fusions) {
            return builtin_cost_model({study::CostModelKind::kTable, device, path, fallback,
                                       "", runtime_fusions_named(runtime_fusions)});
          },
          py::arg("path"), py::arg("fallback") = false, py::arg("device") = "v100",
          py::arg("runtime_fusions") = "none")
      .def_static(
          "measured",
          [](const std::string& cache, bool fallback, const std::string& runtime_fusions) {
            return builtin_cost_model({study::CostModelKind::kMeasured, "v100", cache, fallback,
                                       "", runtime_fusions_named(runtime_fusions)});
          },
          py::arg("cache") = "", py::arg("fallback") = false, py::arg("runtime_fusions") = "none")
      .def_static(
          "onnxruntime",
          [](const std::string& onnxruntime, const std::string& cache, bool fallback,
             const std::string& runtime_fusions) {
            return builtin_cost_model({study::CostModelKind::kOnnxRuntime, "v100", cache,
                                       fallback, onnxruntime,
                                       runtime_fusions_named(runtime_fusions)});
          },
          py::arg("onnxruntime") = "", py::arg("cache") = "", py::arg("fallback") = false,
          py::arg("runtime_fusions") = "none",
          "Operators timed in ONNX Runtime's profiler on this machine, cached; onnxruntime: the "
          "folder holding node_modules/onnxruntime-node (default: $MCTSAT_ONNXRUNTIME)")
      .def("__call__", &CostModelHandle::price, py::arg("op"), py::arg("input_types"),
           py::arg("attributes"),
           "The estimated milliseconds of one operator instance, e.g. to build a Python model on "
           "a built-in one: CostModel.roofline()('matmul', [TensorType('f32', [64, 256]), ...], "
           "{'act': 0})")
      .def_property_readonly("name", &CostModelHandle::name)
      .def_property_readonly(
          "calls",
          [](const CostModelHandle& h) -> py::object {
            return h.function() ? py::cast(h.function()->calls()) : py::none();
          },
          "Python models: how many times the function ran (once per distinct instance)")
      .def_property_readonly(
          "cached",
          [](const CostModelHandle& h) -> py::object {
            return h.function() ? py::cast(h.function()->cached()) : py::none();
          },
          "Python models: the distinct operator instances priced so far")
      .def("__repr__",
           [](const CostModelHandle& h) { return "<mctsat.CostModel " + h.name() + ">"; });
}

}  // namespace mctsat::python
