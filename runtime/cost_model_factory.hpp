// Building a cost model from its description (kind, device profile, cost table): the one place
// the command line, Python and the study library turn a user's choice of cost model into a
// CostModel. The kinds are named in one table; adding a kind is one enumerator and its name in
// kCostModelNames plus one case in each switch of cost_model_factory.cpp (the compiler lists them).
#pragma once

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "support/enum_names.hpp"
#include "tensor/cost_model.hpp"

namespace mctsat::runtime {

enum class CostModelKind {
  kRoofline,  // analytic, per device profile (the default)
  kTable,     // a JSON table of operator costs
  kMeasured,  // per-operator timings on this machine through oneDNN, cached
};
inline constexpr EnumNames<CostModelKind, 3> kCostModelNames{
    {{CostModelKind::kRoofline, "roofline"},
     {CostModelKind::kTable, "table"},
     {CostModelKind::kMeasured, "measured"}}};

struct CostModelSpec {
  CostModelKind kind = CostModelKind::kRoofline;
  std::string device = "v100";  // builtin profile name or profile .json path (roofline)
  std::string table;      // cost table .json (table); measured: the cache file (empty: the default)
  bool fallback = false;  // table: price missing keys with roofline instead of failing;
                          // measured: price what the executor cannot run with roofline
  // Graphs are priced as this runtime runs them (tensor/runtime_fusions.hpp), whatever the kind.
  tensor::RuntimeFusions runtime_fusions = tensor::RuntimeFusions::kNone;
};

// Throws mctsat::Error for an unknown device, a missing or malformed table.
std::unique_ptr<tensor::CostModel> make_cost_model(const CostModelSpec& spec);

// A short name for the model a spec describes, for studies' default cost-model names:
// "roofline-v100", "table-<table file's stem>", "measured"; "-<runtime>" appended for a runtime
// that fuses.
std::string default_cost_model_name(const CostModelSpec& spec);

// The spec as study records show it: {"model": kind, the fields that kind reads, and
// "runtime_fusions" when not "none"}.
nlohmann::json cost_model_spec_json(const CostModelSpec& spec);

}  // namespace mctsat::runtime
