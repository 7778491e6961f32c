// The cost-model options shared by every command that prices graphs (--cost, --device,
// --cost-table, --cost-fallback) and the model they select.
#pragma once

#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "tensor/cost_model.hpp"

namespace mctsat::cli {

struct CostOptions {
  std::string model = "roofline";  // roofline | table | measured
  std::string device = "v100";     // builtin profile name or profile .json path
  std::string table;               // cost table .json (table), measurement cache (measured)
  bool fallback = false;           // table: price missing keys with roofline instead of failing

  void add_to(CLI::App& command);
  // Throws mctsat::Error for an unknown device, a missing or malformed table.
  std::unique_ptr<tensor::CostModel> make() const;
};

}  // namespace mctsat::cli
