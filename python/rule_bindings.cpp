// Rules for Python: loading and checking rule files or text (dsl/rule_library), formatting them
// (dsl/printer), and verifying them (verify/verifier) with one result object per rule or axiom
// and per check (verdict, counterexample or reason, seconds).
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <pybind11/stl.h>

#include "dsl/parser.hpp"
#include "dsl/printer.hpp"
#include "dsl/rule_library.hpp"
#include "python/bindings.hpp"
#include "python/python_errors.hpp"
#include "python/rule_library_location.hpp"
#include "support/error.hpp"
#include "support/files.hpp"
#include "verify/verifier.hpp"

namespace mctsat::python {

namespace py = pybind11;

namespace {

// A loaded, checked rule library and the warnings its files produced.
struct Rules {
  dsl::RuleLibrary library;
  std::string warnings;  // rendered like the CLI's (file:line:col: warning: ...)
};

std::shared_ptr<Rules> checked(dsl::RuleLibrary library, const dsl::Diagnostics& diagnostics) {
  diagnostics.throw_if_errors();  // every diagnostic, warnings included, in the error
  return std::make_shared<Rules>(Rules{std::move(library), diagnostics.render()});
}

std::vector<std::string> paths_from(py::handle paths) {
  if (py::isinstance<py::str>(paths)) return {paths.cast<std::string>()};
  return paths.cast<std::vector<std::string>>();
}

py::dict rule_dict(const std::string& name, const std::string& ruleset,
                   const std::vector<std::string>& tags, const SourceLocation& where) {
  py::dict d;
  d["name"] = name;
  d["ruleset"] = ruleset;
  d["tags"] = tags;
  d["file"] = where.file;
  d["line"] = where.line;
  return d;
}

std::string format_text(const std::string& text, const std::string& path) {
  dsl::Diagnostics diagnostics;
  const dsl::RuleFile file = dsl::parse_rule_text(text, path, diagnostics);
  diagnostics.throw_if_errors();
  return dsl::format_rule_file(file);
}

}  // namespace

void bind_rules(py::module_& m) {
  py::class_<Rules, std::shared_ptr<Rules>>(m, "Rules",
                                            "A checked rule library (load_rules, parse_rules)")
      .def_property_readonly(
          "rules",
          [](const Rules& r) {
            py::list list;
            for (const auto& rule : r.library.rules) {
              py::dict d = rule_dict(rule.name, rule.ruleset, rule.tags, rule.where);
              d["multi_pattern"] = rule.multi();
              d["conditional"] = rule.condition.has_value();
              list.append(d);
            }
            return list;
          },
          "Every rule (a <=> rule counts twice): name, ruleset, tags, file, "
          "line, multi_pattern, conditional")
      .def_property_readonly(
          "axioms",
          [](const Rules& r) {
            py::list list;
            for (const auto& axiom : r.library.axioms)
              list.append(rule_dict(axiom.name, axiom.ruleset, axiom.tags, axiom.where));
            return list;
          })
      .def_property_readonly("files", [](const Rules& r) { return r.library.files; })
      .def_readonly("warnings", &Rules::warnings)
      .def("__len__", [](const Rules& r) { return r.library.rules.size(); })
      .def("__repr__", [](const Rules& r) {
        return fmt::format("<mctsat.Rules {} rules, {} axioms from {} files>",
                           r.library.rules.size(), r.library.axioms.size(), r.library.files.size());
      });

  m.def(
      "load_rules",
      [](py::object paths) {
        const std::vector<std::string> list =
            paths.is_none() ? std::vector<std::string>{default_rule_path()}
                            : dsl::resolve_rule_sources(paths_from(paths), rule_library_dir());
        dsl::Diagnostics diagnostics;
        dsl::RuleLibrary library = dsl::load_rule_files(list, diagnostics);
        return checked(std::move(library), diagnostics);
      },
      py::arg("paths") = py::none(),
      "Loads and checks rule libraries by name ('taso', 'extended'), rule files or "
      "directories (default: the shipped TASO rules); raises "
      "mctsat.Error listing every problem");
  m.def(
      "parse_rules",
      [](const std::string& text, const std::string& path) {
        dsl::Diagnostics diagnostics;
        dsl::RuleLibrary library = dsl::load_rule_text(text, path, diagnostics);
        return checked(std::move(library), diagnostics);
      },
      py::arg("text"), py::arg("path") = "<rules>",
      "Loads and checks rule text (includes resolve relative to path's folder)");
  m.def("format_rules", &format_text, py::arg("text"), py::arg("path") = "<rules>",
        "Rule text in canonical form (as `mctsat rules fmt`)");
  m.def(
      "format_rule_file",
      [](const std::string& path) { return format_text(read_text_file(path), path); },
      py::arg("path"), "A rule file in canonical form (as `mctsat rules fmt FILE`)");
  m.def("rule_library_dir", &rule_library_dir, "Where the shipped rule library is");

  py::class_<verify::CheckResult>(m, "CheckResult", "One check of one rule")
      .def_property_readonly(
          "verdict", [](const verify::CheckResult& c) { return verify::verdict_name(c.verdict); },
          "'pass', 'fail', 'unknown' or 'skipped'")
      .def_readonly("detail", &verify::CheckResult::detail,
                    "The counterexample (fail), the reason (unknown) or what was checked")
      .def_readonly("seconds", &verify::CheckResult::seconds)
      .def("__repr__", [](const verify::CheckResult& c) {
        return fmt::format("<mctsat.CheckResult {} ({:.3f} s)>", verify::verdict_name(c.verdict),
                           c.seconds);
      });
  py::class_<verify::EquationReport>(m, "VerifyResult", "The checks of one rule or axiom")
      .def_readonly("name", &verify::EquationReport::name)
      .def_property_readonly(
          "kind", [](const verify::EquationReport& r) { return r.axiom ? "axiom" : "rule"; })
      .def_property_readonly("file", [](const verify::EquationReport& r) { return r.where.file; })
      .def_property_readonly("line", [](const verify::EquationReport& r) { return r.where.line; })
      .def_readonly("text", &verify::EquationReport::text)
      .def_readonly("shape", &verify::EquationReport::shape, "Z3 shape soundness")
      .def_readonly("proof", &verify::EquationReport::proof, "Z3 proof from the axioms (rules)")
      .def_readonly("numeric", &verify::EquationReport::numeric, "Numeric testing")
      .def_readonly("cached", &verify::EquationReport::cached)
      .def_property_readonly("failed", &verify::EquationReport::failed)
      .def_property_readonly("unverified", &verify::EquationReport::unverified)
      .def_property_readonly("seconds",
                             [](const verify::EquationReport& r) {
                               return r.shape.seconds + r.proof.seconds + r.numeric.seconds;
                             })
      .def("__repr__", [](const verify::EquationReport& r) {
        return fmt::format("<mctsat.VerifyResult {}: shape {}, proof {}, numeric {}>", r.name,
                           verify::verdict_name(r.shape.verdict),
                           r.axiom ? "(axiom)" : verify::verdict_name(r.proof.verdict),
                           verify::verdict_name(r.numeric.verdict));
      });

  m.def(
      "verify",
      [](py::object paths, std::optional<std::vector<std::string>> only, unsigned z3_rlimit,
         std::size_t jobs, py::object cache_dir) {
        dsl::RuleLibrary library = dsl::load_rules_or_throw(
            dsl::resolve_rule_sources(paths_from(paths), rule_library_dir()));
        const verify::VerifyTargets targets =
            verify::verify_targets(library, only.value_or(std::vector<std::string>{}), "only",
                                   default_rule_path() + "/axioms.rules");
        verify::VerifyOptions options;
        options.shape.rlimit = options.proof.rlimit = options.numeric.rlimit = z3_rlimit;
        options.shape.max_rank = options.numeric.max_rank;
        options.jobs = jobs;
        if (py::isinstance<py::str>(cache_dir))
          options.cache_dir = cache_dir.cast<std::string>();
        else if (py::isinstance<py::bool_>(cache_dir) && cache_dir.cast<bool>())
          options.cache_dir = verify::default_cache_dir();
        py::gil_scoped_release release;
        return verify::verify_library(library, targets.rules, targets.axioms, options);
      },
      py::arg("paths"), py::arg("only") = py::none(),
      py::arg("z3_rlimit") = verify::kDefaultZ3Rlimit, py::arg("jobs") = 0,
      py::arg("cache") = false,
      "Verifies rule libraries by name, rule files or directories (as `mctsat verify`): a "
      "VerifyResult per rule, then per axiom. "
      "cache: False (none), True (the default cache) or a folder. Files without axioms are "
      "proved from the shipped ones.");
}

}  // namespace mctsat::python
