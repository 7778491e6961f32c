// `mctsat bench --slurm` against a real Slurm: a private one-node cluster started by the CTest
// fixture tests/data/start-slurm.sh (daemons from Debian's slurm-wlm and munge). A six-run study
// runs as an array of three tasks; task 0 is cancelled in the middle of its second run; `status`
// says so, a second submission runs only that task, and `collect` gives the same records (run ids
// and costs) as the same study run locally, with none lost or duplicated. When the daemons cannot
// start here, the test says why and exits with 77, which CTest reports as skipped.
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>

#include "tests/cli/cli_runner.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace slurm_cli_test {

const std::string kStudy = std::string(MCTSAT_SOURCE_DIR) + "/tests/data/slurm-study.json";

std::size_t lines_of(const fs::path& file) {
  std::ifstream in(file);
  std::size_t n = 0;
  for (std::string line; std::getline(in, line);) n += line.empty() ? 0 : 1;
  return n;
}

// Polls `bench status` until no task is queued or running (at most three minutes).
json wait_for_tasks(const std::string& dir) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(3);
  while (true) {
    const json status = run_json("bench status " + dir + " --json");
    bool busy = false;
    for (const json& task : status["tasks"])
      busy = busy || task["state"] == "pending" || task["state"] == "running";
    if (!busy) return status;
    REQUIRE_MESSAGE(std::chrono::steady_clock::now() < deadline,
                    "the Slurm tasks did not end in three minutes: " << status.dump());
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
  }
}

// id -> optimized cost of every record of a results file.
std::map<std::string, double> costs_of(const fs::path& file) {
  std::map<std::string, double> out;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) {
    const json record = json::parse(line);
    REQUIRE(record["status"] == "ok");
    out[record["id"]] = record["result"]["optimized_cost_ms"];
  }
  return out;
}

TEST_CASE("a private Slurm cluster is up (or the test skips)") {
  const fs::path cluster(MCTSAT_SLURM_DIR);
  if (fs::exists(cluster / "unavailable")) {
    std::ifstream in(cluster / "unavailable");
    std::string why;
    std::getline(in, why);
    std::printf("skipped: no Slurm cluster for the test: %s\n", why.c_str());
    std::exit(77);
  }
  REQUIRE(fs::exists(cluster / "slurm.conf"));
  ::setenv("SLURM_CONF", (cluster / "slurm.conf").c_str(), 1);
}

TEST_CASE("a study on Slurm: array tasks, a cancelled task, resubmission, collect") {
  Scratch scratch("mctsat-slurm-cli");
  const std::string local = scratch.file("local"), dir = scratch.file("cluster");
  REQUIRE(run_mctsat("bench " + kStudy + " --out " + local + " --quiet").status == 0);
  const auto expected = costs_of(fs::path(local) / "runs.jsonl");
  REQUIRE(expected.size() == 6);

  // A dry run writes the script and submits nothing.
  const json dry =
      run_json("bench " + kStudy + " --out " + dir + " --slurm --tasks 3 --dry-run --json");
  CHECK(dry["job"] == "");
  CHECK(fs::exists(dry["script"].get<std::string>()));
  CHECK_FALSE(fs::exists(fs::path(dir) / "slurm" / "submissions.jsonl"));

  const json first = run_json("bench " + kStudy + " --out " + dir + " --slurm --json");
  const std::string job = first["job"];
  REQUIRE_FALSE(job.empty());
  CHECK(first["submitted"] == json::array({0, 1, 2}));

  // Task 0 owns runs 0 and 3 (round robin); cancel it once run 0 is recorded, during run 3.
  const fs::path part0 = fs::path(dir) / "parts" / "task-0" / "runs.shard-0-of-3.jsonl";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(2);
  while (lines_of(part0) == 0) {
    REQUIRE_MESSAGE(std::chrono::steady_clock::now() < deadline, "task 0 recorded nothing");
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  const CliResult cancel = run_shell("scancel " + job + "_0");
  REQUIRE_MESSAGE(cancel.status == 0, cancel.output);

  json status = wait_for_tasks(dir);
  CHECK(status["runs"] == 6);
  CHECK(status["ok"] == 5);
  CHECK(status["missing"] == 1);
  CHECK(status["tasks"][0]["state"] == "cancelled");
  CHECK(status["tasks"][0]["missing"] == 1);
  CHECK(status["tasks"][1]["state"] == "done");
  CHECK(status["tasks"][2]["state"] == "done");
  const CliResult text = run_mctsat("bench status " + dir);
  CHECK(text.output.find("6 runs: 5 ok, 0 failed, 0 timed out, 1 missing") != std::string::npos);

  // Collecting now keeps what is there and says what is missing.
  const CliResult early = run_mctsat("bench collect " + dir);
  CHECK(early.status == 0);
  CHECK(early.output.find("1 of the study's 6 runs are not recorded yet") != std::string::npos);

  // Submitting again runs only the cancelled task; then there is nothing left to submit.
  const json second = run_json("bench " + kStudy + " --out " + dir + " --slurm --json");
  CHECK(second["submitted"] == json::array({0}));
  CHECK(second["job"] != job);
  status = wait_for_tasks(dir);
  CHECK(status["ok"] == 6);
  for (const json& task : status["tasks"]) CHECK(task["state"] == "done");
  const json third = run_json("bench " + kStudy + " --out " + dir + " --slurm --json");
  CHECK(third["submitted"].empty());
  CHECK(lines_of(fs::path(dir) / "slurm" / "submissions.jsonl") == 2);

  // The collected study equals the local run: the same run ids and costs, each once.
  const json collected = run_json("bench collect " + dir + " --json");
  CHECK(collected["records"] == 6);
  CHECK(lines_of(fs::path(dir) / "runs.jsonl") == 6);
  CHECK(costs_of(fs::path(dir) / "runs.jsonl") == expected);
  const CliResult report = run_mctsat("bench report " + dir + " --no-plots --quiet");
  CHECK_MESSAGE(report.status == 0, report.output);
}

}  // namespace slurm_cli_test
