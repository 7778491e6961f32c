// Folds what an ONNX model computes from constants and static shapes into initializers, before
// the importer maps operators. Exporters emit shapes as run-time computations (Shape -> Cast ->
// Slice/Gather -> Concat -> Reshape); once the graph inputs have fixed shapes these are constants,
// and folding them lets ONNX shape inference type the rest of the graph and lets the importer map
// a Reshape whose target shape was computed. Internal to frontend/.
#pragma once

#include <functional>

#include <onnx/onnx_pb.h>

namespace mctsat::frontend {

// Rewrites `model` in place: every Constant node (but sparse and string ones) becomes an
// initializer; every node of the ONNX reference operators (onnx_reference_ops.hpp) whose inputs
// are all small constants, and every Shape or Size of a tensor whose type `infer_shapes` made
// static, is evaluated and replaced by initializers for its outputs; every If whose condition
// folds to a constant is replaced by the branch it takes. Repeats `infer_shapes` and
// folding until nothing more folds. Nodes whose evaluation fails are left for the importer. Returns
// the number of nodes removed.
int fold_constants(onnx::ModelProto& model, const std::function<void()>& infer_shapes);

}  // namespace mctsat::frontend
