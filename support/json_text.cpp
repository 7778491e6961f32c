// JSON parsing with source positions for error messages.
#include "support/json_text.hpp"

#include <fmt/format.h>

namespace mctsat {

SourceLocation location_of_offset(std::string_view text, std::size_t offset,
                                  const std::string& file) {
  offset = std::min(offset, text.size());
  std::uint32_t line = 1, column = 1;
  for (std::size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return SourceLocation::at(file, line, column);
}

nlohmann::json parse_json_text(std::string_view text, const std::string& file) {
  try {
    return nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::parse_error& e) {
    // e.byte is the 1-based offset of the character where parsing stopped.
    const std::size_t offset = e.byte > 0 ? e.byte - 1 : 0;
    std::string what = e.what();
    // nlohmann: "[json.exception.parse_error.101] parse error at line 3, column 9: syntax error
    // ..."
    if (const auto colon = what.find(": ", what.find("parse error")); colon != std::string::npos)
      what = what.substr(colon + 2);
    throw Error(fmt::format("invalid JSON: {}", what), location_of_offset(text, offset, file));
  }
}

SourceLocation locate_json_string_member(std::string_view text, std::string_view key,
                                         std::string_view value, const std::string& file) {
  const std::string quoted_key = fmt::format("\"{}\"", key);
  const std::string quoted_value = fmt::format("\"{}\"", value);
  for (std::size_t at = text.find(quoted_key); at != std::string_view::npos;
       at = text.find(quoted_key, at + 1)) {
    std::size_t i = at + quoted_key.size();
    while (i < text.size() &&
           (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
      ++i;
    if (i >= text.size() || text[i] != ':') continue;
    ++i;
    while (i < text.size() &&
           (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
      ++i;
    if (text.substr(i, quoted_value.size()) == quoted_value)
      return location_of_offset(text, at, file);
  }
  return SourceLocation::at(file);
}

}  // namespace mctsat
