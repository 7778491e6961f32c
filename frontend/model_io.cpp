// Dispatch of model loading and saving on zoo names and file extensions.
#include "frontend/model_io.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "frontend/graph_dot.hpp"
#include "frontend/graph_json.hpp"
#include "frontend/graph_svg.hpp"
#include "frontend/onnx_export.hpp"
#include "frontend/onnx_import.hpp"
#include "frontend/taso_model.hpp"
#include "frontend/zoo.hpp"
#include "support/error.hpp"
#include "support/files.hpp"

namespace mctsat::frontend {
namespace {

std::string extension_of(const std::string& path) {
  return std::filesystem::path(path).extension().string();
}

std::string zoo_names() {
  std::string names;
  for (const ZooEntry& entry : zoo_models())
    names += (names.empty() ? "" : ", ") + std::string(entry.name);
  for (const ZooEntry& family : zoo_families()) names += fmt::format(", {}-<size>", family.name);
  return names;
}

}  // namespace

tensor::Graph load_model(const std::string& name_or_path, const LoadOptions& options) {
  if (!options.input_shapes.empty() && extension_of(name_or_path) != ".onnx")
    throw Error(
        fmt::format("--input-shape applies to ONNX models only, not to '{}'", name_or_path));
  if (!options.input_values.empty() && extension_of(name_or_path) != ".onnx")
    throw Error(
        fmt::format("--input-value applies to ONNX models only, not to '{}'", name_or_path));
  if (auto graph = build_zoo_model(name_or_path)) return std::move(*graph);
  std::error_code ec;
  if (!std::filesystem::exists(name_or_path, ec))
    throw Error(
        fmt::format("'{}' is neither a file nor a zoo model (zoo: {})", name_or_path, zoo_names()));
  return parse_model(read_text_file(name_or_path), name_or_path, options);
}

tensor::Graph parse_model(std::string_view text, const std::string& path,
                          const LoadOptions& options) {
  const std::string extension = extension_of(path);
  if (extension == ".json") return graph_from_json(text, path);
  if (extension == ".model") return graph_from_taso_model(text, path);
  if (extension == ".onnx") return graph_from_onnx(text, path, options.input_shapes, options.input_values);
  throw Error(
      fmt::format("unsupported model format '{}' (supported: .json, .model, .onnx)", extension),
      SourceLocation::at(path));
}

std::string model_text(const tensor::Graph& graph, const std::string& path) {
  const std::string extension = extension_of(path);
  const std::string title = std::filesystem::path(path).stem().string();
  if (extension == ".json") return graph_to_json(graph);
  if (extension == ".onnx") return graph_to_onnx(graph, title);
  if (extension == ".dot") return graph_to_dot(graph, title);
  if (extension == ".svg") return graph_to_svg(graph, title);
  throw Error(
      fmt::format("cannot write format '{}' (supported: .json, .onnx, .dot, .svg)", extension),
      SourceLocation::at(path));
}

void save_model(const tensor::Graph& graph, const std::string& path) {
  write_file_atomically(path, model_text(graph, path));
}

}  // namespace mctsat::frontend
