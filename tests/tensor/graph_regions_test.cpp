// Cutting a graph into regions and joining them back: a stack of equal layers is cut between
// layers (only the hidden state crosses) into regions of equal structure, every region is a
// standalone valid graph, and joining the unchanged regions gives back a graph of the same cost
// and operators; one region's graph serves every region of its structure.
#include <set>

#include <doctest/doctest.h>

#include "frontend/zoo.hpp"
#include "tensor/device_profile.hpp"
#include "tensor/graph_regions.hpp"
#include "tensor/graph_stats.hpp"
#include "tensor/roofline_cost_model.hpp"
#include "tests/support/fixtures.hpp"

using namespace mctsat;

namespace {

tensor::Graph join_unchanged(const tensor::Graph& graph,
                             const std::vector<tensor::GraphRegion>& regions, bool shared) {
  std::vector<const tensor::Graph*> graphs;
  std::vector<std::size_t> representative;
  for (std::size_t r = 0; r < regions.size(); ++r) {
    std::size_t rep = r;
    if (shared)
      for (std::size_t k = 0; k < r; ++k)
        if (regions[k].structure_key == regions[r].structure_key) {
          rep = k;
          break;
        }
    representative.push_back(rep);
    graphs.push_back(&regions[rep].graph);
  }
  return tensor::join_regions(graph, regions, graphs, representative);
}

}  // namespace

TEST_CASE("an unrolled recurrent network is cut between steps into regions of equal structure") {
  const tensor::Graph graph = *frontend::build_zoo_model("nasrnn-12");
  CHECK(tensor::operator_count(graph) == 12 * 46);
  const auto regions = tensor::cut_into_regions(graph, 100);
  REQUIRE(regions.size() == 6);  // two steps (92 operators) each
  std::set<std::string> keys;
  for (const auto& region : regions) {
    CHECK(region.operators == 92);
    CHECK(region.graph.outputs().size() == 1);  // the state
    keys.insert(region.structure_key);
  }
  // The first steps read the initial state, a weight (its products are free); the rest are alike.
  CHECK(keys.size() == 2);
  CHECK(regions[1].structure_key == regions[5].structure_key);
  CHECK(regions[0].structure_key != regions[1].structure_key);

  const tensor::RooflineCostModel& model = test_fixtures::v100_roofline();
  for (const bool shared : {false, true}) {
    const tensor::Graph joined = join_unchanged(graph, regions, shared);
    CHECK(tensor::operator_count(joined) == tensor::operator_count(graph));
    CHECK(tensor::graph_cost(joined, model) == doctest::Approx(tensor::graph_cost(graph, model)));
    CHECK(joined.outputs().size() == 1);
  }
}

TEST_CASE("a graph no larger than the region size is one region; every layer stack is cut") {
  const tensor::Graph bert = *frontend::build_zoo_model("bert");
  CHECK(tensor::cut_into_regions(bert, 1000).size() == 1);
  const tensor::Graph deep = *frontend::build_zoo_model("bert-24");
  const auto regions = tensor::cut_into_regions(deep, 60);
  CHECK(regions.size() > 4);
  std::size_t operators = 0;
  for (const auto& region : regions) {
    CHECK(region.operators <= 60);
    CHECK(region.operators >= 30);
    operators += region.operators;
  }
  CHECK(operators == tensor::operator_count(deep));
  const tensor::RooflineCostModel& model = test_fixtures::v100_roofline();
  const tensor::Graph joined = join_unchanged(deep, regions, true);
  CHECK(joined.outputs().size() == deep.outputs().size());
  CHECK(tensor::graph_cost(joined, model) == doctest::Approx(tensor::graph_cost(deep, model)));
}

TEST_CASE("generated zoo names: family and size") {
  CHECK(frontend::is_zoo_model("nasrnn-40"));
  CHECK(frontend::is_zoo_model("deepcnn-3"));
  CHECK(frontend::is_zoo_model("bert"));
  CHECK_FALSE(frontend::is_zoo_model("nasrnn-0"));
  CHECK_FALSE(frontend::is_zoo_model("nasrnn-05"));
  CHECK_FALSE(frontend::is_zoo_model("nasrnn-99999"));
  CHECK_FALSE(frontend::is_zoo_model("nasrnn-"));
  CHECK_FALSE(frontend::is_zoo_model("resnet50-3"));
  CHECK(tensor::operator_count(*frontend::build_zoo_model("nasrnn-5")) ==
        tensor::operator_count(*frontend::build_zoo_model("nasrnn")));
  CHECK(tensor::operator_count(*frontend::build_zoo_model("deepcnn-3")) == 15);
}
