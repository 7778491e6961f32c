// Parsing JSON user input (graphs, configs, profiles, cost tables) with nlohmann_json, turning its
// errors into mctsat::Error at file:line:col, plus position lookup for later semantic errors.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "support/error.hpp"

namespace mctsat {

// The 1-based line and column of a byte offset in text.
SourceLocation location_of_offset(std::string_view text, std::size_t offset,
                                  const std::string& file);

// Parses text; a syntax error becomes an Error at file:line:col.
nlohmann::json parse_json_text(std::string_view text, const std::string& file);

// Where `"key": "value"` first appears in text (to point at the object a semantic error is
// about); just the file when it does not appear.
SourceLocation locate_json_string_member(std::string_view text, std::string_view key,
                                         std::string_view value, const std::string& file);

}  // namespace mctsat
