// Joining the matches of a multi-pattern rule's source patterns on their shared variables (a hash
// join), as TENSAT applies its multi-pattern rules: every combination of one match per pattern
// that agrees on shared variables, except combinations where two patterns matched the same class.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "egraph/machine.hpp"

namespace mctsat::egraph {

// `parts[i]` holds the matches of source pattern i (one root each, same num_vars). The result has
// num_roots == parts.size(), in the order of parts[0]'s matches, then parts[1]'s, ...; at most
// `limit` joined matches.
Matches join_matches(std::span<const Matches> parts, std::size_t limit);

}  // namespace mctsat::egraph
