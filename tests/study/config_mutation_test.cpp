// Mutated study configs never crash the config reader: seeded mutants of every shipped config
// (values of the wrong type, out of range, missing or unexpected) either parse or fail with an
// mctsat::Error naming the file.
#include <algorithm>
#include <filesystem>
#include <string>

#include <doctest/doctest.h>

#include "study/config.hpp"
#include "support/error.hpp"
#include "support/files.hpp"
#include "tests/json_mutations.hpp"

namespace fs = std::filesystem;
using namespace mctsat;

TEST_CASE("mutated study configs parse or fail with an error naming the file") {
  const std::vector<std::string> rules{MCTSAT_SOURCE_DIR "/rules/taso"};
  std::vector<fs::path> configs{fs::path(MCTSAT_SOURCE_DIR) / "examples" / "study.json"};
  for (const auto& entry :
       fs::directory_iterator(fs::path(MCTSAT_SOURCE_DIR) / "bench" / "configs"))
    if (entry.path().extension() == ".json" && entry.path().filename() != "schema.json")
      configs.push_back(entry.path());
  std::sort(configs.begin(), configs.end());
  SplitMix64 random(0x737475647921);
  std::size_t parsed = 0, refused = 0;
  for (const fs::path& config : configs) {
    const nlohmann::json original = nlohmann::json::parse(read_text_file(config.string()));
    for (int mutant = 0; mutant < 150; ++mutant) {
      CAPTURE(config.string());
      CAPTURE(mutant);
      const std::string text =
          testing::mutate_json(original, random, 1 + static_cast<int>(random.below(3))).dump();
      try {
        (void)study::parse_study(text, config.string(), rules);
        ++parsed;
      } catch (const Error& e) {
        CHECK(std::string(e.what()).find(config.filename().string()) != std::string::npos);
        ++refused;
      }
    }
  }
  CHECK(parsed > 0);
  CHECK(refused > 0);
}
