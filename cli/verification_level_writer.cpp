// Writes rules' verification levels into their files (see verification_level_writer.hpp).
#include "cli/verification_level_writer.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "support/files.hpp"

namespace mctsat::cli {
namespace {

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = text.find('\n', at);
    const std::size_t next = end == std::string::npos ? text.size() : end + 1;
    lines.push_back(text.substr(at, next - at));  // with its '\n', if any
    at = next;
  }
  return lines;
}

std::string trimmed_start(const std::string& line) {
  const std::size_t start = line.find_first_not_of(" \t");
  return start == std::string::npos ? std::string() : line.substr(start);
}

// Rewrites one declaration's annotation in `lines`; true when something changed. Declarations
// are handled from the end of the file, so the lines before `where` are still as read.
bool write_level(std::vector<std::string>& lines, const DeclaredLevel& d) {
  const SourceLocation& where = d.where;
  if (where.line == 0 || where.line > lines.size() || where.column == 0 ||
      lines[where.line - 1].compare(where.column - 1, 4, "rule") != 0)
    throw Error("no rule declaration here to annotate", where);
  std::string& rule_line = lines[where.line - 1];
  const std::string before = rule_line.substr(0, where.column - 1);
  const bool own_line = before.find_first_not_of(" \t") == std::string::npos;
  // The annotation lines just above the rule (@tags, @verified), when the rule starts its line.
  std::optional<std::size_t> existing;
  if (own_line)
    for (std::size_t i = where.line - 1; i-- > 0;) {
      const std::string text = trimmed_start(lines[i]);
      if (!text.starts_with("@")) break;
      if (text.starts_with("@verified")) existing = i;
    }
  if (!d.level) {
    if (!existing) return false;
    lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(*existing));
    return true;
  }
  const std::string annotation =
      fmt::format("@verified({})", name_of(dsl::kVerificationLevelNames, *d.level));
  if (existing) {
    const std::string line = before + annotation + "\n";
    if (lines[*existing] == line) return false;
    lines[*existing] = line;
  } else if (own_line) {
    lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(where.line - 1),
                 before + annotation + "\n");
  } else {
    rule_line.insert(where.column - 1, annotation + " ");
  }
  return true;
}

}  // namespace

std::size_t write_verification_levels(const std::vector<DeclaredLevel>& declarations) {
  std::map<std::string, std::vector<DeclaredLevel>> by_file;
  for (const DeclaredLevel& d : declarations) by_file[d.where.file].push_back(d);
  std::vector<OutputFile> outputs;
  std::size_t changed = 0;
  for (auto& [file, list] : by_file) {
    std::sort(list.begin(), list.end(), [](const DeclaredLevel& a, const DeclaredLevel& b) {
      return std::pair(a.where.line, a.where.column) > std::pair(b.where.line, b.where.column);
    });
    std::vector<std::string> lines = split_lines(read_text_file(file));
    std::size_t in_file = 0;
    for (const DeclaredLevel& d : list) in_file += write_level(lines, d);
    if (in_file == 0) continue;
    changed += in_file;
    std::string text;
    for (const std::string& line : lines) text += line;
    outputs.push_back({file, std::move(text)});
  }
  write_files_atomically(outputs);
  return changed;
}

}  // namespace mctsat::cli
