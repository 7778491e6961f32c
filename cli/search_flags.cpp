// Registry options as CLI11 flags.
#include "cli/search_flags.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

#include <fmt/format.h>

#include "search/option_registry.hpp"
#include "support/error.hpp"
#include "support/suggest.hpp"

namespace mctsat::cli {
namespace {

std::string value_text(const nlohmann::json& value) {
  return value.is_string() ? value.get<std::string>() : value.dump();
}

std::string type_name(const search::OptionSpec& spec) {
  switch (spec.type) {
    case search::OptionType::kCount:
      return "UINT";
    case search::OptionType::kReal:
      return "NUMBER";
    case search::OptionType::kFlag:
      return "";
    case search::OptionType::kChoice:
      return fmt::format("{{{}}}", fmt::join(spec.choices, ","));
  }
  return "";
}

}  // namespace

void add_search_flags(CLI::App& command, search::OptimizeOptions& options,
                      std::initializer_list<std::string_view> only) {
  const search::OptimizeOptions defaults;
  for (const search::OptionSpec& spec : search::option_registry()) {
    if (spec.flag.empty()) continue;
    if (only.size() > 0 && std::find(only.begin(), only.end(), spec.name) == only.end()) continue;
    const std::string help =
        fmt::format("{} [strategies: {}]", spec.help, search::used_by_text(spec));
    if (spec.type == search::OptionType::kFlag) {
      // A negated flag ("!--continue-without-gain") turns the option off: its help says so
      // rather than describing the option it turns off as if the flag did it.
      const bool negated = spec.flag.front() == '!';
      const bool on = spec.get(defaults).get<bool>();
      command.add_flag_function(
          spec.flag,
          [&options, &spec](std::int64_t count) { spec.set(options, nlohmann::json(count > 0)); },
          negated ? fmt::format("Turns off {} (on by default): {}", spec.name, help)
                  : fmt::format("{} (default: {})", help, on ? "on" : "off"));
      continue;
    }
    const CLI::Validator check(
        [&spec](std::string& text) -> std::string {
          std::string error;
          try {
            error = search::option_value_error(spec, search::option_value_from_text(spec, text));
          } catch (const Error& e) {
            error = e.message();
          }
          if (!error.empty() && spec.type == search::OptionType::kChoice)
            error += did_you_mean(text, spec.choices);
          return error;
        },
        type_name(spec));
    CLI::Option* option = command.add_option_function<std::string>(
        spec.flag,
        [&options, &spec](const std::string& text) {
          search::set_option(options, spec, search::option_value_from_text(spec, text));
        },
        help);
    option->check(check);
    if (const nlohmann::json d = spec.get(defaults); !d.is_null())
      option->default_str(value_text(d));
  }
}

}  // namespace mctsat::cli
