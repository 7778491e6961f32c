// libFuzzer target for the bench study config parser: arbitrary bytes go through
// study::parse_study (JSON syntax, keys, value types and ranges, models, rule sets, cost models,
// the grid's expansion), which may only return a study or throw mctsat::Error; any other
// exception, crash, hang or leak is a finding. A study it returns must expand to runs with
// distinct ids, each naming a model, rule set and cost model of the study. Built and run by
// tests/fuzz/run_fuzzer.sh study_config (CTest test study_config_fuzz).
//
// The parser checks that model and rule files exist and loads device profiles and cost tables.
// Relative paths resolve against the config's directory, which does not exist; an input with a
// string that could name a real file anyway (an absolute path, `..`, a `~`) is only parsed as
// JSON, so that no input makes the target read a file. (The measured cost model's default cache
// lies under XDG_CACHE_HOME, which run_fuzzer.sh points at an empty directory.)
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "study/config.hpp"
#include "support/error.hpp"
#include "support/json_text.hpp"

namespace {

constexpr const char* kPath = "/nonexistent-mctsat-fuzz/study.json";

bool names_no_file(const nlohmann::json& value) {
  if (value.is_string()) {
    const auto& s = value.get_ref<const std::string&>();
    return s.empty() || (s.front() != '/' && s.front() != '~' && s.find("..") == std::string::npos);
  }
  if (value.is_structured())
    for (const auto& item : value)
      if (!names_no_file(item)) return false;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  using namespace mctsat;
  try {
    if (!names_no_file(parse_json_text(text, kPath))) return 0;
    const study::Study study = study::parse_study(text, kPath, {"default.rules"});
    std::set<std::string> ids;
    for (const study::RunSpec& run : study.runs)
      if (!ids.insert(run.id).second || run.model >= study.models.size() ||
          run.rules >= study.rules.size() || run.cost >= study.costs.size())
        std::abort();
  } catch (const Error&) {
  }
  return 0;
}
