// Help labels in one vocabulary (see help_formatter.hpp).
#include "cli/help_formatter.hpp"

#include <regex>
#include <set>
#include <sstream>
#include <vector>

namespace mctsat::cli {

std::string value_label(const std::string& cli11_type_name) {
  std::vector<std::string> parts;
  std::string part;
  int depth = 0;  // ':' inside "{a:b}" or "[a - b]" does not split
  for (const char c : cli11_type_name) {
    if (c == '{' || c == '[') ++depth;
    if (c == '}' || c == ']') --depth;
    if (c == ':' && depth == 0) {
      parts.push_back(part);
      part.clear();
    } else {
      part += c;
    }
  }
  parts.push_back(part);
  const std::string& base = parts.front();
  const std::vector<std::string> checks(parts.begin() + 1, parts.end());
  for (const std::string& check : checks)
    if (!check.empty() && check.front() == '{') return check;  // the choices say it all
  static const std::set<std::string> kKnown = {"UINT", "INT", "NUMBER", "TEXT",
                                               "FILE", "DIR", "PATH"};
  if (base == "TEXT" && !checks.empty()) {
    if (kKnown.count(checks.front()) != 0) return checks.front();
    if (checks.front() == "PATH(existing)") return "PATH";
  }
  // A range stays when it is narrow enough to tell something ("[1 - 6]"), not a type's limits.
  std::string range;
  bool non_negative = false;
  static const std::regex bounds(R"(^\[(-?[0-9.e+]+) - (-?[0-9.e+]+)\]$)");
  for (const std::string& check : checks) {
    std::smatch m;
    if (check == "NONNEGATIVE" || check == "THREADS" || check == "POSITIVE") non_negative = true;
    if (!std::regex_match(check, m, bounds)) continue;
    non_negative = non_negative || std::stod(m[1]) >= 0;
    if (std::stod(m[2]) < 1e6) range = ":" + check;
  }
  if (base == "FLOAT" || base == "NUMBER") return "NUMBER" + range;
  if (base == "INT" || base == "UINT")
    return (base == "UINT" || non_negative ? "UINT" : "INT") + range;
  return base + range;
}

std::string HelpFormatter::make_option_name(const CLI::Option* option, bool is_positional) const {
  std::string name = CLI::Formatter::make_option_name(option, is_positional);
  static const std::regex negated_default(R"(\{(true|false)\})");
  return std::regex_replace(name, negated_default, "");
}

std::string HelpFormatter::make_option_opts(const CLI::Option* option) const {
  // CLI::Formatter::make_option_opts with the label from value_label().
  std::ostringstream out;
  if (!option->get_option_text().empty()) return " " + option->get_option_text();
  if (option->get_type_size() != 0) {
    if (!option->get_type_name().empty())
      out << " " << get_label(value_label(option->get_type_name()));
    if (!option->get_default_str().empty()) out << "=" << option->get_default_str();
    if (option->get_expected_max() == CLI::detail::expected_max_vector_size)
      out << " ...";
    else if (option->get_expected_min() > 1)
      out << " x " << option->get_expected();
    if (option->get_required()) out << " " << get_label("REQUIRED");
  }
  if (!option->get_envname().empty())
    out << " (" << get_label("Env") << ":" << option->get_envname() << ")";
  if (!option->get_needs().empty()) {
    out << " " << get_label("Needs") << ":";
    for (const CLI::Option* other : option->get_needs()) out << " " << other->get_name();
  }
  if (!option->get_excludes().empty()) {
    out << " " << get_label("Excludes") << ":";
    for (const CLI::Option* other : option->get_excludes()) out << " " << other->get_name();
  }
  return out.str();
}

}  // namespace mctsat::cli
