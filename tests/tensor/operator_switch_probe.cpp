// Not a test file: a translation unit that must NOT compile. It switches over tensor::Op and leaves
// out kOpaque, as a switch does when someone adds an operator; with the project's compile options
// (-Werror=switch, CMakeLists.txt) that is an error, so the build names every switch a new
// operator must join. CTest's `tensor_operator_switch_probe` compiles it with those options and
// passes only on that error (tests/CMakeLists.txt).
#include "tensor/op.hpp"

int probe(mctsat::tensor::Op op) {
  using mctsat::tensor::Op;
  switch (op) {
    case Op::kInput:
    case Op::kWeight:
    case Op::kMatmul:
    case Op::kConv2d:
    case Op::kEwAdd:
    case Op::kEwMul:
    case Op::kEwSub:
    case Op::kEwDiv:
    case Op::kSmul:
    case Op::kRelu:
    case Op::kTanh:
    case Op::kSigmoid:
    case Op::kDropout:
    case Op::kIdentity:
    case Op::kTranspose:
    case Op::kReshape:
    case Op::kFlatten:
    case Op::kEnlarge:
    case Op::kPoolMax:
    case Op::kPoolAvg:
    case Op::kGlobalAvgPool:
    case Op::kConcat:
    case Op::kSplit:
    case Op::kMerge:
    case Op::kBatchNorm:
    case Op::kSoftmax:
    case Op::kClip:
    case Op::kLayerNorm:
    case Op::kGelu:
    case Op::kAttention:
    case Op::kNoop:
      return 1;
  }
  return 0;
}
