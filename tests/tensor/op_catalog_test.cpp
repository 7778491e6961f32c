// Tests of the operator catalog: one signature per operator, unique names, lookups by name, and the
// parameter accessors of OpSignature.
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "tensor/op.hpp"

using namespace mctsat::tensor;

namespace {

std::vector<std::string_view> param_names(const OpSignature& sig) {
  std::vector<std::string_view> names;
  for (const Param& p : sig.params) names.push_back(p.name);
  return names;
}

}  // namespace

TEST_CASE("every operator has its own signature, in catalog order") {
  const std::vector<std::string_view> expected = {
      "input",     "weight",    "matmul",  "conv2d",    "ewadd",   "ewmul",   "ewsub",
      "ewdiv",     "smul",      "relu",    "tanh",      "sigmoid", "dropout", "identity",
      "transpose", "reshape",   "flatten", "enlarge",   "poolmax", "poolavg", "globalavgpool",
      "concat",    "split",     "merge",   "batchnorm", "softmax", "clip",    "layernorm",
      "gelu",      "attention", "noop",    "opaque"};
  REQUIRE(kOpCount == 32);
  REQUIRE(all_signatures().size() == kOpCount);
  for (std::size_t k = 0; k < kOpCount; ++k) {
    const Op op = static_cast<Op>(k);
    CAPTURE(k);
    CHECK(signature(op).op == op);
    CHECK(all_signatures()[k].op == op);
    CHECK(signature(op).name == expected[k]);
    CHECK(op_name(op) == expected[k]);
    CHECK(&signature(op) == &all_signatures()[k]);
  }
}

TEST_CASE("names are unique and find_op round-trips") {
  std::set<std::string_view> names;
  for (const OpSignature& sig : all_signatures()) {
    CAPTURE(sig.name);
    CHECK_FALSE(sig.name.empty());
    CHECK(names.insert(sig.name).second);
    const auto found = find_op(sig.name);
    REQUIRE(found.has_value());
    CHECK(*found == sig.op);
    CHECK_FALSE(sig.summary.empty());
  }
  CHECK(find_op("conv2d") == Op::kConv2d);
  CHECK(find_op("split") == Op::kSplit);
  CHECK_FALSE(find_op("conv").has_value());
  CHECK_FALSE(find_op("Conv2d").has_value());
  CHECK_FALSE(find_op("").has_value());
  CHECK_FALSE(find_op("relu ").has_value());
  CHECK_FALSE(find_op("concat3").has_value());
}

TEST_CASE("tensor_count, attr_count and variadic") {
  struct Expected {
    Op op;
    std::size_t tensors;
    std::size_t attrs;
    bool variadic;
  };
  const std::vector<Expected> cases = {
      {Op::kInput, 0, 1, false},   {Op::kWeight, 0, 1, false},
      {Op::kMatmul, 2, 1, false},  {Op::kConv2d, 2, 4, false},
      {Op::kEwAdd, 2, 0, false},   {Op::kSmul, 2, 0, false},
      {Op::kRelu, 1, 0, false},    {Op::kTranspose, 1, 1, false},
      {Op::kReshape, 1, 1, false}, {Op::kFlatten, 1, 1, false},
      {Op::kEnlarge, 2, 0, false}, {Op::kPoolMax, 1, 6, false},
      {Op::kPoolAvg, 1, 6, false}, {Op::kGlobalAvgPool, 1, 0, false},
      {Op::kConcat, 1, 2, true},   {Op::kSplit, 1, 2, false},
      {Op::kMerge, 1, 1, false},   {Op::kBatchNorm, 5, 0, false},
      {Op::kSoftmax, 1, 1, false}, {Op::kClip, 1, 2, false},
      {Op::kNoop, 2, 0, false},    {Op::kLayerNorm, 3, 1, false},
      {Op::kGelu, 1, 1, false},    {Op::kAttention, 4, 3, false},
      {Op::kOpaque, 1, 2, true},
  };
  for (const Expected& e : cases) {
    const OpSignature& sig = signature(e.op);
    CAPTURE(sig.name);
    CHECK(sig.tensor_count() == e.tensors);
    CHECK(sig.attr_count() == e.attrs);
    CHECK(sig.variadic() == e.variadic);
    CHECK(sig.params.size() == e.tensors + e.attrs);
  }
}

TEST_CASE("attr(i) and tensor(i) walk the parameters in order") {
  const OpSignature& conv = signature(Op::kConv2d);
  CHECK(param_names(conv) ==
        std::vector<std::string_view>{"stride_h", "stride_w", "pad", "act", "x", "w"});
  CHECK(conv.attr(0).name == "stride_h");
  CHECK(conv.attr(1).name == "stride_w");
  CHECK(conv.attr(2).name == "pad");
  CHECK(conv.attr(3).name == "act");
  CHECK(conv.tensor(0).name == "x");
  CHECK(conv.tensor(1).name == "w");

  // Attributes after the tensor parameter.
  const OpSignature& pool = signature(Op::kPoolAvg);
  CHECK(pool.tensor(0).name == "x");
  CHECK(pool.attr(0).name == "kernel_h");
  CHECK(pool.attr(3).name == "stride_w");
  CHECK(pool.attr(4).name == "pad");
  CHECK(pool.attr(5).name == "act");

  const OpSignature& bn = signature(Op::kBatchNorm);
  CHECK(bn.tensor(0).name == "x");
  CHECK(bn.tensor(4).name == "var");

  // Mixed order: attribute, list, tensor.
  const OpSignature& split = signature(Op::kSplit);
  CHECK(split.attr(0).kind == ParamKind::kInt);
  CHECK(split.attr(1).name == "sizes");
  CHECK(split.attr(1).kind == ParamKind::kInts);
  CHECK(split.tensor(0).name == "x");

  const OpSignature& clip = signature(Op::kClip);
  CHECK(clip.attr(0).kind == ParamKind::kFloat);
  CHECK(clip.attr(1).name == "max");

  // A variadic last tensor parameter answers for every index past it.
  const OpSignature& concat = signature(Op::kConcat);
  CHECK(concat.tensor(0).name == "inputs");
  CHECK(concat.tensor(5).name == "inputs");
  CHECK(concat.tensor(5).variadic);
  const OpSignature& opaque = signature(Op::kOpaque);
  CHECK(opaque.attr(1).name == "output_shapes");
  CHECK(&opaque.tensor(3) == &opaque.tensor(0));
}

TEST_CASE("parameter kinds and ranges are sane") {
  for (const OpSignature& sig : all_signatures()) {
    CAPTURE(sig.name);
    for (std::size_t k = 0; k < sig.params.size(); ++k) {
      const Param& p = sig.params[k];
      CAPTURE(p.name);
      CHECK_FALSE(p.name.empty());
      if (p.kind == ParamKind::kInt) CHECK(p.min <= p.max);
      // Only a trailing tensor parameter may be variadic.
      if (p.variadic) {
        CHECK(p.kind == ParamKind::kTensor);
        CHECK(k + 1 == sig.params.size());
      }
    }
    for (std::size_t k = 0; k < sig.attr_count(); ++k)
      CHECK(sig.attr(k).kind != ParamKind::kTensor);
    for (std::size_t k = 0; k < sig.tensor_count(); ++k)
      CHECK(sig.tensor(k).kind == ParamKind::kTensor);
    // Parameter names are unique within a signature.
    const auto names = param_names(sig);
    CHECK(std::set<std::string_view>(names.begin(), names.end()).size() == names.size());
  }

  const Param& act = signature(Op::kMatmul).attr(0);
  CHECK(act.name == "act");
  CHECK(act.min == 0);
  CHECK(act.max == 3);
  const Param& pad = signature(Op::kPoolMax).attr(4);
  CHECK(pad.min == 0);
  CHECK(pad.max == 2);  // SAME, VALID, SAME_LOWER
  const Param& stride = signature(Op::kConv2d).attr(0);
  CHECK(stride.min == 1);
  CHECK(stride.max == 1048576);
  const Param& flatten_axis = signature(Op::kFlatten).attr(0);
  CHECK(flatten_axis.min == 0);
  CHECK(flatten_axis.max == 8);  // axis == rank is allowed
  const Param& concat_axis = signature(Op::kConcat).attr(0);
  CHECK(concat_axis.max == 7);
  CHECK(signature(Op::kConcat).attr(1).min == 1);
  CHECK(signature(Op::kMerge).attr(0).min == 1);
  CHECK(signature(Op::kOpaque).attr(0).min == 0);
}

TEST_CASE("output counts and view flags") {
  for (const OpSignature& sig : all_signatures()) {
    CAPTURE(sig.name);
    if (sig.op == Op::kSplit || sig.op == Op::kOpaque) {
      CHECK(sig.outputs == -1);
    } else {
      CHECK(sig.outputs == 1);
    }
  }
  CHECK(signature(Op::kInput).view);
  CHECK(signature(Op::kReshape).view);
  CHECK(signature(Op::kIdentity).view);
  CHECK(signature(Op::kNoop).view);
  CHECK_FALSE(signature(Op::kMatmul).view);
  CHECK_FALSE(signature(Op::kConv2d).view);
  CHECK_FALSE(signature(Op::kTranspose).view);
  CHECK_FALSE(signature(Op::kConcat).view);
}
