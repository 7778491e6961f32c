// mctsat.Model: a validated graph and the name it was loaded by (a zoo name, a path, or what the
// caller named it), shared by the model, optimization and bench bindings.
#pragma once

#include <string>

#include "tensor/graph.hpp"

namespace mctsat::python {

struct Model {
  std::string name;
  tensor::Graph graph;
};

}  // namespace mctsat::python
