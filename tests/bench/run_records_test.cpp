// Run records: appending lines, reading directories of shard files, deduplication (ok beats a
// failure, else the later record), malformed lines, and merging shards.
#include <filesystem>
#include <fstream>

#include <doctest/doctest.h>

#include "bench/harness/run_records.hpp"
#include "support/error.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace mctsat::bench;

namespace {
fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / "mctsat-records-test" / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}
json record(const std::string& id, std::size_t index, const std::string& status) {
  return {{"study", "s"}, {"id", id}, {"index", index}, {"status", status}};
}
}  // namespace

TEST_CASE("records append as lines and read back sorted and deduplicated") {
  const fs::path dir = fresh_dir("append");
  const std::string file = (dir / results_file_name(0, 1)).string();
  append_record(file, record("b", 1, "timeout"));
  append_record(file, record("a", 0, "ok"));
  append_record(file, record("b", 1, "ok"));     // a retried failure
  append_record(file, record("a", 0, "error"));  // ok beats a later failure
  {
    std::ofstream out(file, std::ios::app);
    out << R"({"id": "c", "index": 2, "sta)";  // cut off mid-write
  }
  std::vector<std::string> warnings;
  const auto records = read_records(dir.string(), &warnings);
  REQUIRE(records.size() == 2);
  CHECK(records[0]["id"] == "a");
  CHECK(records[0]["status"] == "ok");
  CHECK(records[1]["id"] == "b");
  CHECK(records[1]["status"] == "ok");
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].find(":5:") != std::string::npos);
  CHECK_THROWS_AS(read_records((dir / "missing").string()), mctsat::Error);
}

TEST_CASE("shard files merge into one runs.jsonl") {
  const fs::path a = fresh_dir("shard-a"), b = fresh_dir("shard-b"), out = fresh_dir("merged");
  append_record((a / results_file_name(0, 2)).string(), record("x", 0, "ok"));
  append_record((a / results_file_name(0, 2)).string(), record("z", 2, "ok"));
  append_record((b / results_file_name(1, 2)).string(), record("y", 1, "memory"));
  std::ofstream(a / kConfigCopyName) << R"({"name": "s"})";
  CHECK(results_file_name(1, 2) == "runs.shard-1-of-2.jsonl");
  CHECK(merge_results({a.string(), b.string()}, out.string()) == 3);
  const auto merged = read_records((out / "runs.jsonl").string());
  REQUIRE(merged.size() == 3);
  CHECK(merged[1]["id"] == "y");
  CHECK(fs::exists(out / kConfigCopyName));
  // Records of another study do not merge.
  const fs::path other = fresh_dir("other");
  append_record((other / "runs.jsonl").string(),
                {{"study", "t"}, {"id", "q"}, {"index", 0}, {"status", "ok"}});
  CHECK_THROWS_AS(merge_results({a.string(), other.string()}, out.string()), mctsat::Error);
}
