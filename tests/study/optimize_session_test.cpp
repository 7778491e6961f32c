// The optimize session names each stage after the search as it starts (on_stage: the CLI's
// progress line shows it), in the order it runs them, and only the stages that run.
#include <filesystem>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "frontend/zoo.hpp"
#include "study/optimize_session.hpp"
#include "support/scratch_directory.hpp"
#include "tests/support/fixtures.hpp"

using namespace mctsat;

TEST_CASE("the optimize session names its stages after the search") {
  const tensor::Graph graph = *frontend::build_zoo_model("squeezenet");
  const ScratchDirectory scratch("mctsat-session-stages");
  study::SessionOptions options;
  options.search.strategy = search::StrategyKind::kGreedy;
  std::vector<std::string> stages;
  options.on_stage = [&](const std::string& stage) { stages.push_back(stage); };

  SUBCASE("a check and a written graph") {
    options.check = study::SessionCheck{};
    options.graph_path = scratch.file("out.onnx");
    const study::SessionResult session = study::run_optimize_session(
        graph, "squeezenet", test_fixtures::taso_rules(), test_fixtures::v100_roofline(), options);
    CHECK_FALSE(session.check_failed());
    CHECK(std::filesystem::exists(options.graph_path));
    CHECK(stages == std::vector<std::string>{"numeric check (--check)", "writing"});
  }
  SUBCASE("nothing to check, nothing written") {
    study::run_optimize_session(graph, "squeezenet", test_fixtures::taso_rules(),
                                test_fixtures::v100_roofline(), options);
    CHECK(stages.empty());
  }
}
