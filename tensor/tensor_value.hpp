// A concrete tensor: a shape and row-major values in double precision. Weights carry one; the
// reference interpreter computes with them.
#pragma once

#include <vector>

#include "tensor/tensor_type.hpp"

namespace mctsat::tensor {

struct Tensor {
  Shape shape;
  std::vector<double> data;  // row-major, numel(shape) entries

  Tensor() = default;
  explicit Tensor(Shape s, double fill = 0.0)
      : shape(std::move(s)), data(static_cast<std::size_t>(numel(shape)), fill) {}
  Tensor(Shape s, std::vector<double> values) : shape(std::move(s)), data(std::move(values)) {}

  std::size_t size() const { return data.size(); }
  friend bool operator==(const Tensor&, const Tensor&) = default;
};

}  // namespace mctsat::tensor
