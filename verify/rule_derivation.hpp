// Whether a set of rules already implies an equation, by bounded equality saturation (Ruler's
// minimisation idea, used by rule synthesis to keep a small rule set and by the synthesis study to
// count which TASO rules the synthesized set covers): both sides are instantiated as concrete
// graphs over shared inputs, put into one e-graph, and the rules run for a few iterations; the
// equation is derivable when every left-hand root ends up in its right-hand root's e-class.
//
// The proof is for the concrete shapes given: a rule that needs other shapes to apply is not
// used. "Not derivable" only means not within the limits.
#pragma once

#include <cstddef>
#include <optional>

#include "dsl/lowering.hpp"
#include "tensor/graph.hpp"
#include "verify/binding.hpp"
#include "verify/equation.hpp"

namespace mctsat::verify {

struct DerivationLimits {
  std::size_t iterations = 4;
  std::size_t nodes = 5'000;
  double seconds = 30.0;  // a safety net only: results should not depend on the load
};

// `lhs` and `rhs` have equally many outputs and their inputs, matched by name, equal shapes.
// Throws mctsat::Error when they do not fit together.
bool derivable(const tensor::Graph& lhs, const tensor::Graph& rhs, const dsl::RuleSet& rules,
               const DerivationLimits& limits);

// The equation's sides under `binding` (see equation_graph.hpp). Throws mctsat::Error when a side
// cannot be built there.
bool derivable(const Equation& equation, const Binding& binding, const dsl::RuleSet& rules,
               const DerivationLimits& limits);

// The same under the first concrete assignment numeric testing tries (example_binding in
// numeric_check.hpp); nullopt when there is none or a side cannot be built there.
std::optional<bool> derivable_at_example(const Equation& equation, const dsl::RuleSet& rules,
                                         const DerivationLimits& limits);

}  // namespace mctsat::verify
