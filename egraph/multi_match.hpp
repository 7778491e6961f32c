// Joining the matches of a multi-pattern rule's source patterns on their shared variables (a hash
// join), as TENSAT applies its multi-pattern rules: every combination of one match per pattern
// that agrees on shared variables, except combinations where two patterns matched the same class.
// An optional filter keeps only the combinations it accepts, asked once per combination of its
// groups, so that a rule whose patterns share no variable (a cross product: the square of their
// matches) does not store the combinations its conditions reject.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "egraph/machine.hpp"

namespace mctsat::egraph {

// Which joined matches to keep. `groups[p][m]` is the group of match m of part p (0, 1, ...);
// `keep` decides on a complete joined match and must answer the same for every joined match whose
// parts' matches lie in the same groups (e.g. conditions that read only what the matches of a
// group have in common): it is asked once per combination of groups, on its first joined match.
struct JoinFilter {
  std::vector<std::vector<std::uint32_t>> groups;
  std::function<bool(std::span<const Id> roots, std::span<const Id> subst)> keep;
};

// `parts[i]` holds the matches of source pattern i (one root each, same num_vars). The result has
// num_roots == parts.size(), in the order of parts[0]'s matches, then parts[1]'s, ...; at most
// `limit` joined matches (with a filter: kept ones). Without a filter, O(result); with one, also
// one table lookup per combination the filter rejects.
Matches join_matches(std::span<const Matches> parts, std::size_t limit,
                     const JoinFilter* filter = nullptr);

}  // namespace mctsat::egraph
