// The rule screen: single-pattern rules by their first match, multi-pattern rules by the joins of
// their matches' representatives.
#include "search/rule_screen.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "egraph/multi_match.hpp"
#include "support/stable_hash.hpp"

namespace mctsat::search {
namespace {

using egraph::Id;
using egraph::VarId;

// One pattern's matches grouped by the data of the root's and the unshared variables' classes and
// by the shared variables' classes; per group, the first match of each of up to `k` distinct
// roots.
class Representatives {
 public:
  Representatives(const tensor::TensorGraphEGraph& egraph, std::vector<VarId> vars,
                  const std::vector<bool>& shared, std::size_t k)
      : egraph_(egraph), vars_(std::move(vars)), shared_(shared), k_(k) {}

  egraph::Matches of(const egraph::Matches& matches) {
    egraph::Matches out;
    out.num_vars = matches.num_vars;
    out.num_roots = 1;
    for (std::size_t m = 0; m < matches.size(); ++m) {
      const Id root = matches.roots_of(m)[0];
      std::vector<Id>& roots = group(matches, m);
      if (roots.size() >= k_ || std::find(roots.begin(), roots.end(), root) != roots.end())
        continue;
      roots.push_back(root);
      out.roots.push_back(root);
      const auto subst = matches.subst(m);
      out.substs.insert(out.substs.end(), subst.begin(), subst.end());
    }
    return out;
  }

 private:
  struct Group {
    std::size_t first = 0;  // the match that opened it
    std::vector<Id> roots;  // the roots of its representatives
  };

  // The roots of match m's group (a new one, empty, when m opens it).
  std::vector<Id>& group(const egraph::Matches& matches, std::size_t m) {
    std::uint64_t h = egraph_.analysis().hash(egraph_.data(matches.roots_of(m)[0]));
    for (VarId v : vars_) {
      const Id id = matches.subst(m)[v];
      h = hash_combine(h, shared_[v] ? id : egraph_.analysis().hash(egraph_.data(id)));
    }
    const auto [begin, end] = by_hash_.equal_range(h);
    for (auto it = begin; it != end; ++it)
      if (same_key(matches, groups_[it->second].first, m)) return groups_[it->second].roots;
    by_hash_.emplace(h, groups_.size());
    groups_.push_back({m, {}});
    return groups_.back().roots;
  }

  bool same_key(const egraph::Matches& matches, std::size_t a, std::size_t b) const {
    if (!(egraph_.data(matches.roots_of(a)[0]) == egraph_.data(matches.roots_of(b)[0])))
      return false;
    return std::all_of(vars_.begin(), vars_.end(), [&](VarId v) {
      const Id x = matches.subst(a)[v], y = matches.subst(b)[v];
      return shared_[v] ? x == y : egraph_.data(x) == egraph_.data(y);
    });
  }

  const tensor::TensorGraphEGraph& egraph_;
  std::vector<VarId> vars_;
  const std::vector<bool>& shared_;
  std::size_t k_;
  std::vector<Group> groups_;
  std::unordered_multimap<std::uint64_t, std::size_t> by_hash_;
};

// The variables a pattern binds, ascending, each once.
std::vector<VarId> pattern_vars(const egraph::Pattern& pattern) {
  std::vector<VarId> vars;
  for (const egraph::PatternNode& n : pattern.nodes())
    if (n.is_var) vars.push_back(n.var);
  std::sort(vars.begin(), vars.end());
  vars.erase(std::unique(vars.begin(), vars.end()), vars.end());
  return vars;
}

}  // namespace

bool may_change(const tensor::TensorEGraph& state, const dsl::RuleSet& rules, std::size_t rule) {
  const auto& rewrite = rules.rewrite(rule);
  const tensor::TensorGraphEGraph& egraph = state.egraph;
  if (!rewrite.multi()) return rewrite.search(egraph, 1).size() > 0;
  const auto patterns = rewrite.lhs();
  std::vector<std::vector<VarId>> vars;
  std::vector<std::size_t> uses(rewrite.num_vars(), 0);
  for (const egraph::Pattern& pattern : patterns) {
    vars.push_back(pattern_vars(pattern));
    for (VarId v : vars.back()) ++uses[v];
  }
  std::vector<bool> shared(uses.size());
  for (std::size_t v = 0; v < uses.size(); ++v) shared[v] = uses[v] > 1;
  std::vector<egraph::Matches> parts;
  for (std::size_t p = 0; p < patterns.size(); ++p) {
    const egraph::Matches matches =
        egraph::search(egraph, rewrite.programs()[p], rewrite.num_vars());
    if (matches.size() == 0) return false;
    parts.push_back(Representatives(egraph, vars[p], shared, patterns.size()).of(matches));
  }
  const egraph::Matches joined =
      egraph::join_matches(parts, std::numeric_limits<std::size_t>::max());
  std::vector<egraph::Pattern> terms;
  for (std::size_t j = 0; j < joined.size(); ++j)
    if (rewrite.may_change(egraph, joined.roots_of(j), joined.subst(j), terms)) return true;
  return false;
}

}  // namespace mctsat::search
