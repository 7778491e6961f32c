// Two-output merge rules (TASO's kind: two operators reading one input become one operator on
// concatenated operands, whose result is split) from single-output rules already synthesized:
// a verified equality (concat axis n A B) == T, where A and B are different operator terms that
// share a variable or apply the same operator (with the same attributes) and T is not itself a
// concat, says that the pair of graphs A, B can be computed as T
// and split along the axis. It becomes the multi-pattern rule
//
//   A, B => (split_0 (split axis T)), (split_1 (split axis T))
//
// (split sizes inferred from the matched roots, as in TENSAT's rules). The caller verifies it
// like any other candidate.
#pragma once

#include <vector>

#include "synth/rule_writing.hpp"

namespace mctsat::synth {

// Merge candidates from `rules` (either side may be the concat), in order, without repeats; each
// named after the rule it comes from with a "-merge" suffix, with no tags or comments.
std::vector<WrittenRule> merge_candidates(const std::vector<WrittenRule>& rules);

}  // namespace mctsat::synth
