// optimize() and extract() for Python. optimize(model, **options) takes every option of
// `mctsat optimize`: the registry's (search/option_registry.hpp), each under its name with '_'
// for '.' ("mcts_node_limit") and its flag's name ("node_limit"), generated from the registry
// at import; the rule selection and cost model as keywords of their own; and Python hooks
// (progress, on_step, reward). It returns an OptimizeResult: the typed report (as attributes, as a
// dict and as the JSON text `mctsat optimize --json` prints), the optimized graph and optionally
// the final e-graph in egraph-serialize form. The GIL is released during the search; Ctrl-C
// (checked at every progress report and Python callback) raises KeyboardInterrupt.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <pybind11/stl.h>

#include "dsl/rule_library.hpp"
#include "egraph/serialize.hpp"
#include "extract/serialized_problem.hpp"
#include "frontend/model_io.hpp"
#include "python/bindings.hpp"
#include "python/json_objects.hpp"
#include "python/model_handle.hpp"
#include "python/python_cost_model.hpp"
#include "python/rule_library_location.hpp"
#include "runtime/measured_speedup.hpp"
#include "search/optimize_report.hpp"
#include "search/optimizer.hpp"
#include "search/option_registry.hpp"
#include "search/strategies.hpp"
#include "study/optimize_session.hpp"
#include "support/error.hpp"

namespace mctsat::python {

namespace py = pybind11;

namespace {

// The keyword names of a registry option: its name and its older study names (aliases) with '_'
// for '.', and its flag's names that set it (not the "!--no-..." ones), with '_' for '-'.
std::vector<std::string> keywords_of(const search::OptionSpec& spec) {
  std::vector<std::string> names;
  const auto add = [&](std::string name) {
    if (std::find(names.begin(), names.end(), name) == names.end())
      names.push_back(std::move(name));
  };
  std::string name = spec.name;
  std::replace(name.begin(), name.end(), '.', '_');
  add(name);
  for (std::string alias : spec.aliases) {
    std::replace(alias.begin(), alias.end(), '.', '_');
    add(alias);
  }
  std::string_view flags = spec.flag;
  while (!flags.empty()) {
    const auto comma = flags.find(',');
    std::string_view flag = flags.substr(0, comma);
    if (flag.starts_with("--")) {
      std::string keyword(flag.substr(2));
      std::replace(keyword.begin(), keyword.end(), '-', '_');
      add(keyword);
    }
    flags = comma == std::string_view::npos ? std::string_view() : flags.substr(comma + 1);
  }
  return names;
}

const std::map<std::string, const search::OptionSpec*>& option_keywords() {
  static const auto keywords = [] {
    std::map<std::string, const search::OptionSpec*> map;
    for (const search::OptionSpec& spec : search::option_registry())
      for (const std::string& keyword : keywords_of(spec)) map.emplace(keyword, &spec);
    return map;
  }();
  return keywords;
}

// The registry's options set from keyword arguments; a bad value is an mctsat.Error naming the
// keyword, an unknown keyword a TypeError.
search::OptimizeOptions options_from(const py::kwargs& kwargs) {
  search::OptimizeOptions options;
  std::map<const search::OptionSpec*, std::string> given;
  for (const auto& [key, value] : kwargs) {
    const std::string keyword = key.cast<std::string>();
    const auto found = option_keywords().find(keyword);
    if (found == option_keywords().end())
      throw py::type_error(fmt::format(
          "optimize() got an unexpected keyword argument '{}' (mctsat.options() lists them)",
          keyword));
    const search::OptionSpec& spec = *found->second;
    if (const auto [it, inserted] = given.emplace(&spec, keyword); !inserted)
      throw py::type_error(fmt::format("optimize(): '{}' and '{}' set the same option '{}'",
                                       it->second, keyword, spec.name));
    try {
      search::set_option(options, spec, from_python(value));
    } catch (const Error& e) {
      throw Error(
          fmt::format("{}={}: {}", keyword, py::repr(value).cast<std::string>(), e.message()));
    }
  }
  return options;
}

std::vector<std::string> strings_from(py::handle value) {
  if (value.is_none()) return {};
  if (py::isinstance<py::str>(value)) return {value.cast<std::string>()};
  return value.cast<std::vector<std::string>>();
}

// One optimization's outcome for Python.
struct OptimizeOutcome {
  search::OptimizeReport report;
  std::shared_ptr<Model> graph;
  std::optional<std::string> egraph;  // egraph-serialize JSON, when asked for
  nlohmann::json json() const { return report.to_json(); }
};

std::shared_ptr<Model> model_from(py::handle model) {
  if (py::isinstance<Model>(model)) return model.cast<std::shared_ptr<Model>>();
  if (py::isinstance<py::str>(model)) {
    const std::string name = model.cast<std::string>();
    py::gil_scoped_release release;
    return std::make_shared<Model>(Model{name, frontend::load_model(name)});
  }
  throw py::type_error("model: expected a mctsat.Model or a zoo name or model path, got " +
                       py::repr(model).cast<std::string>());
}

py::dict step_dict(const search::MctsStep& step, std::size_t number, const dsl::RuleSet& rules) {
  py::dict d;
  d["step"] = number;
  d["rule"] = rules.rule(step.rule).name;
  d["mean_value"] = step.mean_value;
  d["cost_ms"] = step.cost;
  d["nodes"] = step.nodes;
  d["simulations"] = step.simulations;
  return d;
}

double checked_number(const py::object& value, const char* what) {
  const double number = PyFloat_AsDouble(value.ptr());
  if (number == -1.0 && PyErr_Occurred()) throw py::error_already_set();
  if (!std::isfinite(number)) {
    PyErr_SetString(PyExc_ValueError, fmt::format("{} returned {}: expected a finite number", what,
                                                  py::repr(value).cast<std::string>())
                                          .c_str());
    throw py::error_already_set();
  }
  return number;
}

OptimizeOutcome optimize(py::handle model_spec, py::handle rule_paths, py::handle rulesets,
                         py::handle tags, py::handle exclude_tags, py::handle rule_names,
                         py::handle cost_model, const std::string& device,
                         const std::string& cost_table, bool cost_fallback, bool check,
                         double tolerance, bool verify_rules, bool measure, int measure_runs,
                         int measure_instances, int measure_threads, bool export_egraph,
                         py::object progress, py::object on_step, py::object reward,
                         const py::kwargs& kwargs) {
  study::SessionOptions session_options;
  session_options.search = options_from(kwargs);
  const std::shared_ptr<Model> model = model_from(model_spec);
  const std::vector<std::string> paths =
      rule_paths.is_none()
          ? std::vector<std::string>{default_rule_path()}
          : dsl::resolve_rule_sources(strings_from(rule_paths), rule_library_dir());
  const dsl::RuleSelection selection{strings_from(rulesets), strings_from(tags),
                                     strings_from(exclude_tags), strings_from(rule_names)};
  if (check) session_options.check = study::SessionCheck{tolerance, 1};  // as `optimize --check`
  if (measure)
    session_options.measure = runtime::SpeedupMeasureOptions{
        .runs = measure_runs, .instances = measure_instances, .threads = measure_threads};
  session_options.export_egraph = export_egraph;
  session_options.egraph_flag = "export_egraph";
  study::check_session_options(session_options);
  if ((!on_step.is_none() || !reward.is_none()) &&
      !search::strategy_traits(session_options.search.strategy).step_hooks)
    throw Error(fmt::format("on_step and reward: only strategy {} has planning steps and rewards",
                            search::strategy_names_where(&search::StrategyTraits::step_hooks)));
  const CostModelHandle cost = cost_model_from(cost_model, device, cost_table, cost_fallback);

  CallbackErrors errors;
  OptimizeOutcome outcome;
  errors.run_without_gil([&] {
    std::string unverified;  // a warning about user rules without a passing verification
    const dsl::RuleSet rules =
        study::selected_rules(paths, selection, verify_rules, rule_library_dir(), &unverified);
    if (!unverified.empty())
      errors.call([&] {
        if (PyErr_WarnEx(PyExc_UserWarning, unverified.c_str(), 1) != 0)
          throw py::error_already_set();
      });
    const std::unique_ptr<tensor::CostModel> priced = cost.bind(errors);
    search::OptimizeOptions& options = session_options.search;
    // Every progress report checks for Ctrl-C (the search runs on this, the calling, thread).
    options.progress = [&](const search::Progress& p) {
      errors.call(
          [&] {
            if (progress.is_none()) return;
            py::dict d;
            d["step"] = p.step;
            d["limit"] = p.limit;
            d["best_cost_ms"] = p.best_cost;
            d["nodes"] = p.nodes;
            d["seconds"] = p.seconds;
            d["phase"] = p.phase;
            d["region"] = p.region;
            d["regions"] = p.regions;
            progress(d);
          },
          true);
    };
    if (!on_step.is_none())
      options.mcts.on_step = [&](const search::MctsStep& step, std::size_t number) {
        return errors.call(
            [&] {
              const py::object answer = on_step(step_dict(step, number, rules));
              return !(py::isinstance<py::bool_>(answer) && !answer.cast<bool>());
            },
            true);
      };
    if (!reward.is_none())
      options.mcts.reward = [&](double parent_cost, double cost_after) {
        return errors.call(
            [&] { return checked_number(reward(parent_cost, cost_after), "reward"); });
      };
    study::SessionResult session =
        study::run_optimize_session(model->graph, model->name, rules, *priced, session_options);
    if (session.egraph) outcome.egraph = egraph::to_json(*session.egraph);
    outcome.graph =
        std::make_shared<Model>(Model{model->name + "-optimized", session.output(model->graph)});
    outcome.report = std::move(session.report);
  });
  // The hooks refer to this call's Python objects: the report keeps its options, not them.
  outcome.report.options.progress = nullptr;
  outcome.report.options.mcts.on_step = nullptr;
  outcome.report.options.mcts.reward = nullptr;
  outcome.report.options.final_egraph = nullptr;
  return outcome;
}

// Each registry option with its keywords, for mctsat.options() and optimize's docstring.
py::list options_list() {
  const search::OptimizeOptions defaults;
  py::list list;
  for (const search::OptionSpec& spec : search::option_registry()) {
    py::dict d;
    d["name"] = spec.name;
    d["keywords"] = keywords_of(spec);
    d["type"] = spec.type == search::OptionType::kCount  ? "count"
                : spec.type == search::OptionType::kReal ? "real"
                : spec.type == search::OptionType::kFlag ? "flag"
                                                         : "choice";
    d["default"] = to_python(spec.get(defaults));
    d["help"] = spec.help;
    d["choices"] = spec.choices;
    d["strategies"] = search::used_by_text(spec);
    list.append(d);
  }
  return list;
}

std::string optimize_doc() {
  std::string doc =
      "optimize(model, *, rules=None, ruleset=None, tags=None, exclude_tags=None, rule=None,\n"
      "         cost_model=None, device='v100', cost_table='', cost_fallback=False,\n"
      "         check=False, tolerance=1e-6, verify_rules=False, measure=False, measure_runs=10,\n"
      "         measure_instances=2, measure_threads=0, export_egraph=False, progress=None,\n"
      "         on_step=None, reward=None, **options)\n\n"
      "Optimizes a model (a mctsat.Model, zoo name or model path) as `mctsat optimize` does and\n"
      "returns an OptimizeResult. rules: rule files or folders (default: the shipped TASO\n"
      "rules); ruleset, tags, exclude_tags, rule: as --ruleset, --tags, --exclude-tags, --rule.\n"
      "cost_model: 'roofline' (default), 'table', 'measured', a mctsat.CostModel or a callable\n"
      "(op, input_types, attributes) -> ms. check, tolerance: as --check, --tolerance (the\n"
      "report's check record says whether it passed); verify_rules, measure, measure_*: as\n"
      "--verify-rules, --measure, --measure-*. progress(dict): after every step, iteration "
      "or\n"
      "explored graph. on_step(dict) (mcts): after every committed planning step; returning\n"
      "False stops the search. reward(parent_cost, cost) -> float (mcts): the reward of a\n"
      "transition (default max(parent_cost - cost, 0)).\n\nOptions (keyword: default, help):\n";
  const search::OptimizeOptions defaults;
  for (const search::OptionSpec& spec : search::option_registry()) {
    std::string keywords;
    for (const std::string& k : keywords_of(spec)) keywords += (keywords.empty() ? "" : " | ") + k;
    doc += fmt::format("  {}: {}. {} [{}]\n", keywords, spec.get(defaults).dump(), spec.help,
                       search::used_by_text(spec));
  }
  return doc;
}

}  // namespace

void bind_optimize(py::module_& m) {
  py::class_<OptimizeOutcome>(
      m, "OptimizeResult",
      "An optimization's report (every key of report as an attribute too), its optimized graph "
      "and, with export_egraph=True, the final e-graph (egraph-serialize JSON text)")
      .def_property_readonly("report", [](const OptimizeOutcome& o) { return to_python(o.json()); })
      .def_property_readonly(
          "report_json", [](const OptimizeOutcome& o) { return o.json().dump(2); },
          "The report as the JSON text `mctsat optimize --json` prints")
      .def_readonly("graph", &OptimizeOutcome::graph, "The optimized graph (mctsat.Model)")
      .def_readonly("egraph", &OptimizeOutcome::egraph)
      .def("to_dict", [](const OptimizeOutcome& o) { return to_python(o.json()); })
      .def("__getattr__",
           [](const OptimizeOutcome& o, const std::string& name) {
             const nlohmann::json json = o.json();
             if (!json.contains(name))
               throw py::attribute_error("OptimizeResult has no attribute '" + name + "'");
             return to_python(json[name]);
           })
      .def("__repr__", [](const OptimizeOutcome& o) {
        return fmt::format("<mctsat.OptimizeResult {}: {:.4f} ms -> {:.4f} ms ({:+.2f}%)>",
                           o.report.model, o.report.result.original_cost,
                           o.report.result.optimized_cost, o.report.result.speedup_percent());
      });

  m.def("optimize", &optimize, py::arg("model"), py::kw_only(), py::arg("rules") = py::none(),
        py::arg("ruleset") = py::none(), py::arg("tags") = py::none(),
        py::arg("exclude_tags") = py::none(), py::arg("rule") = py::none(),
        py::arg("cost_model") = py::none(), py::arg("device") = "v100", py::arg("cost_table") = "",
        py::arg("cost_fallback") = false, py::arg("check") = false, py::arg("tolerance") = 1e-6,
        py::arg("verify_rules") = false, py::arg("measure") = false,
        py::arg("measure_runs") = runtime::SpeedupMeasureOptions{}.runs,
        py::arg("measure_instances") = runtime::SpeedupMeasureOptions{}.instances,
        py::arg("measure_threads") = 0, py::arg("export_egraph") = false,
        py::arg("progress") = py::none(), py::arg("on_step") = py::none(),
        py::arg("reward") = py::none(), optimize_doc().c_str());
  m.def("options", &options_list,
        "The option registry: each option's name, keywords, type, default, help, choices and "
        "strategies");

  m.def(
      "extract",
      [](const std::string& egraph_json, py::handle extractors, py::handle ilp_seconds,
         py::handle dag_restarts, py::handle dag_chains) {
        const bool one = py::isinstance<py::str>(extractors);
        const std::vector<std::string> names = strings_from(extractors);
        // Checked by the option registry, as optimize()'s keywords of the same names.
        search::OptimizeOptions checked;
        for (const auto& [keyword, value] :
             {std::pair{"ilp_seconds", ilp_seconds}, std::pair{"dag_restarts", dag_restarts},
              std::pair{"dag_chains", dag_chains}}) {
          try {
            search::set_option(checked, *search::find_option(keyword), from_python(value));
          } catch (const Error& e) {
            throw Error(fmt::format("{}={}: {}", keyword, py::repr(value).cast<std::string>(),
                                    e.message()));
          }
        }
        const extract::ExtractorOptions options = checked.extractor;
        nlohmann::json results = nlohmann::json::array();
        CallbackErrors errors;  // Ctrl-C stops an ILP solve at once
        errors.run_without_gil([&] {
          const extract::Problem problem =
              extract::problem_from_serialized(egraph::from_json(egraph_json, "<egraph>"));
          for (const std::string& name : names) {
            nlohmann::json result = {{"extractor", name},
                                     {"classes", problem.num_classes()},
                                     {"nodes", problem.num_nodes()}};
            result.update(
                extract::result_json(extract::make_extractor(name, options)->extract(problem)));
            results.push_back(std::move(result));
          }
        });
        return one ? to_python(results[0]) : to_python(results);
      },
      py::arg("egraph"), py::arg("extractor") = "dag",
      py::arg("ilp_seconds") = extract::ExtractorOptions{}.time_limit_seconds,
      py::arg("dag_restarts") = extract::ExtractorOptions{}.dag_restarts,
      py::arg("dag_chains") = extract::ExtractorOptions{}.dag_chains,
      "Extracts from an egraph-serialize e-graph (JSON text, e.g. OptimizeResult.egraph) with "
      "one extractor (a dict) or several (a list of dicts): extractor, classes, nodes, dag_cost, "
      "seconds, status, lower_bound, gap, detail");
}

}  // namespace mctsat::python
