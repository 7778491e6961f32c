// `mctsat ops`: the operator catalog as text, JSON and Markdown, complete and in catalog order.
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "tensor/op.hpp"
#include "tests/cli/cli_runner.hpp"

using nlohmann::json;

TEST_CASE("ops --json lists every catalog operator with its signature") {
  const json ops = run_json("ops --json");
  const auto catalog = mctsat::tensor::all_signatures();
  REQUIRE(ops.size() == catalog.size());
  for (std::size_t i = 0; i < catalog.size(); ++i) {
    CHECK(ops[i]["name"] == std::string(catalog[i].name));
    CHECK(ops[i]["params"].size() == catalog[i].params.size());
  }
  const json conv = run_json("ops conv2d --json").at(0);
  CHECK(conv["form"] == "(conv2d stride_h stride_w pad act x w)");
  CHECK(conv["params"][2]["name"] == "pad");
  CHECK(conv["params"][2]["kind"] == "integer");
  CHECK(conv["params"][2]["range"] == json::array({0, 2}));
  CHECK(conv["in_rules"] == true);
  const json concat = run_json("ops concat --json").at(0);
  CHECK(concat["form"] == "(concat axis ndim inputs...)");
  CHECK(concat["params"][2]["variadic"] == true);
  CHECK(run_json("ops input --json").at(0)["in_rules"] == false);
  CHECK(run_json("ops split --json").at(0)["outputs"] == "one per size");
}

TEST_CASE("ops prints a line per operator, a Markdown table, and rejects unknown names") {
  const CliResult text = run_mctsat("ops");
  REQUIRE_MESSAGE(text.status == 0, text.output);
  CHECK(text.output.find("(matmul act a b)") != std::string::npos);
  CHECK(text.output.find("act: integer 0..3") != std::string::npos);
  CHECK(text.output.find("(clip min max x)") != std::string::npos);
  const CliResult markdown = run_mctsat("ops --markdown");
  REQUIRE(markdown.status == 0);
  CHECK(markdown.output.rfind("| operator | form |", 0) == 0);
  CHECK(std::count(markdown.output.begin(), markdown.output.end(), '\n') ==
        static_cast<long>(mctsat::tensor::kOpCount + 2));
  const CliResult unknown = run_mctsat("ops conv3d");
  CHECK(unknown.status != 0);
  CHECK(unknown.output.find("no operator is named 'conv3d'") != std::string::npos);
  CHECK(run_mctsat("ops --json --markdown").status != 0);
}
