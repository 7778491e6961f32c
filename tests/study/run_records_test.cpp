// Run records: appending lines, reading directories of shard files, deduplication (ok beats a
// failure, else the later record), malformed lines, and merging shards.
#include <filesystem>
#include <fstream>

#include <doctest/doctest.h>

#include "study/run_records.hpp"
#include "support/error.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace mctsat::study;

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

TEST_CASE("a torn last line is cut back before a resume appends") {
  const fs::path dir = fresh_dir("torn");
  const std::string file = (dir / results_file_name(0, 1)).string();
  append_record(file, record("a", 0, "ok"));
  CHECK(cut_torn_tail(file).empty());  // nothing torn
  {
    std::ofstream out(file, std::ios::app);
    out << R"({"id": "b", "index": 1, "sta)";
  }
  const std::string message = cut_torn_tail(file);
  CHECK(message.find("removed a torn last record (28 bytes") != std::string::npos);
  append_record(file, record("b", 1, "ok"));
  std::vector<std::string> warnings;
  CHECK(read_records(dir.string(), &warnings).size() == 2);
  CHECK(warnings.empty());
  CHECK(cut_torn_tail((dir / "missing.jsonl").string()).empty());
}

TEST_CASE("a failed append names the reason and leaves no torn line") {
  // /dev/full accepts the open and fails every write with ENOSPC.
  CHECK_THROWS_WITH_AS(append_record("/dev/full", record("a", 0, "ok")),
                       doctest::Contains("cannot append a record: No space left on device"),
                       mctsat::Error);
}

TEST_CASE("one bench process at a time holds a study directory") {
  const fs::path dir = fresh_dir("lock");
  {
    const StudyDirectoryLock first(dir.string());
    CHECK_THROWS_WITH_AS(StudyDirectoryLock(dir.string()),
                         doctest::Contains("another bench process is writing"), mctsat::Error);
  }
  CHECK_NOTHROW(StudyDirectoryLock(dir.string()));  // released with the first
}

TEST_CASE("bench merge does not write a directory that a bench process holds") {
  const fs::path running = fresh_dir("merge-running"), shard = fresh_dir("merge-shard");
  append_record((running / "runs.jsonl").string(), record("x", 0, "ok"));
  append_record((shard / "runs.jsonl").string(), record("y", 1, "ok"));
  {
    const StudyDirectoryLock bench(running.string());
    CHECK_THROWS_WITH_AS(merge_results({running.string(), shard.string()}, running.string()),
                         doctest::Contains("another bench process is writing"), mctsat::Error);
    CHECK(read_records(running.string()).size() == 1);  // untouched
  }
  CHECK(merge_results({running.string(), shard.string()}, running.string()) == 2);
}

TEST_CASE("records whose status is not a string are skipped as malformed") {
  const fs::path dir = fresh_dir("null-status");
  const std::string file = (dir / results_file_name(0, 1)).string();
  append_record(file, record("a", 0, "ok"));
  append_record(file, {{"study", "s"}, {"id", "b"}, {"index", 1}, {"status", nullptr}});
  std::vector<std::string> warnings;
  CHECK(read_records(dir.string(), &warnings).size() == 1);
  CHECK(warnings.size() == 1);
}
