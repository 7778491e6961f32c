// Diagnostics of rule files: errors and warnings at file:line:col, rendered like a compiler's
// (the message, the source line and a caret under the column). Several per file are collected
// so that a user sees every problem at once.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "support/error.hpp"

namespace mctsat::dsl {

struct Diagnostic {
  enum class Severity { kError, kWarning };
  Severity severity = Severity::kError;
  SourceLocation where;
  std::string message;
};

class Diagnostics {
 public:
  // Registers a file's text so that rendering can quote its lines.
  void add_source(const std::string& file, std::string text) { sources_[file] = std::move(text); }
  void error(SourceLocation where, std::string message);
  void warning(SourceLocation where, std::string message);

  const std::vector<Diagnostic>& all() const { return list_; }
  std::size_t error_count() const;
  bool has_errors() const { return error_count() > 0; }

  // Every diagnostic as `file:line:col: error: message`, then the source line and a caret
  // (from the registered sources).
  std::string render() const;
  // Throws an Error summarizing all diagnostics if there is any error.
  void throw_if_errors() const;

 private:
  std::string source_line(const std::string& file, std::uint32_t line) const;
  std::vector<Diagnostic> list_;
  std::map<std::string, std::string> sources_;
};

}  // namespace mctsat::dsl
