// The built-in models ("the zoo"), built in code so that they need no files: `demo` (a small graph
// with the patterns the TASO rules rewrite) and the benchmarks TENSAT defines in code (`bert`,
// `nasrnn`, `nasneta`, `resnext50`, `resnet50`), and the four it ships as TASO .model files,
// rebuilt from their architectures (`vgg19`, `squeezenet`, `mobilenetv2`, `inceptionv3`).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tensor/graph.hpp"

namespace mctsat::frontend {

struct ZooEntry {
  std::string_view name;
  std::string_view description;
};

std::vector<ZooEntry> zoo_models();
// The model, or nullopt when no zoo model has this name. Weights carry no values.
std::optional<tensor::Graph> build_zoo_model(std::string_view name);

}  // namespace mctsat::frontend
