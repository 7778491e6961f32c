// Reading a Slurm study's plan and submissions (see slurm_layout.hpp).
#include "study/slurm_layout.hpp"

#include <filesystem>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "support/error.hpp"
#include "support/files.hpp"

namespace mctsat::study {

using json = nlohmann::json;

SlurmPlan read_slurm_plan(const SlurmLayout& layout) {
  if (!std::filesystem::exists(layout.plan()))
    throw Error(
        "no Slurm study here (no slurm/plan.json): submit one with `mctsat bench CONFIG "
        "--out DIR --slurm`",
        SourceLocation::at(layout.dir));
  const json plan = json::parse(read_text_file(layout.plan()), nullptr, false);
  SlurmPlan out;
  const auto malformed = [&] {
    return Error("malformed Slurm plan", SourceLocation::at(layout.plan()));
  };
  if (!plan.is_object() || !plan.contains("study") || !plan["study"].is_string() ||
      !plan.contains("tasks") || !plan["tasks"].is_array())
    throw malformed();
  out.study = plan["study"].get<std::string>();
  out.config = plan.value("config", "");
  for (const json& task : plan["tasks"]) {
    if (!task.is_array()) throw malformed();
    std::vector<std::string> ids;
    for (const json& id : task) {
      if (!id.is_string()) throw malformed();
      ids.push_back(id.get<std::string>());
    }
    out.tasks.push_back(std::move(ids));
  }
  return out;
}

std::vector<SlurmJob> read_submissions(const SlurmLayout& layout) {
  std::vector<SlurmJob> jobs;
  if (!std::filesystem::exists(layout.submissions())) return jobs;
  std::istringstream in(read_text_file(layout.submissions()));
  std::string line;
  for (std::uint32_t number = 1; std::getline(in, line); ++number) {
    if (line.empty()) continue;
    const json record = json::parse(line, nullptr, false);
    if (!record.is_object() || !record.contains("job") || !record["job"].is_string() ||
        !record.contains("tasks") || !record["tasks"].is_array())
      throw Error("malformed submission record",
                  SourceLocation::at(layout.submissions(), number, 1));
    SlurmJob job{record["job"].get<std::string>(), {}};
    for (const json& task : record["tasks"]) {
      if (!task.is_number_unsigned())
        throw Error("malformed submission record",
                    SourceLocation::at(layout.submissions(), number, 1));
      job.tasks.push_back(task.get<std::size_t>());
    }
    jobs.push_back(std::move(job));
  }
  return jobs;
}

}  // namespace mctsat::study
