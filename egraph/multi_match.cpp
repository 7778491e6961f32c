// Hash join of per-pattern matches for multi-pattern rules.
#include "egraph/multi_match.hpp"

#include <algorithm>
#include <unordered_map>

#include "support/error.hpp"

namespace mctsat::egraph {
namespace {

struct KeyHash {
  std::size_t operator()(const std::vector<Id>& key) const {
    std::size_t h = 0x84222325;
    for (Id id : key) h = (h ^ id) * 0x100000001b3ULL;
    return h;
  }
};

// The variables every match of `matches` binds (all matches of one pattern bind the same ones).
std::vector<VarId> bound_vars(const Matches& matches) {
  std::vector<VarId> vars;
  if (matches.size() == 0) return vars;
  const auto subst = matches.subst(0);
  for (VarId v = 0; v < subst.size(); ++v) {
    if (subst[v] != kNoId) vars.push_back(v);
  }
  return vars;
}

}  // namespace

Matches join_matches(std::span<const Matches> parts, std::size_t limit) {
  MCTSAT_ASSERT(!parts.empty());
  const std::uint32_t num_vars = parts[0].num_vars;
  Matches joined;
  joined.num_vars = num_vars;
  joined.num_roots = 1;
  joined.roots = parts[0].roots;
  joined.substs = parts[0].substs;
  std::vector<VarId> joined_vars = bound_vars(parts[0]);

  for (std::size_t p = 1; p < parts.size(); ++p) {
    const Matches& part = parts[p];
    MCTSAT_ASSERT(part.num_vars == num_vars && part.num_roots == 1);
    const std::vector<VarId> part_vars = bound_vars(part);
    std::vector<VarId> shared;
    std::set_intersection(joined_vars.begin(), joined_vars.end(), part_vars.begin(),
                          part_vars.end(), std::back_inserter(shared));
    std::unordered_map<std::vector<Id>, std::vector<std::size_t>, KeyHash> by_key;
    std::vector<Id> key(shared.size());
    for (std::size_t m = 0; m < part.size(); ++m) {
      for (std::size_t k = 0; k < shared.size(); ++k) key[k] = part.subst(m)[shared[k]];
      by_key[key].push_back(m);
    }

    Matches next;
    next.num_vars = num_vars;
    next.num_roots = joined.num_roots + 1;
    for (std::size_t j = 0; j < joined.size() && next.size() < limit; ++j) {
      const auto subst = joined.subst(j);
      const auto roots = joined.roots_of(j);
      for (std::size_t k = 0; k < shared.size(); ++k) key[k] = subst[shared[k]];
      const auto partners = by_key.find(key);
      if (partners == by_key.end()) continue;
      for (std::size_t m : partners->second) {
        const Id root = part.roots[m];
        if (std::find(roots.begin(), roots.end(), root) != roots.end())
          continue;  // same class twice
        next.roots.insert(next.roots.end(), roots.begin(), roots.end());
        next.roots.push_back(root);
        const std::size_t base = next.substs.size();
        next.substs.insert(next.substs.end(), subst.begin(), subst.end());
        for (VarId v : part_vars) next.substs[base + v] = part.subst(m)[v];
        if (next.size() >= limit) break;
      }
    }
    joined = std::move(next);
    std::vector<VarId> merged;
    std::set_union(joined_vars.begin(), joined_vars.end(), part_vars.begin(), part_vars.end(),
                   std::back_inserter(merged));
    joined_vars = std::move(merged);
  }
  return joined;
}

}  // namespace mctsat::egraph
