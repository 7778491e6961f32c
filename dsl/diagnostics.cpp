// Collecting and rendering diagnostics.
#include "dsl/diagnostics.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace mctsat::dsl {
std::string Diagnostics::source_line(const std::string& file, std::uint32_t line) const {
  const auto found = sources_.find(file);
  if (found == sources_.end()) return {};
  std::string_view text = found->second;
  for (std::uint32_t i = 1; i < line; ++i) {
    const auto newline = text.find('\n');
    if (newline == std::string_view::npos) return {};
    text.remove_prefix(newline + 1);
  }
  return std::string(text.substr(0, text.find('\n')));
}

void Diagnostics::error(SourceLocation where, std::string message) {
  list_.push_back({Diagnostic::Severity::kError, std::move(where), std::move(message)});
}

void Diagnostics::warning(SourceLocation where, std::string message) {
  list_.push_back({Diagnostic::Severity::kWarning, std::move(where), std::move(message)});
}

std::size_t Diagnostics::error_count() const {
  return static_cast<std::size_t>(std::count_if(
      list_.begin(), list_.end(),
      [](const Diagnostic& d) { return d.severity == Diagnostic::Severity::kError; }));
}

std::string Diagnostics::render() const {
  std::string out;
  for (const Diagnostic& d : list_) {
    const char* kind = d.severity == Diagnostic::Severity::kError ? "error" : "warning";
    const std::string place = d.where.to_string();
    out += place.empty() ? fmt::format("{}: {}\n", kind, d.message)
                         : fmt::format("{}: {}: {}\n", place, kind, d.message);
    if (d.where.line > 0) {
      const std::string line = source_line(d.where.file, d.where.line);
      if (!line.empty()) {
        out += fmt::format("  {}\n", line);
        if (d.where.column > 0) out += fmt::format("  {}^\n", std::string(d.where.column - 1, ' '));
      }
    }
  }
  return out;
}

void Diagnostics::throw_if_errors() const {
  const std::size_t errors = error_count();
  if (errors == 0) return;
  std::string text = render();
  if (!text.empty() && text.back() == '\n') text.pop_back();
  throw Error(fmt::format("{} error{} in rule files:\n{}", errors, errors == 1 ? "" : "s", text));
}

}  // namespace mctsat::dsl
