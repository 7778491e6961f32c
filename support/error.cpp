// Formatting of mctsat::Error and the always-on assertion handler.
#include "support/error.hpp"

#include <cstdio>
#include <cstdlib>

#include <fmt/format.h>

namespace mctsat {

std::string SourceLocation::to_string() const {
  std::string out = file;
  if (!file.empty() && line > 0) {
    out += fmt::format(":{}", line);
    if (column > 0) out += fmt::format(":{}", column);
  }
  if (!node.empty())
    out += out.empty() ? fmt::format("node '{}'", node) : fmt::format(" (node '{}')", node);
  return out;
}

Error::Error(std::string message, SourceLocation where)
    : std::runtime_error(format(message, where)),
      message_(std::move(message)),
      where_(std::move(where)) {}

std::string Error::format(const std::string& message, const SourceLocation& where) {
  std::string place = where.to_string();
  return place.empty() ? fmt::format("error: {}", message)
                       : fmt::format("{}: error: {}", place, message);
}

Error Error::located(const SourceLocation& outer) const {
  SourceLocation merged = where_;
  if (merged.file.empty()) {
    merged.file = outer.file;
    merged.line = outer.line;
    merged.column = outer.column;
  }
  if (merged.node.empty()) merged.node = outer.node;
  return Error(message_, merged);
}

void assertion_failed(const char* condition, const char* file, int line) {
  std::fprintf(stderr, "%s:%d: internal error: assertion failed: %s\n", file, line, condition);
  std::abort();
}

}  // namespace mctsat
