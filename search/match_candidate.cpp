// One match applied to a copy of a single-graph e-graph, and the preview of its outcome.
#include "search/match_candidate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include <boost/container/small_vector.hpp>

#include "extract/tensor_problem.hpp"
#include "support/stable_hash.hpp"
#include "tensor/enode_cost.hpp"
#include "tensor/tensor_language.hpp"

namespace mctsat::search {

using egraph::Id;
using tensor::TensorEGraph;

MatchCandidate apply_match(const TensorEGraph& parent, const TensorRewrite& rule,
                           const egraph::Matches& matches, std::size_t m,
                           const tensor::CostModel& model) {
  MatchCandidate out{MatchOutcome::kUnchanged, parent, {}, 0};
  egraph::Matches one;
  one.num_vars = matches.num_vars;
  one.num_roots = matches.num_roots;
  const auto roots = matches.roots_of(m), subst = matches.subst(m);
  one.roots.assign(roots.begin(), roots.end());
  one.substs.assign(subst.begin(), subst.end());
  if (rule.apply(out.state.egraph, one).applied == 0) return out;
  out.state.egraph.rebuild();
  std::vector<Id> replaced;
  for (const Id root : roots)
    for (const Id n : parent.egraph.nodes_of(parent.egraph.find(root))) replaced.push_back(n);
  const std::size_t old_ids = parent.egraph.num_ids();
  auto rank = [&](Id n) {
    const int kind =
        n >= old_ids ? 2 : std::find(replaced.begin(), replaced.end(), n) == replaced.end();
    return std::make_pair(kind, n);
  };
  const auto& egraph = out.state.egraph;
  out.selection.assign(egraph.num_ids(), egraph::kNoId);
  for (const Id c : egraph.classes())
    for (const Id n : egraph.nodes_of(c))
      if (out.selection[c] == egraph::kNoId || rank(n) > rank(out.selection[c]))
        out.selection[c] = n;
  const extract::Problem problem = extract::problem_from_tensor(out.state, model);
  const extract::ChoiceCheck check =
      extract::check_choice(problem, extract::choice_from_selection(problem, out.selection));
  out.outcome = check.valid ? MatchOutcome::kGraph : MatchOutcome::kCyclic;
  out.cost = check.cost;
  return out;
}

namespace {

// An e-node a match's right-hand sides would add to a single-graph e-graph, planned without adding
// it: a planned node's id is the e-graph's id count plus its index, and its children (canonical
// existing classes or earlier planned nodes) are `count` ids of the plan's child list from `first`.
struct PlannedNode {
  egraph::OpCode op = 0;
  std::int64_t payload = 0;
  std::uint32_t first = 0, count = 0;
};

PricedPreview told(MatchOutcome outcome) {
  PricedPreview preview;
  preview.outcome = outcome;
  return preview;
}

// A frame of the priced walk (CandidatePlan::walk): a class, or the planned node standing for it
// (`planned`, else kNoId), and its unique children, ascending, still to walk.
struct WalkFrame {
  Id id;
  Id planned;
  const Id* next;
  const Id* end;
};

// A thread's buffers for the priced walks, which run once per candidate: the marks by id, told
// apart from earlier walks' by a stamp so that nothing is cleared; the hashes by id (each written
// before it is read); the stack.
struct WalkScratch {
  std::vector<std::uint32_t> mark;
  std::uint32_t stamp = 0;  // this walk's "active" mark; stamp + 1 is its "done" mark
  std::vector<std::uint64_t> hash;
  std::vector<WalkFrame> stack;

  void start(std::size_t ids) {
    if (stamp >= std::numeric_limits<std::uint32_t>::max() - 2) {
      std::fill(mark.begin(), mark.end(), 0);
      stamp = 0;
    }
    stamp += 2;
    if (mark.size() < ids) {
      mark.resize(ids, 0);
      hash.resize(ids, 0);
    }
    stack.clear();
  }
};

class CandidatePlan {
 public:
  CandidatePlan(const TensorEGraph& parent, std::span<const Id> roots)
      : egraph_(parent.egraph), outputs_(parent.roots) {
    for (const Id root : roots) roots_.push_back(egraph_.find(root));
  }

  // Plans the next right-hand side (merged into the next matched root; `terms`: the binders'
  // ground terms by variable); false when the candidate is not a plain replacement (see
  // match_candidate.hpp): a root that is a variable or an existing e-node, or a matched root's
  // class inside the right-hand side.
  bool add(const egraph::Pattern& pattern, std::span<const Id> subst,
           std::span<const egraph::Pattern> terms) {
    const auto root = plan(pattern, subst, terms);
    if (!root || *root < egraph_.num_ids()) return false;
    rhs_roots_.push_back(*root);
    return true;
  }

  // Whether the planned candidate is a plain replacement with a cycle reachable from an output.
  // False when it is not a plain replacement: matched roots that share a class, right-hand sides
  // with one root, or a right-hand side's root used by another one's e-node.
  bool replacement_has_cycle() const {
    return plain_replacement() && reachable_cycle().value_or(false);
  }

  // Whether the planned candidate is a plain replacement: distinct matched roots and right-hand
  // sides' roots, none of those used by another planned e-node.
  bool plain_replacement() const {
    for (std::size_t i = 0; i < roots_.size(); ++i)
      for (std::size_t k = 0; k < i; ++k)
        if (roots_[i] == roots_[k] || rhs_roots_[i] == rhs_roots_[k]) return false;
    for (const Id child : planned_children_)
      if (std::find(rhs_roots_.begin(), rhs_roots_.end(), child) != rhs_roots_.end()) return false;
    return true;
  }

  // The priced outcome of a plain replacement (replacement_has_cycle's conditions), or nullopt
  // when the merges would change a matched root's data or a class is not single.
  std::optional<PricedPreview> price(const ParentPrices& prices, const tensor::CostModel& model) {
    using tensor::TensorData;
    const std::size_t old_ids = egraph_.num_ids();
    const auto& analysis = egraph_.analysis();
    planned_data_.resize(planned_.size());
    planned_cost_.resize(planned_.size());
    boost::container::small_vector<const TensorData*, 8> kids;
    auto data_of = [&](Id id) -> const TensorData& {
      return id >= old_ids ? planned_data_[id - old_ids] : egraph_.data(id);
    };
    for (std::size_t p = 0; p < planned_.size(); ++p) {
      const PlannedNode& n = planned_[p];
      kids.clear();
      for (const Id c : children_of(n)) kids.push_back(&data_of(c));
      const egraph::ENodeRef ref{n.op, n.payload, children_of(n)};
      const std::span<const TensorData* const> span(kids.data(), kids.size());
      if (!analysis.make(ref, span, planned_data_[p])) return std::nullopt;
    }
    for (std::size_t i = 0; i < roots_.size(); ++i) {
      TensorData into = egraph_.data(roots_[i]);
      if (analysis.merge(into, planned_data_[rhs_roots_[i] - old_ids]).into_changed)
        return std::nullopt;
    }
    if (certain_cycle(prices)) return told(MatchOutcome::kCyclic);
    for (std::size_t p = 0; p < planned_.size(); ++p) {
      const PlannedNode& n = planned_[p];
      if (tensor::is_literal(n.op)) {
        planned_cost_[p] = 0.0;
        continue;
      }
      kids.clear();
      for (const Id c : children_of(n)) kids.push_back(&data_of(c));
      const Id self = static_cast<Id>(old_ids + p);
      const auto root = std::find(rhs_roots_.begin(), rhs_roots_.end(), self);
      // A right-hand side's root is priced with its matched root's (unchanged) data.
      const TensorData& data = root != rhs_roots_.end()
                                   ? egraph_.data(roots_[root - rhs_roots_.begin()])
                                   : planned_data_[p];
      planned_cost_[p] = tensor::enode_cost(
          analysis, egraph::ENodeRef{n.op, n.payload, children_of(n)},
          std::span<const TensorData* const>(kids.data(), kids.size()), data, model);
    }
    planned_order_.clear();
    planned_order_begin_.assign(1, 0);
    for (const PlannedNode& n : planned_) {
      const std::size_t first = planned_order_.size();
      for (const Id c : children_of(n)) planned_order_.push_back(canonical(c));
      std::sort(planned_order_.begin() + first, planned_order_.end());
      planned_order_.erase(std::unique(planned_order_.begin() + first, planned_order_.end()),
                           planned_order_.end());
      planned_order_begin_.push_back(static_cast<std::uint32_t>(planned_order_.size()));
    }
    return walk(prices);
  }

 private:
  // Plans a pattern's e-nodes (a variable stands for its class in `subst`, or for its ground term
  // in `terms`); its root's id, or nullopt when a matched root's class is inside it.
  std::optional<Id> plan(const egraph::Pattern& pattern, std::span<const Id> subst,
                         std::span<const egraph::Pattern> terms) {
    const auto nodes = pattern.nodes();
    boost::container::small_vector<Id, 16> built(nodes.size());
    for (std::size_t j = 0; j < nodes.size(); ++j) {
      const egraph::PatternNode& n = nodes[j];
      if (n.is_var && n.var < terms.size() && !terms[n.var].nodes().empty()) {
        const auto term = plan(terms[n.var], {}, {});
        if (!term) return std::nullopt;
        built[j] = *term;
      } else if (n.is_var) {
        built[j] = egraph_.find(subst[n.var]);
      } else {
        boost::container::small_vector<Id, 4> children;
        for (const std::uint32_t c : n.children) children.push_back(built[c]);
        built[j] = find_or_plan(n.op, n.payload, egraph::id_span(children));
      }
      if (is_root(built[j])) return std::nullopt;
    }
    return built[pattern.root()];
  }

  bool is_root(Id eclass) const {
    return std::find(roots_.begin(), roots_.end(), eclass) != roots_.end();
  }

  // The existing class holding this content, else the planned node (planned once).
  Id find_or_plan(egraph::OpCode op, std::int64_t payload, std::span<const Id> children) {
    const Id new_ids = static_cast<Id>(egraph_.num_ids());
    if (std::all_of(children.begin(), children.end(), [&](Id c) { return c < new_ids; }))
      if (const auto found = egraph_.lookup(op, payload, children)) return *found;
    for (std::size_t p = 0; p < planned_.size(); ++p)
      if (planned_[p].op == op && planned_[p].payload == payload &&
          std::ranges::equal(children_of(planned_[p]), children))
        return new_ids + static_cast<Id>(p);
    planned_.push_back({op, payload, static_cast<std::uint32_t>(planned_children_.size()),
                        static_cast<std::uint32_t>(children.size())});
    planned_children_.insert(planned_children_.end(), children.begin(), children.end());
    return new_ids + static_cast<Id>(planned_.size() - 1);
  }

  std::span<const Id> children_of(const PlannedNode& node) const {
    return {planned_children_.data() + node.first, node.count};
  }

  // The children of a class or planned node in the replaced graph; nullopt for an existing class
  // with more than one e-node (not a single-graph e-graph).
  std::optional<std::span<const Id>> children(Id id) const {
    const std::size_t new_ids = egraph_.num_ids();
    if (id >= new_ids) return children_of(planned_[id - new_ids]);
    const auto root = std::find(roots_.begin(), roots_.end(), id);
    if (root != roots_.end()) return std::span<const Id>(&rhs_roots_[root - roots_.begin()], 1);
    const auto nodes = egraph_.nodes_of(id);
    if (nodes.size() != 1) return std::nullopt;
    return egraph_.node(nodes[0]).children;
  }

  // The candidate's graph walked as check_choice walks it (children each once, ascending by id;
  // costs summed after the children), hashing it as graph_fingerprint does; kCyclic on a back
  // edge, nullopt when a class is not single.
  std::optional<PricedPreview> walk(const ParentPrices& prices) const {
    const std::size_t old_ids = egraph_.num_ids();
    const auto& tables = egraph_.analysis().tables();
    thread_local WalkScratch scratch;
    scratch.start(old_ids + planned_.size());
    const std::uint32_t active = scratch.stamp, done = scratch.stamp + 1;
    std::vector<std::uint32_t>& mark = scratch.mark;
    std::vector<std::uint64_t>& hash = scratch.hash;
    std::vector<WalkFrame>& stack = scratch.stack;
    PricedPreview out;
    double total = 0;
    auto planned_frame = [&](Id id, std::size_t p) {
      return WalkFrame{id, static_cast<Id>(p), planned_order_.data() + planned_order_begin_[p],
                       planned_order_.data() + planned_order_begin_[p + 1]};
    };
    // The class or planned node an id stands for in the candidate (a matched root's class: its
    // right-hand side's root).
    auto enter = [&](Id id) -> bool {
      if (id >= old_ids) {
        stack.push_back(planned_frame(id, id - old_ids));
      } else if (const auto root = std::find(roots_.begin(), roots_.end(), id);
                 root != roots_.end()) {
        stack.push_back(planned_frame(id, rhs_roots_[root - roots_.begin()] - old_ids));
      } else {
        if (std::isnan(prices.cost[id])) return false;
        stack.push_back(WalkFrame{id, egraph::kNoId, prices.order.data() + prices.order_begin[id],
                                  prices.order.data() + prices.order_begin[id + 1]});
      }
      mark[id] = active;
      return true;
    };
    // A frame whose children are done: its cost, hash and operator count.
    auto finish = [&](const WalkFrame& frame) {
      std::uint64_t h;
      std::span<const Id> children;
      bool counts;
      if (frame.planned != egraph::kNoId) {
        const PlannedNode& n = planned_[frame.planned];
        total += planned_cost_[frame.planned];
        h = own_fingerprint(tables, n.op, n.payload);
        children = children_of(n);
        counts = counts_as_operator(n.op);
      } else {
        const egraph::ENodeRef node = egraph_.node(egraph_.nodes_of(frame.id)[0]);
        total += prices.cost[frame.id];
        h = prices.own[frame.id];
        children = node.children;
        counts = counts_as_operator(node.op);
      }
      for (const Id child : children) h = hash_combine(h, hash[canonical(child)]);
      hash[frame.id] = h;
      if (counts) ++out.fingerprint.operators;
      mark[frame.id] = done;
    };
    for (const Id output : outputs_) {
      const Id start = egraph_.find(output);
      if (mark[start] == active || mark[start] == done) continue;
      if (!enter(start)) return std::nullopt;
      while (!stack.empty()) {
        WalkFrame& top = stack.back();
        if (top.next == top.end) {
          finish(top);
          stack.pop_back();
          continue;
        }
        const Id c = *top.next++;
        if (mark[c] == active) {
          out.outcome = MatchOutcome::kCyclic;
          return out;
        }
        if (mark[c] != done && !enter(c)) return std::nullopt;
      }
    }
    out.outcome = MatchOutcome::kGraph;
    out.cost = total;
    out.fingerprint.hash = outputs_.size();
    for (const Id output : outputs_)
      out.fingerprint.hash = hash_combine(out.fingerprint.hash, hash[egraph_.find(output)]);
    return out;
  }

  // Whether the plain replacement certainly has a cycle reachable from an output, told from the
  // parent's reach sets without a walk (false: the walk tells). Only the matched roots' e-nodes
  // change, so a path of the parent between other classes that meets no matched root is one of
  // the candidate too; a class reaching root j meets no other root on the way when it reaches no
  // root that reaches j. Root i certainly leads to root j when an existing class its right-hand
  // side uses (through planned e-nodes) reaches j so; a root is certainly reached when an output
  // reaches it so, or a root certainly reached leads to it; a cycle of certain leads through a
  // root certainly reached is a cycle of the candidate that the walk from the outputs meets.
  bool certain_cycle(const ParentPrices& prices) const {
    const std::size_t k = roots_.size(), old_ids = egraph_.num_ids();
    if (prices.words == 0 || k > 64) return false;
    // The roots `c` reaches (itself, when it is one, included) meeting no other root on the way.
    auto first_roots = [&](Id c) {
      std::uint64_t all = 0, first = 0;
      for (std::size_t j = 0; j < k; ++j)
        if (c == roots_[j] || prices.reaches(c, roots_[j])) all |= std::uint64_t{1} << j;
      for (std::size_t j = 0; j < k; ++j) {
        if (!((all >> j) & 1)) continue;
        bool behind = false;
        for (std::size_t m = 0; m < k && !behind; ++m)
          behind = m != j && ((all >> m) & 1) && prices.reaches(roots_[m], roots_[j]);
        if (!behind) first |= std::uint64_t{1} << j;
      }
      return first;
    };
    boost::container::small_vector<std::uint64_t, 2> leads(k, 0);
    boost::container::small_vector<Id, 16> pending;
    for (std::size_t i = 0; i < k; ++i) {
      pending.assign(1, rhs_roots_[i]);
      while (!pending.empty()) {
        const Id id = pending.back();
        pending.pop_back();
        for (const Id child : children_of(planned_[id - old_ids])) {
          const Id c = canonical(child);
          if (c >= old_ids) {
            pending.push_back(c);
          } else {
            leads[i] |= first_roots(c);
          }
        }
      }
    }
    std::uint64_t reached = 0;
    for (const Id output : outputs_) reached |= first_roots(egraph_.find(output));
    // Closures over at most k steps: the roots reached, and those each root leads to.
    for (std::size_t step = 0; step < k; ++step)
      for (std::size_t i = 0; i < k; ++i)
        if ((reached >> i) & 1) reached |= leads[i];
    for (std::size_t i = 0; i < k; ++i) {
      if (!((reached >> i) & 1)) continue;
      std::uint64_t seen = leads[i];
      for (std::size_t step = 1; step < k; ++step)
        for (std::size_t j = 0; j < k; ++j)
          if ((seen >> j) & 1) seen |= leads[j];
      if ((seen >> i) & 1) return true;
    }
    return false;
  }

  Id canonical(Id child) const { return child < egraph_.num_ids() ? egraph_.find(child) : child; }

  // Depth-first search from the outputs for a back edge; nullopt when a class is not single.
  std::optional<bool> reachable_cycle() const {
    enum : std::uint8_t { kUnvisited, kActive, kDone };
    std::vector<std::uint8_t> state(egraph_.num_ids() + planned_.size(), kUnvisited);
    struct Frame {
      Id id;
      std::span<const Id> children;
      std::size_t next = 0;
    };
    std::vector<Frame> stack;
    auto enter = [&](Id id) -> bool {
      const auto kids = children(id);
      if (!kids) return false;
      state[id] = kActive;
      stack.push_back({id, *kids});
      return true;
    };
    for (const Id output : outputs_) {
      const Id start = egraph_.find(output);
      if (state[start] != kUnvisited) continue;
      if (!enter(start)) return std::nullopt;
      while (!stack.empty()) {
        Frame& top = stack.back();
        if (top.next == top.children.size()) {
          state[top.id] = kDone;
          stack.pop_back();
          continue;
        }
        const Id child = top.children[top.next++];
        const Id c = child < egraph_.num_ids() ? egraph_.find(child) : child;
        if (state[c] == kActive) return true;
        if (state[c] == kUnvisited && !enter(c)) return std::nullopt;
      }
    }
    return false;
  }

  const tensor::TensorGraphEGraph& egraph_;
  std::span<const Id> outputs_;
  boost::container::small_vector<Id, 2> roots_;      // the matched roots' classes
  boost::container::small_vector<Id, 2> rhs_roots_;  // the planned node merged into each
  std::vector<PlannedNode> planned_;
  std::vector<Id> planned_children_;
  std::vector<tensor::TensorData> planned_data_;  // price(): made by the analysis
  std::vector<double> planned_cost_;              // price(): their costs
  std::vector<Id> planned_order_;                 // price(): their unique children, ascending
  std::vector<std::uint32_t> planned_order_begin_;
};

}  // namespace

std::optional<MatchOutcome> preview_match(const TensorEGraph& parent, const TensorRewrite& rule,
                                          const egraph::Matches& matches, std::size_t m) {
  const auto roots = matches.roots_of(m), subst = matches.subst(m);
  std::vector<egraph::Pattern> terms;
  if (!rule.passes(parent.egraph, roots, subst, terms)) return MatchOutcome::kUnchanged;
  CandidatePlan plan(parent, roots);
  for (std::size_t i = 0; i < roots.size(); ++i)
    if (!plan.add(rule.rhs()[i], subst, terms)) return std::nullopt;
  if (plan.replacement_has_cycle()) return MatchOutcome::kCyclic;
  return std::nullopt;
}

namespace {

// The reach sets of a parent whose classes are all single (ParentPrices), by a depth-first walk
// that finishes each class after its children; none when the parent has a cycle.
void add_reach(ParentPrices& prices, const TensorEGraph& parent) {
  const auto& egraph = parent.egraph;
  const std::size_t ids = egraph.num_ids(), words = (ids + 63) / 64;
  enum : std::uint8_t { kUnvisited, kActive, kDone };
  std::vector<std::uint8_t> state(ids, kUnvisited);
  std::vector<std::uint64_t> reach(ids * words, 0);
  auto children = [&](Id c) {
    return std::span<const Id>(prices.order.data() + prices.order_begin[c],
                               prices.order.data() + prices.order_begin[c + 1]);
  };
  std::vector<std::pair<Id, std::size_t>> stack;
  for (const Id start : egraph.classes()) {
    if (state[start] != kUnvisited) continue;
    state[start] = kActive;
    stack.assign(1, {start, 0});
    while (!stack.empty()) {
      auto& [c, next] = stack.back();
      const auto kids = children(c);
      if (next < kids.size()) {
        const Id child = kids[next++];
        if (state[child] == kActive) return;  // a cycle
        if (state[child] == kUnvisited) {
          state[child] = kActive;
          stack.push_back({child, 0});
        }
        continue;
      }
      std::uint64_t* set = reach.data() + c * words;
      for (const Id child : kids) {
        const std::uint64_t* below = reach.data() + child * words;
        for (std::size_t w = 0; w < words; ++w) set[w] |= below[w];
        set[child >> 6] |= std::uint64_t{1} << (child & 63);
      }
      state[c] = kDone;
      stack.pop_back();
    }
  }
  prices.words = words;
  prices.reach = std::move(reach);
}

}  // namespace

ParentPrices price_parent(const TensorEGraph& parent, const tensor::CostModel& model) {
  const auto& egraph = parent.egraph;
  ParentPrices prices;
  const std::size_t ids = egraph.num_ids();
  prices.cost.assign(ids, 0.0);
  prices.own.assign(ids, 0);
  prices.order_begin.assign(ids + 1, 0);
  std::vector<std::vector<Id>> order(ids);
  for (const Id c : egraph.classes()) {
    const auto nodes = egraph.nodes_of(c);
    if (nodes.size() != 1) {
      prices.cost[c] = std::numeric_limits<double>::quiet_NaN();
      continue;
    }
    const egraph::ENodeRef node = egraph.node(nodes[0]);
    prices.own[c] = own_fingerprint(parent.tables(), node.op, node.payload);
    for (const Id child : node.children) order[c].push_back(egraph.find(child));
    std::sort(order[c].begin(), order[c].end());
    order[c].erase(std::unique(order[c].begin(), order[c].end()), order[c].end());
    if (!tensor::is_literal(node.op)) prices.cost[c] = tensor::enode_cost(egraph, nodes[0], model);
  }
  for (std::size_t c = 0; c < ids; ++c) {
    prices.order.insert(prices.order.end(), order[c].begin(), order[c].end());
    prices.order_begin[c + 1] = static_cast<std::uint32_t>(prices.order.size());
  }
  if (std::none_of(prices.cost.begin(), prices.cost.end(), [](double c) { return std::isnan(c); }))
    add_reach(prices, parent);
  return prices;
}

std::optional<PricedPreview> preview_match(const TensorEGraph& parent, const TensorRewrite& rule,
                                           const egraph::Matches& matches, std::size_t m,
                                           const ParentPrices& prices,
                                           const tensor::CostModel& model) {
  const auto roots = matches.roots_of(m), subst = matches.subst(m);
  std::vector<egraph::Pattern> terms;
  if (!rule.passes(parent.egraph, roots, subst, terms)) return told(MatchOutcome::kUnchanged);
  CandidatePlan plan(parent, roots);
  for (std::size_t i = 0; i < roots.size(); ++i)
    if (!plan.add(rule.rhs()[i], subst, terms)) return std::nullopt;
  if (!plan.plain_replacement()) return std::nullopt;
  // apply_match adds a binder's term before the right-hand sides, so its new e-nodes' ids come
  // first, not where the plan meets them: a term of literals (a split's sizes) changes no
  // operator's place in the walk's order, literal classes costing nothing and being leaves.
  const bool binds_operators = std::any_of(terms.begin(), terms.end(), [](const auto& term) {
    return std::any_of(term.nodes().begin(), term.nodes().end(), [](const auto& n) {
      return n.is_var || !tensor::is_literal(n.op);
    });
  });
  if (binds_operators) {
    if (plan.replacement_has_cycle()) return told(MatchOutcome::kCyclic);
    return std::nullopt;
  }
  return plan.price(prices, model);
}

}  // namespace mctsat::search
