// Parsing --input-shape (see model_options.hpp).
#include "cli/model_options.hpp"

#include <charconv>

#include <fmt/format.h>

#include "support/error.hpp"

namespace mctsat::cli {

void ModelOptions::add_to(CLI::App& command) {
  command.add_option("--input-shape", input_shapes,
                     "Fix an ONNX input's shape: NAME=d1,d2,... (repeatable)");
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
  return options;
}

}  // namespace mctsat::cli
