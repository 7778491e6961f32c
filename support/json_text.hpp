// Parsing JSON user input (graphs, configs, profiles, cost tables) with nlohmann_json, turning its
// errors into mctsat::Error at file:line:col, plus position lookup for later semantic errors, and
// the translation of nlohmann's errors while reading parsed values (a string where a number
// belongs, a number beyond double range) into an Error naming the file (and the JSON path when
// nlohmann's message carries one, i.e. when built with JSON_DIAGNOSTICS).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "support/error.hpp"

namespace mctsat {

// The 1-based line and column of a byte offset in text.
SourceLocation location_of_offset(std::string_view text, std::size_t offset,
                                  const std::string& file);

// The deepest nesting of arrays and objects a JSON input may have. nlohmann parses any depth,
// but writing a value (dump) recurses once per level: 200,000 levels overflowed the stack.
inline constexpr std::size_t kMaxJsonDepth = 256;

// The offset of the first `[` or `{` nested deeper than kMaxJsonDepth (outside strings), if any.
std::optional<std::size_t> json_too_deep_at(std::string_view text);

// Parses text; a syntax error, or nesting deeper than kMaxJsonDepth, becomes an Error at
// file:line:col.
nlohmann::json parse_json_text(std::string_view text, const std::string& file);

// Where `"key": "value"` first appears in text (to point at the object a semantic error is
// about); just the file when it does not appear.
SourceLocation locate_json_string_member(std::string_view text, std::string_view key,
                                         std::string_view value, const std::string& file);

// The Error for an nlohmann::json exception about `file`: its message without the
// "[json.exception.type_error.302]" prefix, saying at which JSON path when known.
Error json_error(const nlohmann::json::exception& e, const std::string& file);

// Runs `read` (code that reads fields of parsed JSON from `file`) and turns any nlohmann::json
// exception it raises into an Error at `file`. Readers check the types of the fields they know
// themselves (with messages that name the field); this catches the rest.
template <class Read>
auto read_json_fields(const std::string& file, Read&& read) -> decltype(read()) {
  try {
    return read();
  } catch (const nlohmann::json::exception& e) {
    throw json_error(e, file);
  }
}

}  // namespace mctsat
