// Rewrites: a searcher (one source pattern, or several sharing variables: a multi-pattern rule),
// conditions over the substitution, and an applier that instantiates the right-hand side(s) and
// merges each with its matched root. Right-hand sides the analysis rejects (e.g. ill-shaped) are
// skipped and counted, never added.
#pragma once

#include <algorithm>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <boost/container/small_vector.hpp>

#include "egraph/egraph.hpp"
#include "egraph/machine.hpp"
#include "egraph/multi_match.hpp"
#include "egraph/pattern.hpp"
#include "egraph/program.hpp"
#include "egraph/rhs_prefetcher.hpp"
#include "support/stable_hash.hpp"

namespace mctsat::egraph {

template <class Analysis>
using Condition = std::function<bool(const EGraph<Analysis>&, std::span<const Id> subst)>;

// When a rewrite's conditions are checked. kApply: on each match as it is applied (a condition
// may read anything, e.g. class data that earlier merges of the same iteration change). kSearch:
// the conditions read only data of the substitution's classes that merges never change (e.g.
// shapes and literal values), so that a multi-pattern rule's search keeps only the joined matches
// that pass them, asked once per combination of its patterns' matches whose classes hold equal
// data; single-pattern rules and `apply` check them as with kApply, so either way the same matches
// change the e-graph.
enum class ConditionCheck { kApply, kSearch };

// Binds an extra variable of a match (one the left-hand sides do not bind) before its right-hand
// sides are built: `term` computes, from the roots and the left-hand sides' substitution
// (read-only, so that a match can be dry-run: Rewrite::passes), the ground term the variable
// stands for (a pattern without variables, e.g. an attribute derived from the matched classes'
// data), which `apply` adds to the e-graph; nullopt rejects the match (counted as invalid).
template <class Analysis>
struct Binder {
  VarId var = 0;
  std::function<std::optional<Pattern>(const EGraph<Analysis>&, std::span<const Id> roots,
                                       std::span<const Id> subst)>
      term;
};

// What one application of a rewrite did.
struct ApplyStats {
  std::size_t matches = 0;    // matches offered
  std::size_t applied = 0;    // matches whose right-hand side changed the e-graph
  std::size_t rejected = 0;   // failed a condition
  std::size_t invalid = 0;    // right-hand side rejected by the analysis (not added)
  std::size_t filtered = 0;   // skipped by the applier's filter (e.g. it would close a cycle)
  std::size_t unapplied = 0;  // not tried because the node or memory budget ran out
};

// Per-application options: a node budget, a memory budget and an optional filter that may veto a
// match before its right-hand sides are added (cycle filtering plugs in here).
template <class Analysis>
struct ApplyOptions {
  std::size_t node_budget =
      std::numeric_limits<std::size_t>::max();  // stop once num_nodes reaches it
  std::size_t memory_budget =
      std::numeric_limits<std::size_t>::max();  // stop once memory_bytes() reaches it
  std::function<bool(const EGraph<Analysis>&, std::span<const Id> roots, std::span<const Id> subst)>
      filter;
};

template <class Analysis>
class Rewrite {
 public:
  // Variables are numbered 0..num_vars-1; binders may fill variables the left-hand sides do not
  // bind (which the right-hand sides then use).
  Rewrite(std::string name, std::vector<Pattern> lhs, std::vector<Pattern> rhs,
          std::uint32_t num_vars, std::vector<Condition<Analysis>> conditions = {},
          std::vector<Binder<Analysis>> binders = {},
          ConditionCheck condition_check = ConditionCheck::kApply)
      : name_(std::move(name)),
        lhs_(std::move(lhs)),
        rhs_(std::move(rhs)),
        num_vars_(num_vars),
        conditions_(std::move(conditions)),
        binders_(std::move(binders)),
        condition_check_(condition_check) {
    MCTSAT_ASSERT(!lhs_.empty() && lhs_.size() == rhs_.size());
    for (const Pattern& p : lhs_) programs_.push_back(compile(p));
  }

  const std::string& name() const { return name_; }
  bool multi() const { return lhs_.size() > 1; }
  std::uint32_t num_vars() const { return num_vars_; }
  std::span<const Pattern> lhs() const { return lhs_; }
  std::span<const Pattern> rhs() const { return rhs_; }
  std::span<const Program> programs() const { return programs_; }  // lhs() compiled, in order

  // Search phase: read-only on a clean e-graph (safe to run concurrently with other searches).
  // Multi-pattern rules join the matches of their patterns on shared variables (with
  // ConditionCheck::kSearch, only those that pass the conditions). At most `limit` matches
  // (joined matches for multi-pattern rules). With `skip_before` > 0, single-pattern
  // matches already applied before that epoch are left out (semi-naive matching; see
  // EGraph::node_stamp): conditions must then depend only on the variables' classes' data.
  Matches search(const EGraph<Analysis>& egraph,
                 std::size_t limit = std::numeric_limits<std::size_t>::max(),
                 std::uint32_t skip_before = 0) const {
    Matches matches;
    search_into(egraph, matches, limit, skip_before);
    return matches;
  }
  // The same into `out`, reusing its buffers (the runner keeps them across iterations).
  void search_into(const EGraph<Analysis>& egraph, Matches& out,
                   std::size_t limit = std::numeric_limits<std::size_t>::max(),
                   std::uint32_t skip_before = 0) const {
    const bool check_data = !conditions_.empty() || Analysis::kMayReject;
    if (!multi()) {
      // Binders read the roots and the analysis may refuse a merge by the root's data: then a
      // match whose root e-node moved to another class must be tried again.
      const bool root_moves_free = binders_.empty() && !Analysis::kMayReject;
      egraph::search_into(egraph, programs_[0], num_vars_, out, limit, skip_before, check_data,
                          root_moves_free);
      return;
    }
    std::vector<Matches> parts;
    // Each pattern's matches in full: cutting them before the join could lose joined matches.
    for (const Program& program : programs_)
      parts.push_back(egraph::search(egraph, program, num_vars_));
    if (condition_check_ == ConditionCheck::kApply || conditions_.empty()) {
      out = join_matches(parts, limit);
      return;
    }
    JoinFilter filter;
    for (const Matches& part : parts) filter.groups.push_back(data_groups(egraph, part));
    filter.keep = [&](std::span<const Id>, std::span<const Id> subst) {
      return conditions_hold(egraph, subst);
    };
    out = join_matches(parts, limit, &filter);
  }

  // A dry run of `apply`'s checks on one match, changing nothing: whether it passes the
  // conditions, the binders bind its extra variables and the analysis accepts every e-node each
  // right-hand side would add and the union of its root with the matched root. False where
  // `apply` would skip the match (as rejected or invalid). `terms` receives, by variable, the
  // ground term a binder binds it to (empty where none does).
  bool passes(const EGraph<Analysis>& egraph, std::span<const Id> roots, std::span<const Id> subst,
              std::vector<Pattern>& terms) const {
    if (!conditions_hold(egraph, subst)) return false;
    terms.assign(num_vars_, Pattern{});
    if (!bind_terms(egraph, roots, subst, terms)) return false;
    if constexpr (Analysis::kMayReject) {
      for (std::size_t i = 0; i < rhs_.size(); ++i)
        if (!accepts(egraph, rhs_[i], subst, terms, roots[i])) return false;
    }
    return true;
  }

  // Whether `apply` on this match alone may change the e-graph (its filter and budgets aside),
  // changing nothing: false only when the match fails the conditions or the binders, or every
  // binder's ground term is in the e-graph already (apply adds them before the analysis checks)
  // and the analysis rejects a right-hand side. `terms` as in `passes`.
  bool may_change(const EGraph<Analysis>& egraph, std::span<const Id> roots,
                  std::span<const Id> subst, std::vector<Pattern>& terms) const {
    if (!conditions_hold(egraph, subst)) return false;
    terms.assign(num_vars_, Pattern{});
    if (!bind_terms(egraph, roots, subst, terms)) return false;
    for (const Binder<Analysis>& b : binders_)
      if (!lookup_ground(egraph, terms[b.var], terms[b.var].root())) return true;
    if constexpr (Analysis::kMayReject) {
      for (std::size_t i = 0; i < rhs_.size(); ++i)
        if (!accepts(egraph, rhs_[i], subst, terms, roots[i])) return false;
    }
    return true;
  }

  // Apply phase: instantiates the right-hand sides for each match that passes the conditions and
  // the filter, and merges them with the matched roots.
  ApplyStats apply(EGraph<Analysis>& egraph, const Matches& matches,
                   const ApplyOptions<Analysis>& options = {}) const {
    ApplyStats stats;
    stats.matches = matches.size();
    std::vector<Id> built, extended;
    std::vector<Pattern> terms;
    for (std::size_t m = 0; m < matches.size(); ++m) {
      if (egraph.num_nodes() >= options.node_budget ||
          egraph.memory_bytes() >= options.memory_budget) {
        stats.unapplied = matches.size() - m;
        break;
      }
      prefetcher_.ahead(egraph, rhs_, matches, m);
      std::span<const Id> subst = matches.subst(m);
      const std::span<const Id> roots = matches.roots_of(m);
      if (!conditions_hold(egraph, subst)) {
        ++stats.rejected;
        continue;
      }
      if (!binders_.empty()) {
        terms.assign(num_vars_, Pattern{});
        if (!bind_terms(egraph, roots, subst, terms)) {
          ++stats.invalid;
          continue;
        }
        extended.assign(subst.begin(), subst.end());
        for (const Binder<Analysis>& b : binders_)
          extended[b.var] = instantiate(egraph, terms[b.var], {}, built);
        subst = extended;
      }
      if constexpr (Analysis::kMayReject) {
        bool valid = true;
        for (std::size_t i = 0; i < rhs_.size() && valid; ++i)
          valid = accepts(egraph, rhs_[i], subst, {}, roots[i]);
        if (!valid) {
          ++stats.invalid;
          continue;
        }
      }
      if (options.filter && !options.filter(egraph, roots, subst)) {
        ++stats.filtered;
        continue;
      }
      bool changed = false;
      for (std::size_t i = 0; i < rhs_.size(); ++i) {
        const Id id = instantiate(egraph, rhs_[i], subst, built);
        changed = egraph.merge(roots[i], id) || changed;
      }
      stats.applied += changed;
    }
    return stats;
  }

 private:
  // Adds the pattern's e-nodes bottom-up under `subst`; returns the root's class. Small patterns
  // and e-nodes (the common case) work in arrays on the stack; `ids` serves larger ones.
  static Id instantiate(EGraph<Analysis>& egraph, const Pattern& pattern, std::span<const Id> subst,
                        std::vector<Id>& ids) {
    constexpr std::size_t kLocalNodes = 16;
    const auto nodes = pattern.nodes();
    Id local[kLocalNodes];
    Id* built = local;
    if (nodes.size() > kLocalNodes) {
      ids.resize(nodes.size());
      built = ids.data();
    }
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      const PatternNode& n = nodes[i];
      if (n.is_var) {
        built[i] = subst[n.var];
        continue;
      }
      const std::size_t arity = n.children.size();
      if (arity <= 2) {
        Id children[2] = {0, 0};
        for (std::size_t c = 0; c < arity; ++c) children[c] = built[n.children[c]];
        built[i] = egraph.add(n.op, n.payload, std::span<const Id>(children, arity));
        continue;
      }
      typename EGraph<Analysis>::ChildIds children;
      for (std::uint32_t c : n.children) children.push_back(built[c]);
      built[i] = egraph.add(n.op, n.payload, id_span(children));
    }
    return built[pattern.root()];
  }

  // Matches numbered by the data of their variables' classes: equal numbers, equal data.
  static std::vector<std::uint32_t> data_groups(const EGraph<Analysis>& egraph,
                                                const Matches& matches) {
    std::vector<std::uint32_t> groups(matches.size());
    std::vector<VarId> vars;
    if (matches.size() > 0) {
      const auto subst = matches.subst(0);
      for (VarId v = 0; v < subst.size(); ++v)
        if (subst[v] != kNoId) vars.push_back(v);
    }
    std::vector<std::size_t> first;  // by group: its first match
    std::unordered_multimap<std::uint64_t, std::uint32_t> by_hash;
    for (std::size_t m = 0; m < matches.size(); ++m) {
      const auto subst = matches.subst(m);
      std::uint64_t h = 0;
      if constexpr (HasDataHash<Analysis>)
        for (VarId v : vars) h = hash_combine(h, egraph.analysis().hash(egraph.data(subst[v])));
      std::uint32_t group = static_cast<std::uint32_t>(first.size());
      const auto [begin, end] = by_hash.equal_range(h);
      for (auto it = begin; it != end; ++it) {
        const auto other = matches.subst(first[it->second]);
        if (std::all_of(vars.begin(), vars.end(),
                        [&](VarId v) { return egraph.data(subst[v]) == egraph.data(other[v]); })) {
          group = it->second;
          break;
        }
      }
      if (group == first.size()) {
        first.push_back(m);
        by_hash.emplace(h, group);
      }
      groups[m] = group;
    }
    return groups;
  }

  bool conditions_hold(const EGraph<Analysis>& egraph, std::span<const Id> subst) const {
    return std::all_of(conditions_.begin(), conditions_.end(),
                       [&](const auto& c) { return c(egraph, subst); });
  }

  // The binders' ground terms into `terms` (by variable); false when a binder rejects the match.
  bool bind_terms(const EGraph<Analysis>& egraph, std::span<const Id> roots,
                  std::span<const Id> subst, std::vector<Pattern>& terms) const {
    for (const Binder<Analysis>& b : binders_) {
      std::optional<Pattern> term = b.term(egraph, roots, subst);
      if (!term) return false;
      terms[b.var] = std::move(*term);
    }
    return true;
  }

  using Data = typename EGraph<Analysis>::Data;
  // A dry run's record of one pattern node: the existing class holding it (kNoId when it would be
  // added) and its data (the class's, or made by the dry run).
  struct DryNode {
    Id existing = kNoId;
    const Data* data = nullptr;
  };
  // The data a dry run makes, its capacity reserved up front (dry_run_size) so that the records'
  // pointers into it stay valid; on the stack for small patterns (this runs for every match).
  using MadeData = boost::container::small_vector<Data, 8>;

  static std::size_t dry_run_size(const Pattern& pattern, std::span<const Pattern> terms) {
    std::size_t size = pattern.nodes().size();
    for (const PatternNode& n : pattern.nodes())
      if (n.is_var && n.var < terms.size()) size += terms[n.var].nodes().size();
    return size;
  }

  // The e-nodes a pattern would add, made but not added: the root's record, or nullopt when the
  // analysis rejects one. A variable stands for its class in `subst`, or, where `terms` holds a
  // ground term for it, for that term.
  static std::optional<DryNode> dry_run(const EGraph<Analysis>& egraph, const Pattern& pattern,
                                        std::span<const Id> subst, std::span<const Pattern> terms,
                                        MadeData& made) {
    const auto nodes = pattern.nodes();
    boost::container::small_vector<DryNode, 16> done(nodes.size());
    typename EGraph<Analysis>::ChildIds child_ids;
    boost::container::small_vector<const Data*, 8> child_data;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      const PatternNode& n = nodes[i];
      if (n.is_var) {
        if (n.var < terms.size() && !terms[n.var].nodes().empty()) {
          const std::optional<DryNode> term = dry_run(egraph, terms[n.var], {}, {}, made);
          if (!term) return std::nullopt;
          done[i] = *term;
        } else {
          done[i] = {subst[n.var], &egraph.data(subst[n.var])};
        }
        continue;
      }
      child_ids.clear();
      child_data.clear();
      bool all_exist = true;
      for (std::uint32_t c : n.children) {
        all_exist = all_exist && done[c].existing != kNoId;
        child_ids.push_back(done[c].existing);
        child_data.push_back(done[c].data);
      }
      if (all_exist) {
        if (const auto found = egraph.lookup(n.op, n.payload, id_span(child_ids))) {
          done[i] = {*found, &egraph.data(*found)};
          continue;
        }
      }
      Data& out = made.emplace_back();
      if (!egraph.analysis().make(
              ENodeRef{n.op, n.payload, id_span(child_ids)},
              std::span<const Data* const>(child_data.data(), child_data.size()), out))
        return std::nullopt;
      done[i] = {kNoId, &out};
    }
    return done[pattern.root()];
  }

  // Whether the analysis accepts every e-node the pattern would add (a dry run: nothing is added)
  // and the pattern's root may be united with the matched class `root`.
  static bool accepts(const EGraph<Analysis>& egraph, const Pattern& pattern,
                      std::span<const Id> subst, std::span<const Pattern> terms, Id root) {
    MadeData made;
    made.reserve(dry_run_size(pattern, terms));
    const std::optional<DryNode> top = dry_run(egraph, pattern, subst, terms, made);
    return top && egraph.analysis().can_merge(*top->data, egraph.data(root));
  }

  std::string name_;
  std::vector<Pattern> lhs_, rhs_;
  std::uint32_t num_vars_;
  std::vector<Condition<Analysis>> conditions_;
  std::vector<Binder<Analysis>> binders_;
  ConditionCheck condition_check_;
  std::vector<Program> programs_;
  RhsPrefetcher<Analysis> prefetcher_{rhs_};
};

}  // namespace mctsat::egraph
