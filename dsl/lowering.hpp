// Lowering checked rules to e-graph rewrites over the tensor language (see
// tensor/tensor_language.hpp): left-hand sides become compiled matching programs, `where` clauses
// conditions over the tensor analysis, right-hand sides instantiation patterns, and the sizes of
// TENSAT's two-argument splits binders computed from the matched roots' shapes. Every command
// does this at start-up: rule files need no recompilation.
#pragma once

#include <memory>
#include <vector>

#include "dsl/checked_rule.hpp"
#include "egraph/rewrite.hpp"
#include "tensor/tensor_analysis.hpp"

namespace mctsat::dsl {

std::unique_ptr<egraph::Rewrite<tensor::TensorAnalysis>> lower_rule(const CheckedRule& rule);

// Checked rules together with their rewrites, index for index.
class RuleSet {
 public:
  explicit RuleSet(std::vector<CheckedRule> rules);
  // Appends a rule and its rewrite; the others are kept as they are (a rewrite does not refer to
  // its rule once lowered).
  void add(CheckedRule rule);
  std::size_t size() const { return rules_.size(); }
  const CheckedRule& rule(std::size_t i) const { return rules_[i]; }
  const egraph::Rewrite<tensor::TensorAnalysis>& rewrite(std::size_t i) const {
    return *rewrites_[i];
  }
  // For egraph::Runner.
  std::vector<const egraph::Rewrite<tensor::TensorAnalysis>*> rewrites() const;

 private:
  std::vector<CheckedRule> rules_;
  std::vector<std::unique_ptr<egraph::Rewrite<tensor::TensorAnalysis>>> rewrites_;
};

}  // namespace mctsat::dsl
