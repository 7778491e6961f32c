// A concrete instance of an equation's variables, read from a Z3 model: each tensor variable's
// dimensions, each integer variable's value, each list variable's elements. Counterexamples are
// printed from it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <z3++.h>

#include "verify/symbolic_equation.hpp"

namespace mctsat::verify {

struct Binding {
  std::vector<std::vector<std::int64_t>> values;  // per variable, as SymbolicEquation::values
};

Binding binding_from_model(const SymbolicEquation& symbolic, const z3::model& model);
// "?x: [2, 3], ?axis = 1, ?perm = [1, 0]" (generated variables left out).
std::string binding_text(const Equation& equation, const Binding& binding);
// "[2, 3]" per root output, from the model: "left-hand side [2, 3]; right-hand side [2, 1]".
std::string root_shapes_text(const SymbolicEquation& symbolic, const z3::model& model,
                             bool with_rhs);

}  // namespace mctsat::verify
