// Cost tables: the canonical operator key, JSON reading and writing, and lookup with an optional
// fallback model.
#include "tensor/table_cost_model.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "support/cost_range.hpp"
#include "support/error.hpp"
#include "support/files.hpp"
#include "support/json_text.hpp"

namespace mctsat::tensor {

std::string cost_key(const OpInstance& instance) {
  std::string key(op_name(instance.op));
  key += '|';
  for (std::size_t i = 0; i < instance.attrs.size(); ++i) {
    if (i > 0) key += ',';
    key += attr_string(instance.attrs[i]);
  }
  key += '|';
  for (std::size_t i = 0; i < instance.inputs.size(); ++i) {
    if (i > 0) key += ',';
    key += type_string(instance.inputs[i]);
  }
  return key;
}

namespace {

constexpr std::array<std::string_view, 5> kTableFields = {"format", "version", "machine", "unit",
                                                          "entries"};
constexpr std::array<std::string_view, 2> kEntryFields = {"key", "ms"};

template <std::size_t N>
bool known(const std::array<std::string_view, N>& fields, std::string_view key) {
  return std::find(fields.begin(), fields.end(), key) != fields.end();
}

Error table_error(const std::string& file, const std::string& message) {
  return Error(fmt::format("cost table: {}", message), SourceLocation::at(file));
}

}  // namespace

CostTable CostTable::parse(std::string_view json_text, const std::string& file) try {
  const nlohmann::json root = parse_json_text(json_text, file);
  if (!root.is_object()) throw table_error(file, "must be a JSON object");
  for (const auto& [key, value] : root.items()) {
    if (!known(kTableFields, key))
      throw table_error(file, fmt::format("unknown field '{}' (known fields: {})", key,
                                          fmt::join(kTableFields, ", ")));
  }
  const auto format = root.find("format");
  if (format == root.end() || *format != std::string(kCostTableFormat))
    throw table_error(
        file, fmt::format("field 'format' must be \"{}\"{}", kCostTableFormat,
                          format == root.end() ? "" : fmt::format(", got {}", format->dump())));
  const auto version = root.find("version");
  if (version == root.end() || *version != kCostTableVersion)
    throw table_error(
        file, fmt::format("field 'version' must be {}{}", kCostTableVersion,
                          version == root.end() ? "" : fmt::format(", got {}", version->dump())));
  if (const auto unit = root.find("unit"); unit != root.end() && *unit != "ms")
    throw table_error(file, fmt::format("field 'unit' must be \"ms\", got {}", unit->dump()));

  CostTable table;
  if (const auto machine = root.find("machine"); machine != root.end()) {
    if (!machine->is_string()) throw table_error(file, "field 'machine' must be a string");
    table.machine_ = machine->get<std::string>();
  }
  const auto entries = root.find("entries");
  if (entries == root.end() || !entries->is_array())
    throw table_error(file, "field 'entries' must be an array");

  std::map<std::string, std::size_t, std::less<>> index_of;
  for (std::size_t i = 0; i < entries->size(); ++i) {
    const nlohmann::json& entry = (*entries)[i];
    // Point at the entry's key in the text when there is one to find.
    SourceLocation where = SourceLocation::at(file);
    const auto key = entry.is_object() ? entry.find("key") : entry.end();
    const bool has_key = entry.is_object() && key != entry.end() && key->is_string();
    if (has_key) where = locate_json_string_member(json_text, "key", key->get<std::string>(), file);
    auto entry_error = [&](const std::string& message) {
      return Error(fmt::format("cost table entry {}: {}", i, message), where);
    };
    if (!entry.is_object()) throw entry_error("must be an object with \"key\" and \"ms\"");
    for (const auto& [field, value] : entry.items()) {
      if (!known(kEntryFields, field))
        throw entry_error(fmt::format("unknown field '{}' (known: key, ms)", field));
    }
    if (!has_key) throw entry_error("needs a string \"key\"");
    std::string key_text = key->get<std::string>();
    if (key_text.empty()) throw entry_error("the key is empty");
    const auto ms = entry.find("ms");
    if (ms == entry.end() || !ms->is_number()) throw entry_error("needs a number \"ms\"");
    const double value = ms->get<double>();
    if (const std::string error = cost_error(value); !error.empty())
      throw entry_error(fmt::format("\"ms\" {}: a time is 0 or from {:g} to {:g} ms", error,
                                    kMinCostMs, kMaxCostMs));
    const auto [it, inserted] = index_of.emplace(key_text, i);
    if (!inserted)
      throw entry_error(fmt::format("repeats the key of entry {}: '{}'", it->second, key_text));
    table.entries_.emplace(std::move(key_text), value);
  }
  return table;
} catch (const nlohmann::json::exception& e) {
  // A value of a type the reader did not expect: an Error naming the file, not a crash.
  throw json_error(e, file);
}

CostTable CostTable::load(const std::string& path) {
  return parse(read_text_file(path), path);
}

std::string CostTable::to_json_text() const {
  nlohmann::ordered_json root;
  root["format"] = kCostTableFormat;
  root["version"] = kCostTableVersion;
  root["machine"] = machine_;
  root["unit"] = "ms";
  nlohmann::ordered_json entries = nlohmann::ordered_json::array();
  for (const auto& [key, ms] : entries_) entries.push_back({{"key", key}, {"ms", ms}});
  root["entries"] = std::move(entries);
  return root.dump(2) + "\n";
}

void CostTable::save(const std::string& path) const {
  write_file_atomically(path, to_json_text());
}

std::optional<double> CostTable::find(std::string_view key) const {
  if (const auto it = entries_.find(key); it != entries_.end()) return it->second;
  return std::nullopt;
}

void CostTable::set(std::string key, double ms) {
  if (key.empty()) throw Error("a cost-table key must not be empty");
  if (const std::string error = cost_error(ms); !error.empty())
    throw Error(fmt::format("cost of '{}': {} (a time is 0 or from {:g} to {:g} ms)", key, error,
                            kMinCostMs, kMaxCostMs));
  entries_.insert_or_assign(std::move(key), ms);
}

double TableCostModel::cost(const OpInstance& instance) const {
  if (signature(instance.op).view) return 0;
  const std::string key = cost_key(instance);
  if (const auto ms = table_.find(key)) return *ms;
  if (fallback_) return fallback_->cost(instance);
  throw Error(fmt::format(
      "the cost table{} has no entry for '{}' (measure it, or price misses with a fallback model)",
      table_.machine().empty() ? "" : fmt::format(" of '{}'", table_.machine()), key));
}

std::string TableCostModel::name() const {
  std::string name = fmt::format("table({})", table_.machine());
  if (fallback_) name += " else " + fallback_->name();
  return name;
}

}  // namespace mctsat::tensor
