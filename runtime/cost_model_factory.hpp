// Building a cost model from its description (kind, device profile, cost table): the one place
// the command line and the study library turn a user's choice of cost model into a CostModel.
#pragma once

#include <memory>
#include <string>

#include "tensor/cost_model.hpp"

namespace mctsat::runtime {

struct CostModelSpec {
  std::string model = "roofline";  // roofline | table | measured
  std::string device = "v100";     // builtin profile name or profile .json path (roofline)
  std::string table;      // cost table .json (table); measured: the cache file (empty: the default)
  bool fallback = false;  // table: price missing keys with roofline instead of failing;
                          // measured: price what the executor cannot run with roofline
};

// Throws mctsat::Error for an unknown kind or device, a missing or malformed table.
std::unique_ptr<tensor::CostModel> make_cost_model(const CostModelSpec& spec);

}  // namespace mctsat::runtime
