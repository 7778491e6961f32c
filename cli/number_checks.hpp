// Option checks for numbers with messages a person can read ("must be positive, got 0"); CLI11's
// PositiveNumber and NonNegativeNumber print their bounds as "0.000000 to 1.79...e+308", and its
// Range accepts NaN. Every check here refuses NaN and infinity.
#pragma once

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>
#include <thread>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

namespace mctsat::cli {

namespace detail {
// Parses all of `text` as a finite number; false when it is not one.
inline bool parse_number(const std::string& text, double& value) {
  char* end = nullptr;
  value = std::strtod(text.c_str(), &end);
  return !text.empty() && end == text.c_str() + text.size() && std::isfinite(value);
}

// Why `text` is not a finite number: "'many' is not a number", "'nan' is not a finite number".
inline std::string not_a_number(const std::string& text) {
  char* end = nullptr;
  std::strtod(text.c_str(), &end);
  const bool number = !text.empty() && end == text.c_str() + text.size();
  return "'" + text + (number ? "' is not a finite number" : "' is not a number");
}

inline CLI::Validator number_check(bool (*accept)(double), const char* requirement,
                                   const char* name) {
  return CLI::Validator(
      [accept, requirement](std::string& input) -> std::string {
        double value = 0;
        if (!parse_number(input, value)) return not_a_number(input);
        return accept(value) ? std::string() : std::string(requirement) + ", got " + input;
      },
      name);
}

// Parses all of `text` as a non-negative integer that fits in 64 bits (no sign, no wrap-around).
inline bool parse_unsigned(const std::string& text, std::uint64_t& value) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return false;
  errno = 0;
  char* end = nullptr;
  value = std::strtoull(text.c_str(), &end, 10);
  return errno == 0 && end == text.c_str() + text.size();
}
}  // namespace detail

inline const CLI::Validator positive_number =
    detail::number_check([](double v) { return v > 0; }, "must be positive", "POSITIVE");
inline const CLI::Validator non_negative_number =
    detail::number_check([](double v) { return v >= 0; }, "must not be negative", "NONNEGATIVE");

// An integer in [low, high], written without a sign (a seed or a count: "-5" never wraps around).
inline CLI::Validator unsigned_range(std::uint64_t low, std::uint64_t high) {
  return CLI::Validator(
      [low, high](std::string& input) -> std::string {
        std::uint64_t value = 0;
        if (!detail::parse_unsigned(input, value))
          return fmt::format("must be an integer from {} to {}, got {}", low, high, input);
        if (value < low || value > high)
          return fmt::format("must be between {} and {}, got {}", low, high, input);
        return {};
      },
      fmt::format("[{} - {}]", low, high));
}

inline const CLI::Validator non_negative_integer =
    unsigned_range(0, std::numeric_limits<std::uint64_t>::max());

// The most threads an option may ask for: 16 per hardware thread of this machine, at least 64
// (more would only oversubscribe the cores, and each thread costs a stack).
inline std::uint64_t max_threads() {
  return std::max<std::uint64_t>(64, 16 * std::uint64_t{std::thread::hardware_concurrency()});
}

// A thread count from `low` (0 when 0 means "every core") to max_threads().
inline CLI::Validator thread_count(std::uint64_t low = 1) {
  return CLI::Validator(
      [low](std::string& input) -> std::string {
        std::uint64_t value = 0;
        const std::uint64_t high = max_threads();
        if (!detail::parse_unsigned(input, value) || value < low || value > high)
          return fmt::format(
              "must be a thread count from {} to {} (16 per hardware thread of this machine, "
              "which has {}), got {}",
              low, high, std::thread::hardware_concurrency(), input);
        return {};
      },
      "THREADS");
}

}  // namespace mctsat::cli
