// Runs the opaque operators imported from ONNX (Resize, ConvTranspose, HardSigmoid, ReduceMean,
// Slice, ...) with the ONNX reference operators, so the reference interpreter can evaluate whole
// real models: `convert --check`, `optimize --check` and `run` use it.
#pragma once

#include "tensor/interpreter.hpp"

namespace mctsat::frontend {

// An evaluator for tensor::InterpretOptions::opaque_evaluator. Errors name the operator type and
// what is unsupported (an operator without a reference implementation, an opaque operator
// without an ONNX payload).
tensor::OpaqueEvaluator onnx_opaque_evaluator();

// `options` with onnx_opaque_evaluator() set.
tensor::InterpretOptions with_onnx_opaque_evaluator(tensor::InterpretOptions options);

}  // namespace mctsat::frontend
