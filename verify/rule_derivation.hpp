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
#include <span>
#include <vector>

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

// The two sides of an equation between graphs.
struct GraphEquation {
  const tensor::Graph* lhs = nullptr;
  const tensor::Graph* rhs = nullptr;
};

// Which of `equations` the rules derive (by equation), all in one e-graph under one set of
// limits: inputs of equal name and shape are shared, so a term one equation adds can serve
// another's proof (a proof there is still one from the rules), and each rule is searched once for
// all of them. Unless the node limit cut the run short, every equation `derivable` would prove
// alone within the same iterations is proved (the e-graph holds each one's own e-graph after as
// many iterations). Each equation as `derivable` below requires. `threads` search the rules in
// parallel (the result is the same for every count).
std::vector<bool> derivable_together(std::span<const GraphEquation> equations,
                                     const dsl::RuleSet& rules, const DerivationLimits& limits,
                                     std::size_t threads = 1);

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
