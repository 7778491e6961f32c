// One name table per enum: an enum's user-facing names (CLI values, config values, report
// fields) are declared once, as a constexpr array of {value, name} pairs beside the enum, and
// every conversion goes through these helpers. A name not in the table is an mctsat::Error that
// lists the known names.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "support/error.hpp"

namespace mctsat {

template <typename Enum>
struct EnumName {
  Enum value;
  std::string_view name;
};

template <typename Enum, std::size_t N>
using EnumNames = std::array<EnumName<Enum>, N>;

// The name of `value`; every enumerator must be in the table (an internal error otherwise).
template <typename Enum, std::size_t N>
std::string_view name_of(const EnumNames<Enum, N>& table, Enum value) {
  for (const auto& entry : table)
    if (entry.value == value) return entry.name;
  MCTSAT_ASSERT(false && "enumerator missing from its name table");
  return {};
}

template <typename Enum, std::size_t N>
std::optional<Enum> find_name(const EnumNames<Enum, N>& table, std::string_view name) {
  for (const auto& entry : table)
    if (entry.name == name) return entry.value;
  return std::nullopt;
}

// The names in table order.
template <typename Enum, std::size_t N>
std::vector<std::string> names_of(const EnumNames<Enum, N>& table) {
  std::vector<std::string> names;
  for (const auto& entry : table) names.emplace_back(entry.name);
  return names;
}

// "a, b, c": the names for error messages and help texts.
template <typename Enum, std::size_t N>
std::string joined_names(const EnumNames<Enum, N>& table) {
  std::string out;
  for (const auto& entry : table) {
    if (!out.empty()) out += ", ";
    out += entry.name;
  }
  return out;
}

// The value named `name`; throws mctsat::Error "unknown <what> 'x' (known: a, b, c)".
template <typename Enum, std::size_t N>
Enum parse_name(const EnumNames<Enum, N>& table, std::string_view name, std::string_view what) {
  if (const auto value = find_name(table, name)) return *value;
  throw Error("unknown " + std::string(what) + " '" + std::string(name) +
              "' (known: " + joined_names(table) + ")");
}

}  // namespace mctsat
