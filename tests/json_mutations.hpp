// Seeded structural mutations of JSON documents, for tests that feed every reader of user JSON
// (e-graph JSON, study configs) values of the wrong type, out of range, missing or unexpected: the
// reader must accept the document or throw mctsat::Error, never crash or throw anything else.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/splitmix64.hpp"

namespace mctsat::testing {

// Every value of `doc` (containers included), as JSON pointers.
inline void json_pointers(const nlohmann::json& doc, const nlohmann::json::json_pointer& at,
                          std::vector<nlohmann::json::json_pointer>& out) {
  out.push_back(at);
  if (doc.is_object())
    for (const auto& [key, value] : doc.items()) json_pointers(value, at / key, out);
  else if (doc.is_array())
    for (std::size_t i = 0; i < doc.size(); ++i) json_pointers(doc[i], at / i, out);
}

// A value of some other kind: null, booleans, zero, negative, huge and fractional numbers,
// strings, empty containers.
inline nlohmann::json odd_value(SplitMix64& random) {
  switch (random.below(12)) {
    case 0:
      return nullptr;
    case 1:
      return true;
    case 2:
      return 0;
    case 3:
      return -1;
    case 4:
      return std::numeric_limits<std::uint64_t>::max();
    case 5:
      return std::numeric_limits<std::int64_t>::min();
    case 6:
      return 1e308;
    case 7:
      return 0.5;
    case 8:
      return "";
    case 9:
      return "x";
    case 10:
      return nlohmann::json::array();
    default:
      return nlohmann::json::object();
  }
}

// `edits` random edits: a value replaced by an odd one, a key or element removed, an element
// repeated, an unknown key added.
inline nlohmann::json mutate_json(nlohmann::json doc, SplitMix64& random, int edits) {
  for (int e = 0; e < edits; ++e) {
    std::vector<nlohmann::json::json_pointer> pointers;
    json_pointers(doc, nlohmann::json::json_pointer(), pointers);
    const auto& at = pointers[random.below(static_cast<std::uint32_t>(pointers.size()))];
    nlohmann::json& value = doc[at];
    switch (random.below(5)) {
      case 0:
      case 1:
        value = odd_value(random);
        break;
      case 2:
        if (value.is_object() && !value.empty()) {
          auto it = value.begin();
          std::advance(it, random.below(static_cast<std::uint32_t>(value.size())));
          value.erase(it);
        } else if (value.is_array() && !value.empty()) {
          value.erase(random.below(static_cast<std::uint32_t>(value.size())));
        }
        break;
      case 3:
        if (value.is_array() && !value.empty())
          value.push_back(value[random.below(static_cast<std::uint32_t>(value.size()))]);
        break;
      default:
        if (value.is_object()) value["unexpected"] = odd_value(random);
    }
  }
  return doc;
}

}  // namespace mctsat::testing
