// Matches as plain rows for the matching tests' expectations: each match as {roots..., subst...},
// in the order found; and the "no limit" match count.
#pragma once

#include <cstddef>
#include <limits>
#include <vector>

#include "egraph/machine.hpp"

inline constexpr std::size_t kAll = std::numeric_limits<std::size_t>::max();

inline std::vector<std::vector<mctsat::egraph::Id>> rows(const mctsat::egraph::Matches& matches) {
  std::vector<std::vector<mctsat::egraph::Id>> out;
  for (std::size_t i = 0; i < matches.size(); ++i) {
    std::vector<mctsat::egraph::Id> row(matches.roots_of(i).begin(), matches.roots_of(i).end());
    row.insert(row.end(), matches.subst(i).begin(), matches.subst(i).end());
    out.push_back(row);
  }
  return out;
}
