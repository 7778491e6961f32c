// The one error type for user input (rule files, models, configs, command lines): it says where the
// problem is (file, line, column, node name) and what it is, and formats as `file:line:col:
// error:`.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace mctsat {

// Where in the user's input a problem was found. Every field is optional.
struct SourceLocation {
  std::string file;
  std::uint32_t line = 0;    // 1-based; 0 = unknown
  std::uint32_t column = 0;  // 1-based; 0 = unknown
  std::string node;          // a graph node, rule or config entry the problem is about

  static SourceLocation at_node(std::string name) {
    SourceLocation where;
    where.node = std::move(name);
    return where;
  }
  static SourceLocation at(std::string file, std::uint32_t line = 0, std::uint32_t column = 0) {
    SourceLocation where;
    where.file = std::move(file);
    where.line = line;
    where.column = column;
    return where;
  }

  std::string to_string() const;  // "file:line:col" / "file" / "node 'x'" / ""
};

class Error : public std::runtime_error {
 public:
  explicit Error(std::string message, SourceLocation where = {});

  const std::string& message() const { return message_; }
  const SourceLocation& where() const { return where_; }

  // A copy that says where, keeping what is already known (an inner file or node wins).
  Error located(const SourceLocation& outer) const;

 private:
  static std::string format(const std::string& message, const SourceLocation& where);
  std::string message_;
  SourceLocation where_;
};

}  // namespace mctsat

// Internal invariants: always checked (also in release builds), abort with a message.
#define MCTSAT_ASSERT(condition) \
  ((condition) ? static_cast<void>(0) : ::mctsat::assertion_failed(#condition, __FILE__, __LINE__))

namespace mctsat {
[[noreturn]] void assertion_failed(const char* condition, const char* file, int line);
}
