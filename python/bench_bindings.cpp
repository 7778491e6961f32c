// Studies for Python: run a study config (study/runner: every run in an isolated
// child process, results appended to OUT/runs.jsonl) and read any results directory or runs file
// as a list of plain dicts, one per run (study/run_records), which
// pandas.DataFrame(records) or pandas.json_normalize(records) turns into a table.
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <pybind11/stl.h>

#include "study/machine_info.hpp"
#include "study/run_records.hpp"
#include "study/config.hpp"
#include "study/runner.hpp"
#include "python/bindings.hpp"
#include "python/json_objects.hpp"
#include "python/rule_library_location.hpp"

namespace mctsat::python {

namespace py = pybind11;

void bind_bench(py::module_& m) {
  m.def(
      "run_study",
      [](const std::string& config, const std::string& out, std::size_t jobs, bool resume,
         std::optional<std::vector<std::uint64_t>> seeds) {
        study::Study study = study::load_study(config, {default_rule_path()});
        if (seeds) study::restrict_seeds(study, *seeds);
        study::StudyRunOptions options;
        options.out_dir = out.empty() ? "bench-out/" + study.name : out;
        options.jobs = jobs;
        options.resume = resume;
        options.source_dir = study::build_source_dir();
        std::ostringstream log;
        study::StudyRunSummary s;
        {
          py::gil_scoped_release release;
          s = study::run_study(study, options, log);
        }
        py::dict d;
        d["study"] = study.name;
        d["grid"] = s.grid;
        d["ran"] = s.ran;
        d["failed"] = s.failed;
        d["skipped"] = s.skipped;
        d["results"] = s.results_file;
        d["log"] = log.str();
        return d;
      },
      py::arg("config"), py::arg("out") = "", py::arg("jobs") = 1, py::arg("resume") = false,
      py::arg("seeds") = py::none(),
      "Runs a study config as `mctsat bench CONFIG --out OUT --jobs JOBS` (out defaults to "
      "bench-out/NAME); returns a summary dict (study, grid, ran, failed, skipped, results, log)");
  m.def(
      "load_results",
      [](const std::string& path) {
        std::vector<std::string> warnings;
        const std::vector<nlohmann::json> records = study::read_records(path, &warnings);
        for (const std::string& warning : warnings)
          PyErr_WarnEx(PyExc_RuntimeWarning, warning.c_str(), 1);
        py::list list;
        for (const nlohmann::json& record : records) list.append(to_python(record));
        return list;
      },
      py::arg("path"),
      "Every run record of a results directory (its runs*.jsonl) or of one runs file, as dicts, "
      "deduplicated and in run order; pandas.json_normalize(records) makes a table");
}

}  // namespace mctsat::python
