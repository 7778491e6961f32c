// The option registry is the one declaration of every search option: the study schema's
// parameter definitions are made from it (and bench/configs/schema.json holds exactly those), the
// report's echo has every option, values are checked the same way from JSON and from text (no
// NaN, no wrapping negative numbers, no overflow), and names and aliases resolve.
#include <fstream>
#include <set>
#include <sstream>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "search/option_registry.hpp"
#include "support/error.hpp"

using namespace mctsat;
using nlohmann::json;

TEST_CASE("bench/configs/schema.json holds the registry's parameter definitions") {
  std::ifstream file(std::string(MCTSAT_SOURCE_DIR) + "/bench/configs/schema.json");
  REQUIRE(file);
  const json schema = json::parse(file);
  const json generated = search::options_schema();
  CHECK_MESSAGE(schema["$defs"]["parameter_name"] == generated["parameter_name"],
                "regenerate $defs/parameter_name: " << generated["parameter_name"].dump());
  CHECK_MESSAGE(schema["$defs"]["parameters"] == generated["parameters"],
                "regenerate $defs/parameters: " << generated["parameters"].dump());
}

TEST_CASE("every option has a unique name and flag, help, a reader and a writer") {
  std::set<std::string> names, flags;
  for (const search::OptionSpec& spec : search::option_registry()) {
    CAPTURE(spec.name);
    CHECK(names.insert(spec.name).second);
    for (const std::string& alias : spec.aliases) CHECK(names.insert(alias).second);
    if (!spec.flag.empty()) CHECK(flags.insert(spec.flag).second);
    CHECK_FALSE(spec.help.empty());
    REQUIRE(spec.get);
    REQUIRE(spec.set);
    // The default reads back and sets without error.
    search::OptimizeOptions options;
    const json value = spec.get(options);
    if (!value.is_null()) {
      CHECK(search::option_value_error(spec, value).empty());
      search::set_option(options, spec, value);
      CHECK(spec.get(options) == value);
    }
  }
  CHECK(search::options_json(search::OptimizeOptions{}).size() == search::option_registry().size());
}

TEST_CASE("values are checked alike from text and from JSON") {
  const auto& gamma = *search::find_option("mcts.gamma");
  const auto& seed = *search::find_option("mcts.seed");
  const auto& limit = *search::find_option("mcts.node_limit");
  const auto& tie = *search::find_option("mcts.tie_break");
  CHECK_THROWS_AS(search::option_value_from_text(gamma, "nan"), Error);
  CHECK_THROWS_AS(search::option_value_from_text(gamma, "inf"), Error);
  CHECK_THROWS_AS(search::option_value_from_text(gamma, "0.5x"), Error);
  CHECK_FALSE(
      search::option_value_error(gamma, search::option_value_from_text(gamma, "1.5")).empty());
  CHECK(search::option_value_error(gamma, json(0.9)).empty());
  CHECK_THROWS_AS(search::option_value_from_text(seed, "-5"), Error);
  CHECK_THROWS_AS(search::option_value_from_text(limit, "99999999999999999999"), Error);
  CHECK_FALSE(search::option_value_error(limit, json(0)).empty());
  CHECK_FALSE(search::option_value_error(limit, json(-3)).empty());
  CHECK_FALSE(search::option_value_error(limit, json("12")).empty());
  CHECK_FALSE(search::option_value_error(tie, json("coin")).empty());
  search::OptimizeOptions options;
  search::set_option(options, tie, json("fair"));
  CHECK(options.mcts.tie_break == search::TieBreak::kFair);
  CHECK_THROWS_AS(search::set_option(options, tie, json("coin")), Error);
}

TEST_CASE("older study names resolve to their option") {
  const search::OptionSpec* threads = search::find_option("mcts.threads");
  REQUIRE(threads != nullptr);
  CHECK(threads->name == "threads");
  CHECK(search::find_option("eqsat.threads") == threads);
  CHECK(search::find_option("no.such") == nullptr);
}
