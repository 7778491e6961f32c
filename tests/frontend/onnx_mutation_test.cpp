// Mutated ONNX models never crash the import: thousands of seeded mutants of exported zoo models,
// some cut or flipped byte by byte, most edited through the protobuf (attributes set to zero,
// negative or huge values, shapes of zero or 10^12 elements, unknown operators and tensors,
// other opsets, truncated weights), each either imports or fails with a located mctsat::Error.
// A crash, an assertion or another exception fails the test; the seed and the mutant's number
// say which input to replay.
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <onnx/onnx_pb.h>

#include "frontend/model_io.hpp"
#include "frontend/onnx_export.hpp"
#include "frontend/onnx_import.hpp"
#include "support/error.hpp"
#include "support/splitmix64.hpp"
#include "tensor/egraph_conversion.hpp"

using namespace mctsat;

namespace {

constexpr std::array<std::int64_t, 9> kInts{
    0, -1, 1, 2, 3, 7, std::int64_t{1} << 31, 1'000'000'000'000, -(std::int64_t{1} << 40)};
constexpr std::array<const char*, 10> kOps{"Conv",  "Relu",    "MatMul",  "Gemm",      "Concat",
                                           "Split", "Reshape", "MaxPool", "Transpose", "Nonsense"};

template <typename T>
T pick(SplitMix64& random, const T* values, std::size_t n) {
  return values[random.below(static_cast<std::uint32_t>(n))];
}

std::int64_t any_int(SplitMix64& random) {
  return pick(random, kInts.data(), kInts.size());
}

void mutate_attribute(onnx::AttributeProto& attribute, SplitMix64& random) {
  switch (random.below(4)) {
    case 0:
      for (auto& value : *attribute.mutable_ints()) value = any_int(random);
      if (attribute.ints_size() == 0) attribute.add_ints(any_int(random));
      break;
    case 1:
      attribute.set_i(any_int(random));
      break;
    case 2:
      attribute.set_f(random.below(2) != 0 ? std::numeric_limits<float>::quiet_NaN()
                                           : std::numeric_limits<float>::infinity());
      break;
    default:
      attribute.clear_ints();
      attribute.set_type(onnx::AttributeProto::STRING);
      attribute.set_s("same");
  }
}

void mutate_dims(google::protobuf::RepeatedField<std::int64_t>& dims, SplitMix64& random) {
  if (dims.empty() || random.below(4) == 0) {
    dims.Add(any_int(random));
    return;
  }
  dims.Set(static_cast<int>(random.below(static_cast<std::uint32_t>(dims.size()))),
           any_int(random));
}

// One structural edit of the model.
void mutate_model(onnx::ModelProto& model, SplitMix64& random) {
  onnx::GraphProto& graph = *model.mutable_graph();
  const auto node_at = [&]() -> onnx::NodeProto& {
    return *graph.mutable_node(static_cast<int>(random.below(graph.node_size())));
  };
  switch (random.below(9)) {
    case 0: {  // an attribute's value
      onnx::NodeProto& node = node_at();
      if (node.attribute_size() > 0)
        mutate_attribute(
            *node.mutable_attribute(static_cast<int>(random.below(node.attribute_size()))), random);
      break;
    }
    case 1:  // another operator
      node_at().set_op_type(pick(random, kOps.data(), kOps.size()));
      break;
    case 2: {  // an input dropped or renamed to nothing known
      onnx::NodeProto& node = node_at();
      if (node.input_size() > 0 && random.below(2) == 0)
        node.mutable_input()->RemoveLast();
      else
        node.add_input(random.below(2) == 0 ? "" : "no_such_tensor");
      break;
    }
    case 3: {  // a weight's shape
      if (graph.initializer_size() == 0) break;
      onnx::TensorProto& weight =
          *graph.mutable_initializer(static_cast<int>(random.below(graph.initializer_size())));
      mutate_dims(*weight.mutable_dims(), random);
      break;
    }
    case 4: {  // a weight's data cut short
      if (graph.initializer_size() == 0) break;
      onnx::TensorProto& weight =
          *graph.mutable_initializer(static_cast<int>(random.below(graph.initializer_size())));
      if (weight.has_raw_data())
        weight.set_raw_data(weight.raw_data().substr(0, weight.raw_data().size() / 2));
      else if (weight.float_data_size() > 0)
        weight.mutable_float_data()->Truncate(weight.float_data_size() / 2);
      break;
    }
    case 5: {  // a graph input's shape
      if (graph.input_size() == 0) break;
      auto* shape = graph.mutable_input(0)->mutable_type()->mutable_tensor_type()->mutable_shape();
      if (shape->dim_size() == 0) break;
      auto* dim = shape->mutable_dim(static_cast<int>(random.below(shape->dim_size())));
      if (random.below(3) == 0)
        dim->set_dim_param("batch");
      else
        dim->set_dim_value(any_int(random));
      break;
    }
    case 6:  // another opset
      if (model.opset_import_size() > 0)
        model.mutable_opset_import(0)->set_version(pick(random, kInts.data(), kInts.size()) % 30);
      break;
    case 7:  // a node removed (its outputs dangle)
      if (graph.node_size() > 1)
        graph.mutable_node()->DeleteSubrange(static_cast<int>(random.below(graph.node_size())), 1);
      break;
    default:  // an output renamed
      if (graph.output_size() > 0) graph.mutable_output(0)->set_name("nowhere");
  }
}

// Byte-level damage: flips, a cut, or a chunk repeated.
void mutate_bytes(std::string& bytes, SplitMix64& random) {
  if (bytes.empty()) return;
  switch (random.below(3)) {
    case 0:
      for (int i = 0; i < 4; ++i)
        bytes[random.below(static_cast<std::uint32_t>(bytes.size()))] ^=
            static_cast<char>(1u << random.below(8));
      break;
    case 1:
      bytes.resize(random.below(static_cast<std::uint32_t>(bytes.size())));
      break;
    default: {
      const std::size_t at = random.below(static_cast<std::uint32_t>(bytes.size()));
      bytes.insert(at, bytes.substr(at, 64));
    }
  }
}

}  // namespace

TEST_CASE("mutated ONNX models import or fail with a located error, never crash") {
  for (const char* zoo : {"demo", "squeezenet", "nasrnn"}) {
    const std::string original = frontend::graph_to_onnx(frontend::load_model(zoo), zoo);
    onnx::ModelProto parsed;
    REQUIRE(parsed.ParseFromString(original));
    SplitMix64 random(0x6f6e6e78 + original.size());
    std::size_t imported = 0, refused = 0;
    for (int mutant = 0; mutant < 400; ++mutant) {
      CAPTURE(zoo);
      CAPTURE(mutant);
      std::string bytes;
      if (random.below(5) == 0) {
        bytes = original;
        mutate_bytes(bytes, random);
      } else {
        onnx::ModelProto model = parsed;
        for (std::uint32_t edits = 1 + random.below(3); edits > 0; --edits)
          mutate_model(model, random);
        bytes = model.SerializeAsString();
      }
      try {
        const tensor::Graph graph = frontend::graph_from_onnx(bytes, "mutant.onnx");
        (void)tensor::to_egraph(graph);
        ++imported;
      } catch (const Error& e) {
        CHECK(std::string(e.what()).find("mutant.onnx") != std::string::npos);
        ++refused;
      }
    }
    // The mutants reach both outcomes: the edits are neither all fatal nor all harmless.
    CHECK(imported > 0);
    CHECK(refused > 0);
  }
}
