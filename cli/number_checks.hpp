// Option checks for numbers with messages a person can read ("must be positive, got 0"); CLI11's
// PositiveNumber and NonNegativeNumber print their bounds as "0.000000 to 1.79...e+308".
#pragma once

#include <cstdlib>
#include <string>

#include <CLI/CLI.hpp>

namespace mctsat::cli {

namespace detail {
// Parses all of `text` as a number; false when it is not one.
inline bool parse_number(const std::string& text, double& value) {
  char* end = nullptr;
  value = std::strtod(text.c_str(), &end);
  return !text.empty() && end == text.c_str() + text.size();
}

inline CLI::Validator number_check(bool (*accept)(double), const char* requirement,
                                   const char* name) {
  return CLI::Validator(
      [accept, requirement](std::string& input) -> std::string {
        double value = 0;
        if (!parse_number(input, value)) return "'" + input + "' is not a number";
        return accept(value) ? std::string() : std::string(requirement) + ", got " + input;
      },
      name);
}
}  // namespace detail

inline const CLI::Validator positive_number =
    detail::number_check([](double v) { return v > 0; }, "must be positive", "POSITIVE");
inline const CLI::Validator non_negative_number =
    detail::number_check([](double v) { return v >= 0; }, "must not be negative", "NONNEGATIVE");

}  // namespace mctsat::cli
