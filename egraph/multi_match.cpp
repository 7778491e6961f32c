// Hash join of per-pattern matches for multi-pattern rules.
#include "egraph/multi_match.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
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

// The filter's answers by combination of groups: a flat table while it is small, else a hash map.
class Decisions {
 public:
  Decisions(std::size_t combos, std::size_t groups) : groups_(groups) {
    if (combos * groups <= kMaxTable) table_.assign(combos * groups, kUnknown);
  }
  // -1 unknown, 0 rejected, 1 kept.
  int get(std::uint32_t combo, std::uint32_t group) const {
    const std::size_t key = combo * groups_ + group;
    if (!table_.empty()) return table_[key];
    const auto found = map_.find(key);
    return found == map_.end() ? kUnknown : found->second;
  }
  void set(std::uint32_t combo, std::uint32_t group, bool keep) {
    const std::size_t key = combo * groups_ + group;
    if (!table_.empty())
      table_[key] = keep;
    else
      map_.emplace(key, keep);
  }

 private:
  static constexpr std::size_t kMaxTable = std::size_t{1} << 22;
  static constexpr std::int8_t kUnknown = -1;
  std::size_t groups_;
  std::vector<std::int8_t> table_;
  std::unordered_map<std::size_t, std::int8_t> map_;
};

std::uint32_t group_count(const std::vector<std::uint32_t>& groups) {
  return groups.empty() ? 0 : *std::max_element(groups.begin(), groups.end()) + 1;
}

}  // namespace

Matches join_matches(std::span<const Matches> parts, std::size_t limit, const JoinFilter* filter) {
  MCTSAT_ASSERT(!parts.empty());
  const std::uint32_t num_vars = parts[0].num_vars;
  Matches joined;
  joined.num_vars = num_vars;
  joined.num_roots = 1;
  joined.roots = parts[0].roots;
  joined.substs = parts[0].substs;
  std::vector<VarId> joined_vars = bound_vars(parts[0]);
  // With a filter: each joined match's combination of groups so far, numbered densely.
  std::vector<std::uint32_t> combo;
  std::uint32_t combos = 0;
  if (filter != nullptr) {
    MCTSAT_ASSERT(filter->groups.size() == parts.size());
    combo = filter->groups[0];
    combos = group_count(combo);
  }
  std::vector<Id> candidate_roots, candidate_subst;

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
    const bool last = p + 1 == parts.size();
    const std::vector<std::uint32_t>* groups = filter ? &filter->groups[p] : nullptr;
    const std::uint32_t part_groups = groups ? group_count(*groups) : 0;
    std::optional<Decisions> decisions;
    if (groups && last) decisions.emplace(combos, part_groups);
    std::vector<std::uint32_t> next_combo;
    std::unordered_map<std::uint64_t, std::uint32_t> combo_ids;
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
        if (decisions) {
          const std::uint32_t group = (*groups)[m];
          int keep = decisions->get(combo[j], group);
          if (keep < 0) {
            candidate_roots.assign(roots.begin(), roots.end());
            candidate_roots.push_back(root);
            candidate_subst.assign(subst.begin(), subst.end());
            for (VarId v : part_vars) candidate_subst[v] = part.subst(m)[v];
            keep = filter->keep(candidate_roots, candidate_subst);
            decisions->set(combo[j], group, keep != 0);
          }
          if (keep == 0) continue;
        } else if (groups) {
          const std::uint64_t pair = std::uint64_t{combo[j]} * part_groups + (*groups)[m];
          next_combo.push_back(
              combo_ids.try_emplace(pair, static_cast<std::uint32_t>(combo_ids.size()))
                  .first->second);
        }
        next.roots.insert(next.roots.end(), roots.begin(), roots.end());
        next.roots.push_back(root);
        const std::size_t base = next.substs.size();
        next.substs.insert(next.substs.end(), subst.begin(), subst.end());
        for (VarId v : part_vars) next.substs[base + v] = part.subst(m)[v];
        if (next.size() >= limit) break;
      }
    }
    joined = std::move(next);
    if (groups && !last) {
      combo = std::move(next_combo);
      combos = static_cast<std::uint32_t>(combo_ids.size());
    }
    std::vector<VarId> merged;
    std::set_union(joined_vars.begin(), joined_vars.end(), part_vars.begin(), part_vars.end(),
                   std::back_inserter(merged));
    joined_vars = std::move(merged);
  }
  return joined;
}

}  // namespace mctsat::egraph
