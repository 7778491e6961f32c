// The work budget (`--work`) does not depend on the machine's load: a seeded default search (mcts
// with TASO's pass beside it, two threads) stopped by a small work budget gives the same graph on
// a quiet process and with two busy loops competing for the cores; and a smaller budget stops the
// search earlier. (A wall-clock budget would stop such a search at a point that depends on load.)
#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include <doctest/doctest.h>

#include "dsl/rule_library.hpp"
#include "frontend/graph_json.hpp"
#include "frontend/zoo.hpp"
#include "search/optimizer.hpp"
#include "search/work_units.hpp"
#include "tensor/device_profile.hpp"
#include "tensor/roofline_cost_model.hpp"
#include "tests/support/fixtures.hpp"

using namespace mctsat;

namespace {

struct Outcome {
  std::string graph;  // the optimized graph's JSON
  double cost = 0;
  search::StopReason mcts_stop = search::StopReason::kStopped;  // the search's: the tree search's
  std::string taso_stop;                                        // TASO's pass's, by name
  std::uint64_t mcts_work = 0, taso_work = 0;
};

Outcome run(std::uint64_t work) {
  const dsl::RuleSet& rules = test_fixtures::taso_rules();
  const tensor::RooflineCostModel& model = test_fixtures::v100_roofline();
  search::OptimizeOptions options;
  options.limits.threads = 2;
  options.limits.work = work;
  options.mcts.seed = 7;
  const search::OptimizeResult result =
      search::optimize(*frontend::build_zoo_model("nasrnn"), rules, model, options);
  const nlohmann::json& mcts = result.record.at("mcts");
  const nlohmann::json& taso = result.record.at("taso");
  return {frontend::graph_to_json(result.graph),
          result.optimized_cost,
          result.stop,
          taso.at("stop_reason").get<std::string>(),
          mcts.at("work").get<std::uint64_t>(),
          taso.at("work").get<std::uint64_t>()};
}

// Two threads spinning until destroyed: the load of two busy processes on the cores.
class BusyLoops {
 public:
  BusyLoops() {
    for (int i = 0; i < 2; ++i)
      threads_.emplace_back([this] {
        volatile std::uint64_t x = 0;
        while (!stop_.load(std::memory_order_relaxed)) x = x * 6364136223846793005ULL + 1;
      });
  }
  ~BusyLoops() {
    stop_ = true;
    for (auto& t : threads_) t.join();
  }

 private:
  std::atomic<bool> stop_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace

TEST_CASE("a work budget gives the same graph on a quiet and on a busy machine") {
  const std::uint64_t budget = 10 * search::kWorkUnitsPerMillion;
  const Outcome quiet = run(budget);
  // The budget binds both searches (each has half).
  CHECK(quiet.mcts_stop == search::StopReason::kWorkLimit);
  CHECK(quiet.taso_stop == "work limit");
  CHECK(quiet.mcts_work >= budget / 2);
  CHECK(quiet.taso_work >= budget / 2);
  Outcome busy;
  {
    const BusyLoops loops;
    busy = run(budget);
  }
  CHECK(busy.graph == quiet.graph);
  CHECK(busy.cost == quiet.cost);
  CHECK(busy.mcts_work == quiet.mcts_work);
  CHECK(busy.taso_work == quiet.taso_work);
  CHECK(busy.mcts_stop == quiet.mcts_stop);
  CHECK(busy.taso_stop == quiet.taso_stop);
  // A smaller budget stops both searches with less work done.
  const Outcome small = run(budget / 4);
  CHECK(small.mcts_work < quiet.mcts_work);
  CHECK(small.taso_work < quiet.taso_work);
}
