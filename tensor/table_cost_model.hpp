// Costs looked up in a table of per-operator timings (in ms), keyed by operator, attributes and
// input types: the storage of the measured cost model, which times operators on this machine and
// writes such tables, and a way to price graphs with timings taken elsewhere.
//
// Table JSON ("machine" and "unit" optional; the only unit is "ms"):
//   {"format": "mctsat-cost-table", "version": 1, "machine": "...", "unit": "ms",
//    "entries": [{"key": "conv2d|1,1,0,2|f32[1x64x56x56],f32[64x64x3x3]", "ms": 0.123}, ...]}
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "tensor/cost_model.hpp"

namespace mctsat::tensor {

inline constexpr std::string_view kCostTableFormat = "mctsat-cost-table";
inline constexpr int kCostTableVersion = 1;

// The canonical key of an operator instance: three '|'-separated parts,
//   op name | attributes (attr_string, joined by ',') | input types (type_string, joined by ',')
// e.g. "conv2d|1,1,0,2|f32[1x64x56x56],f32[64x64x3x3]", "relu||f32[1x64x56x56]",
// "transpose|[1,0]|f32[64x1024]". Output types are not part of it: the operator, its attributes
// and its inputs determine them (opaque operators record theirs in the output_shapes attribute;
// their id attribute makes their keys specific to one graph).
std::string cost_key(const OpInstance& instance);

// Timings by key, in milliseconds.
class CostTable {
 public:
  CostTable() = default;
  explicit CostTable(std::string machine) : machine_(std::move(machine)) {}

  // Parses table JSON; `file` names the source in errors. Malformed JSON raises mctsat::Error at
  // file:line:col; a bad entry (not an object, missing or empty key, missing, negative or
  // non-numeric ms, unknown field, repeated key) raises an Error naming the entry's index (and its
  // line when its key is readable); a wrong format, version or unit an Error naming the field.
  static CostTable parse(std::string_view json_text, const std::string& file);
  static CostTable load(const std::string& path);
  // The table as JSON text, entries sorted by key; numbers round-trip exactly.
  std::string to_json_text() const;
  // Writes to a temporary file and renames it into place: a failure leaves no half-written table.
  void save(const std::string& path) const;

  const std::string& machine() const { return machine_; }
  void set_machine(std::string machine) { machine_ = std::move(machine); }
  std::optional<double> find(std::string_view key) const;
  // Adds or replaces an entry; throws mctsat::Error for an empty key or a negative or non-finite
  // time.
  void set(std::string key, double ms);
  std::size_t size() const { return entries_.size(); }
  const std::map<std::string, double, std::less<>>& entries() const { return entries_; }

  friend bool operator==(const CostTable&, const CostTable&) = default;

 private:
  std::string machine_;
  std::map<std::string, double, std::less<>> entries_;
};

class TableCostModel final : public CostModel {
 public:
  // Without a fallback a missing key raises an Error naming the key; with one, the fallback
  // prices what the table lacks (e.g. a RooflineCostModel).
  explicit TableCostModel(CostTable table, std::shared_ptr<const CostModel> fallback = nullptr)
      : table_(std::move(table)), fallback_(std::move(fallback)) {}

  double cost(const OpInstance& instance) const override;  // views: 0 without lookup
  std::string name() const override;  // "table(<machine>)", "table(<machine>) else roofline(v100)"
  const CostTable& table() const { return table_; }
  const CostModel* fallback() const { return fallback_.get(); }

 private:
  CostTable table_;
  std::shared_ptr<const CostModel> fallback_;
};

}  // namespace mctsat::tensor
