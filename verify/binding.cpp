// Concrete instances of equations from Z3 models.
#include "verify/binding.hpp"

#include <fmt/format.h>

namespace mctsat::verify {
namespace {

std::int64_t value_of(const z3::model& model, const z3::expr& term) {
  const z3::expr v = model.eval(term, true);
  std::int64_t out = 0;
  if (v.is_numeral_i64(out)) return out;
  return 0;
}

std::string shapes_text(const std::vector<std::vector<Z3Shape>>& roots, const z3::model& model) {
  std::vector<std::string> parts;
  for (const auto& root : roots) {
    for (const auto& shape : root) {
      std::vector<std::int64_t> dims;
      for (const auto& d : shape) dims.push_back(value_of(model, d));
      parts.push_back(fmt::format("[{}]", fmt::join(dims, ", ")));
    }
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

}  // namespace

Binding binding_from_model(const SymbolicEquation& symbolic, const z3::model& model) {
  Binding binding;
  const auto& vars = symbolic.equation().vars;
  binding.values.resize(vars.size());
  for (std::size_t v = 0; v < vars.size(); ++v) {
    for (const auto& term : symbolic.values(static_cast<dsl::VarIndex>(v)))
      binding.values[v].push_back(value_of(model, term));
  }
  return binding;
}

std::string binding_text(const Equation& equation, const Binding& binding) {
  std::vector<std::string> parts;
  for (std::size_t v = 0; v < equation.vars.size(); ++v) {
    const auto& var = equation.vars[v];
    const auto& values = binding.values[v];
    switch (var.sort) {
      case dsl::Sort::kTensor:
        parts.push_back(fmt::format("?{}: [{}]", var.name, fmt::join(values, ", ")));
        break;
      case dsl::Sort::kInt:
        parts.push_back(fmt::format("?{} = {}", var.name, values.empty() ? 0 : values[0]));
        break;
      case dsl::Sort::kInts:
        parts.push_back(var.name.starts_with("_")
                            ? fmt::format("split sizes [{}]", fmt::join(values, ", "))
                            : fmt::format("?{} = [{}]", var.name, fmt::join(values, ", ")));
        break;
      default:
        break;
    }
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::string root_shapes_text(const SymbolicEquation& symbolic, const z3::model& model,
                             bool with_rhs) {
  std::string text = "left-hand side " + shapes_text(symbolic.lhs_shapes, model);
  if (with_rhs) text += "; right-hand side " + shapes_text(symbolic.rhs_shapes, model);
  return text;
}

}  // namespace mctsat::verify
