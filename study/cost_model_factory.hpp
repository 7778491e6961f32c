// Building a cost model from its description (study/cost_model_spec.hpp): the one place the
// command line, Python and the study library turn a user's choice of cost model into a CostModel.
#pragma once

#include <memory>

#include "study/cost_model_spec.hpp"
#include "tensor/cost_model.hpp"

namespace mctsat::study {

// Throws mctsat::Error for an unknown device, a missing or malformed table, and when ONNX Runtime
// cannot be loaded (--cost onnxruntime).
std::unique_ptr<tensor::CostModel> make_cost_model(const CostModelSpec& spec);

}  // namespace mctsat::study
