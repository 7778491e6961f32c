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

Error json_error(const nlohmann::json::exception& e, const std::string& file) {
  // nlohmann: "[json.exception.type_error.302] (/nodes/0/attrs) type must be number, but is string"
  std::string what = e.what();
  if (what.rfind("[json.exception.", 0) == 0) {
    if (const auto end = what.find("] "); end != std::string::npos) what = what.substr(end + 2);
  }
  if (what.rfind("(/", 0) == 0 || what.rfind("() ", 0) == 0) {
    const auto close = what.find(") ");
    const std::string path = what.substr(1, close - 1);
    what = fmt::format("at JSON path '{}': {}", path.empty() ? "/" : path, what.substr(close + 2));
  }
  return Error(fmt::format("invalid JSON value: {}", what), SourceLocation::at(file));
}

std::optional<std::size_t> json_too_deep_at(std::string_view text) {
  std::size_t depth = 0;
  bool in_string = false, escaped = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth) return i;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return std::nullopt;
}

nlohmann::json parse_json_text(std::string_view text, const std::string& file) {
  if (const auto deep = json_too_deep_at(text))
    throw Error(fmt::format("nested too deeply (more than {} levels)", kMaxJsonDepth),
                location_of_offset(text, *deep, file));
  try {
    return nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::out_of_range& e) {
    // A number beyond the range of double ("number overflow parsing '1e400'"): point at it.
    std::string what = e.what();
    SourceLocation where = SourceLocation::at(file);
    const auto open = what.find('\''), close = what.rfind('\'');
    if (open != std::string::npos && close > open) {
      const auto at = text.find(what.substr(open + 1, close - open - 1));
      if (at != std::string_view::npos) where = location_of_offset(text, at, file);
    }
    throw Error(json_error(e, file).message(), where);
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
