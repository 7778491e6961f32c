// Parsing --input-shape and --input-value (see model_options.hpp).
#include "cli/model_options.hpp"

#include <charconv>

#include <fmt/format.h>

#include "support/error.hpp"

namespace mctsat::cli {

void ModelOptions::add_to(CLI::App& command) {
  command.add_option("--input-shape", input_shapes,
                     "Fix an ONNX input's shape: NAME=d1,d2,... (repeatable)");
  command.add_option("--input-value", input_values,
                     "Make an ONNX input a constant: NAME=v1,v2,... in row-major order, as many "
                     "values as its shape holds (repeatable)");
}

frontend::LoadOptions ModelOptions::load_options() const {
  frontend::LoadOptions options;
  for (const std::string& spec : input_shapes) {
    const auto equals = spec.rfind('=');
    if (equals == std::string::npos || equals == 0 || equals + 1 == spec.size())
      throw Error(fmt::format("--input-shape '{}': expected NAME=d1,d2,...", spec));
    std::vector<std::int64_t> dims;
    std::string_view rest = std::string_view(spec).substr(equals + 1);
    while (true) {
      const auto comma = rest.find(',');
      const std::string_view item = rest.substr(0, comma);
      std::int64_t d = 0;
      const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), d);
      if (ec != std::errc() || end != item.data() + item.size() || d <= 0)
        throw Error(fmt::format("--input-shape '{}': '{}' is not a positive dimension", spec,
                                std::string(item)));
      dims.push_back(d);
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
    options.input_shapes[spec.substr(0, equals)] = std::move(dims);
  }
  for (const std::string& spec : input_values) {
    const auto equals = spec.rfind('=');
    if (equals == std::string::npos || equals == 0 || equals + 1 == spec.size())
      throw Error(fmt::format("--input-value '{}': expected NAME=v1,v2,...", spec));
    std::vector<double> values;
    std::string_view rest = std::string_view(spec).substr(equals + 1);
    while (true) {
      const auto comma = rest.find(',');
      const std::string item(rest.substr(0, comma));
      std::size_t used = 0;
      double v = 0;
      try {
        v = std::stod(item, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used == 0 || used != item.size())
        throw Error(fmt::format("--input-value '{}': '{}' is not a number", spec, item));
      values.push_back(v);
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
    options.input_values[spec.substr(0, equals)] = std::move(values);
  }
  return options;
}

}  // namespace mctsat::cli
