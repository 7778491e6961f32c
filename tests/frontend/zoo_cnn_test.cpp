// The zoo's VGG-19, SqueezeNet, MobileNet-v2 and Inception-v3 have TENSAT's operator counts and
// match TASO's .model exports they were rebuilt from: the same operators per kind, parameters,
// input and output shapes, operators with the same attributes, and the same roofline cost (which sums over every operator's shapes).
#include <set>
#include <string>

#include <doctest/doctest.h>

#include "frontend/model_io.hpp"
#include "frontend/zoo.hpp"
#include "tensor/cost_model.hpp"
#include "tensor/graph_stats.hpp"
#include "tests/support/fixtures.hpp"

using namespace mctsat;

namespace {

// Every operator with its attributes (strides, padding codes, ...), as a multiset.
std::multiset<std::string> operator_signatures(const tensor::Graph& graph) {
  std::multiset<std::string> out;
  for (const auto& node : graph.nodes()) {
    if (node.op == tensor::Op::kInput || node.op == tensor::Op::kWeight) continue;
    std::string text(tensor::op_name(node.op));
    for (const auto& attr : node.attrs) text += " " + tensor::attr_string(attr);
    out.insert(text);
  }
  return out;
}

void check_against_model_file(const std::string& zoo_name, const std::string& file,
                              std::size_t operators) {
  CAPTURE(zoo_name);
  const tensor::Graph built = *frontend::build_zoo_model(zoo_name);
  const tensor::Graph taso =
      frontend::load_model(MCTSAT_TENSAT_DATA_DIR "/model/" + file + ".model");
  const tensor::GraphStats ours = tensor::graph_stats(built), theirs = tensor::graph_stats(taso);
  CHECK(ours.operators == operators);
  CHECK(ours.by_op == theirs.by_op);
  CHECK(operator_signatures(built) == operator_signatures(taso));
  CHECK(ours.parameters == theirs.parameters);
  REQUIRE(built.outputs().size() == 1);
  CHECK(built.type_of(built.outputs()[0].tensor) == taso.type_of(taso.outputs()[0].tensor));
  const auto& roofline = test_fixtures::v100_roofline();
  CHECK(tensor::graph_cost(built, roofline) ==
        doctest::Approx(tensor::graph_cost(taso, roofline)).epsilon(1e-12));
}

}  // namespace

TEST_CASE("vgg19 matches TASO's VGG-19 export (50 operators)") {
  check_against_model_file("vgg19", "vgg", 50);
}

TEST_CASE("squeezenet matches TASO's SqueezeNet export (66 operators)") {
  check_against_model_file("squeezenet", "squeezenet", 66);
}

TEST_CASE("mobilenetv2 matches TASO's MobileNet-v2 export (155 operators)") {
  check_against_model_file("mobilenetv2", "mobilenetv2", 155);
}

TEST_CASE("inceptionv3 matches TASO's Inception-v3 export (138 operators)") {
  check_against_model_file("inceptionv3", "inceptionv3", 138);
}
