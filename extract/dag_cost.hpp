// The one scoring function of extraction: the exact cost of the DAG a choice extracts (each
// chosen node counted once, however many parents share it), together with the checks that make a
// choice an extraction at all: every class needed from the roots has a chosen node, that node is
// one of the class's nodes and not forbidden, and the chosen nodes form no cycle. Every
// extractor's reported cost is `dag_cost`'s value.
#pragma once

#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "extract/problem.hpp"

namespace mctsat::extract {

// A choice of one node per class, indexed by class; kNone where nothing is chosen. Only the
// classes needed from the roots (reachable through chosen nodes) must have a node.
using Choice = std::vector<Index>;

// A choice that is no extraction (an internal error when an extractor produced it).
class InvalidChoice : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

struct ChoiceCheck {
  bool valid = false;
  double cost = 0;    // the exact DAG cost when valid
  std::string error;  // what is wrong, when not valid
  // The needed classes, children before parents (a topological order of the extracted DAG; the
  // order of the part checked so far when not valid).
  std::vector<Index> order;
};

// Checks a choice and computes its cost (iteratively: extracted graphs can be deep).
ChoiceCheck check_choice(const Problem& problem, const Choice& choice,
                         std::span<const Index> roots);
inline ChoiceCheck check_choice(const Problem& problem, const Choice& choice) {
  return check_choice(problem, choice, problem.roots());
}

// The exact DAG cost; throws InvalidChoice saying what is wrong (a needed class without a node,
// a node not of its class, a forbidden node, a cycle).
double dag_cost(const Problem& problem, const Choice& choice, std::span<const Index> roots);
inline double dag_cost(const Problem& problem, const Choice& choice) {
  return dag_cost(problem, choice, problem.roots());
}

// The choice restricted to the classes needed from the roots (the others set to kNone). The
// choice must be valid.
Choice needed_choice(const Problem& problem, const Choice& choice, std::span<const Index> roots);

}  // namespace mctsat::extract
