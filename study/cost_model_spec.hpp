// A user's choice of cost model, as data: the kinds (named once, in kCostModelNames), the spec a
// command line, a study config or Python fills, its record and default name, and the checks that
// need no model built. study/cost_model_factory.hpp builds the model. Adding a kind is one
// enumerator and its name plus one case in each switch here and in cost_model_factory.cpp (the
// compiler lists them).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "support/enum_names.hpp"
#include "tensor/cost_model.hpp"

namespace mctsat::study {

enum class CostModelKind {
  kRoofline,  // analytic, per device profile (the default)
  kTable,     // a JSON table of operator costs
  kMeasured,  // per-operator timings on this machine through oneDNN, cached
  kOnnxRuntime,  // per-operator timings on this machine in ONNX Runtime's profiler, cached
};
inline constexpr EnumNames<CostModelKind, 4> kCostModelNames{
    {{CostModelKind::kRoofline, "roofline"},
     {CostModelKind::kTable, "table"},
     {CostModelKind::kMeasured, "measured"},
     {CostModelKind::kOnnxRuntime, "onnxruntime"}}};

struct CostModelSpec {
  CostModelKind kind = CostModelKind::kRoofline;
  std::string device = "v100";  // builtin profile name or profile .json path (roofline)
  std::string table;  // cost table .json (table); measured, onnxruntime: the cache file (empty:
                      // the default)
  bool fallback = false;  // table: price missing keys with roofline instead of failing;
                          // measured, onnxruntime: price what cannot be timed with roofline
  // onnxruntime: the folder holding node_modules/onnxruntime-node (empty: $MCTSAT_ONNXRUNTIME).
  std::string onnxruntime_dir;
  // Graphs are priced as this runtime runs them (tensor/runtime_fusions.hpp), whatever the kind.
  tensor::RuntimeFusions runtime_fusions = tensor::RuntimeFusions::kNone;
};

// A short name for the model a spec describes, for studies' default cost-model names:
// "roofline-v100", "table-<table file's stem>", "measured", "onnxruntime"; "-<runtime>" appended
// for a runtime that fuses.
std::string default_cost_model_name(const CostModelSpec& spec);

// The spec as study records show it: {"model": kind, the fields that kind reads, and
// "runtime_fusions" when not "none"}.
nlohmann::json cost_model_spec_json(const CostModelSpec& spec);

// Throws mctsat::Error for an unknown device profile, a missing or malformed table, a measurement
// cache of another machine; builds no model (ONNX Runtime's folder is checked when one is built).
void check_cost_model_spec(const CostModelSpec& spec);

}  // namespace mctsat::study
