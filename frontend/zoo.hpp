// The built-in models ("the zoo"), built in code so that they need no files: `demo` (a small graph
// with the patterns the TASO rules rewrite) and the benchmarks TENSAT defines in code (`bert`,
// `nasrnn`, `nasneta`, `resnext50`, `resnet50`), and the four it ships as TASO .model files,
// rebuilt from their architectures (`vgg19`, `squeezenet`, `mobilenetv2`, `inceptionv3`).
// Generated models of any size, named `<family>-<size>`, for studies of how the search scales:
// `nasrnn-T` (the NasRNN cell unrolled over T steps), `bert-L` (L of bert's attention layers) and
// `deepcnn-N` (N residual bottleneck blocks).
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

// The largest size of a generated model.
inline constexpr int kMaxGeneratedSize = 4096;

std::vector<ZooEntry> zoo_models();  // the fixed models
// The generated families; an entry's name is the prefix of `<family>-<size>`.
std::vector<ZooEntry> zoo_families();
// Whether `name` is a fixed zoo model or a generated one (`nasrnn-40`).
bool is_zoo_model(std::string_view name);
// The model, or nullopt when no zoo model has this name. Weights carry no values.
std::optional<tensor::Graph> build_zoo_model(std::string_view name);

}  // namespace mctsat::frontend
