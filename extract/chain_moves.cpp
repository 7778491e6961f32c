// Chain moves on a ChoiceEngine (see chain_moves.hpp).
#include "extract/chain_moves.hpp"

#include <algorithm>
#include <limits>
#include <optional>
#include <vector>

#include "extract/choice_engine.hpp"

namespace mctsat::extract {
namespace {

class ChainMoves {
 public:
  explicit ChainMoves(ChoiceEngine& engine) : e_(engine), p_(engine.problem()) {}

  // Chain moves, in rounds over the shareable classes outside the extraction
  // until a round changes nothing.
  ImproveStats run_chains(std::size_t max_rounds) {
    ImproveStats stats;
    stats.before = e_.total();
    // Shareable: candidate nodes of two or more classes use the class (seeds must also pass
    // shared_by_needed; a reseed only this).
    shareable_.assign(p_.num_classes(), 0);
    user_mark_.assign(p_.num_classes(), 0);
    for (Index eclass = 0; eclass < p_.num_classes(); ++eclass) {
      Index first = kNone;
      for (Index parent : p_.parents(eclass)) {
        const Index owner = p_.node_class(parent);
        if (first == kNone) {
          first = owner;
        } else if (owner != first) {
          shareable_[eclass] = 1;
          break;
        }
      }
    }
    while (stats.passes < max_rounds) {
      ++stats.passes;
      e_.refresh_positions();
      e_.refresh_defaults();
      bool improved = false;
      for (Index seed = 0; seed < p_.num_classes(); ++seed) {
        if (!shareable_[seed] || e_.needed(seed) || !shared_by_needed(seed)) continue;
        if (!e_.acyclic()) e_.refresh_positions();
        improved = chain_from(seed, stats) || improved;
      }
      if (!improved) break;
    }
    e_.refresh_positions();
    stats.after = e_.total();
    return stats;
  }

 private:
 private:
  // Switches `eclass` to `node` (first making `via`, a class outside the extraction, bring in
  // `via_node`, unless `via` is kNone). Kept (logged) when the cost change is below `limit`, and
  // then returned; otherwise undone.
  std::optional<double> chain_step(Index eclass, Index node, Index via, Index via_node,
                                   double limit, ImproveStats& stats) {
    if (chain_tries_ == 0) return std::nullopt;  // the chain's budget is spent
    --chain_tries_;
    ++stats.moves_tried;
    if (limit < std::numeric_limits<double>::infinity()) {
      // Most tries of a chain that finds nothing fail on their own prices: the move pays at
      // least the new node (and `via_node`) and refunds the old one and what only it uses,
      // which leaf_refund bounds. Such a try is not made (but counts as tried).
      const double refund = leaf_refund(e_.chosen(eclass), node, via == kNone ? kNone : via_node);
      const double paid = p_.node_cost(node) + (via == kNone ? 0.0 : p_.node_cost(via_node));
      if (paid - p_.node_cost(e_.chosen(eclass)) - refund >= limit) return std::nullopt;
    }
    const std::size_t mark = e_.mark();
    if (via != kNone) e_.set_default(via, via_node);
    const std::optional<double> delta =
        e_.apply(eclass, node, std::numeric_limits<double>::infinity(), kCompoundClasses);
    if (delta && *delta < limit && e_.set_choice(eclass, node, /*keep_heights=*/true)) return delta;
    e_.revert_to(mark);
    return std::nullopt;
  }

  // Bounds the refund of releasing `node` after `kept` and `kept_too` (kNone: none) have been
  // added: the classes only `node` uses that neither of those uses are all that is refunded,
  // when they are leaves (chosen nodes without children; nothing else is released then); when
  // one is not, infinity.
  double leaf_refund(Index node, Index kept, Index kept_too) const {
    auto uses = [&](Index user, Index cls) {
      if (user == kNone) return false;
      const auto children = p_.unique_children(user);
      return std::find(children.begin(), children.end(), cls) != children.end();
    };
    double refund = 0;
    for (Index child : p_.unique_children(node)) {
      if (e_.refs(child) != 1 || uses(kept, child) || uses(kept_too, child)) continue;
      const Index chosen = e_.chosen(child);
      if (!p_.unique_children(chosen).empty()) return std::numeric_limits<double>::infinity();
      refund += p_.node_cost(chosen);
    }
    return refund;
  }

  // Whether two or more needed classes have a node using `seed`, directly or through a class
  // outside the extraction (the ways a chain brings a class in). Only such classes seed chains.
  bool shared_by_needed(Index seed) {
    ++user_stamp_;
    std::size_t users = 0;
    auto count = [&](Index eclass) {
      if (!e_.needed(eclass) || user_mark_[eclass] == user_stamp_) return false;
      user_mark_[eclass] = user_stamp_;
      return ++users >= 2;
    };
    for (Index use : p_.parents(seed)) {
      const Index owner = p_.node_class(use);
      if (e_.needed(owner)) {
        if (count(owner)) return true;
        continue;
      }
      for (Index parent : p_.parents(owner))
        if (count(p_.node_class(parent))) return true;
    }
    return false;
  }

  // Brings the shareable class `seed` into the extraction, whatever that costs: a needed class
  // switches to a node using it, directly or through a class outside the extraction. Then grows
  // the chain; the first seeding whose chain lowers the total is committed.
  bool chain_from(Index seed, ImproveStats& stats) {
    const double tolerance = 1e-9 * std::max(e_.total(), 1e-300);
    const double any = std::numeric_limits<double>::infinity();
    chain_tries_ = kChainTries;  // for all the seedings of this class
    auto attempt = [&](Index eclass, Index node, Index via, Index via_node) {
      const std::size_t mark = e_.mark();
      const std::optional<double> first = chain_step(eclass, node, via, via_node, any, stats);
      if (!first) return false;
      std::vector<Index> work = e_.added();
      const double total = *first + grow(work, tolerance, /*reseed=*/true, stats);
      if (total < -tolerance) {
        e_.commit(total);
        ++stats.moves_taken;
        return true;
      }
      e_.revert_to(mark);
      return false;
    };
    for (Index use : p_.parents(seed)) {
      if (chain_tries_ == 0) break;
      const Index owner = p_.node_class(use);
      if (e_.needed(owner)) {
        if (attempt(owner, use, kNone, kNone)) return true;
        continue;
      }
      for (Index parent : p_.parents(owner)) {
        const Index eclass = p_.node_class(parent);
        if (!e_.needed(eclass) || e_.chosen(eclass) == parent) continue;
        if (attempt(eclass, parent, owner, use)) return true;
      }
    }
    return false;
  }

  // The follow-ups of a chain, over `work` (classes the chain made needed; grows as it goes): such
  // a class re-chooses its node, and needed classes that can use it -- directly, or through a
  // class outside the extraction -- switch, where that lowers the cost; with `reseed`, it may also
  // switch to a node bringing in another shareable class when that pays with that class's own
  // follow-ups (found without reseeding). Returns the cost change; everything stays in the log.
  double grow(std::vector<Index>& work, double tolerance, bool reseed, ImproveStats& stats) {
    double total = 0;
    std::size_t steps = 0;
    // Sweeps over `work` while one changes something (a step may make an earlier one pay). A
    // sweep that has changed nothing yet stops after the class of the previous sweep's last step:
    // the classes after it were tried in the same state then, and changed nothing.
    std::size_t last = work.size();
    for (std::size_t taken = 1; taken > 0 && steps < kChainSteps;) {
      taken = steps;
      last = grow_sweep(work, tolerance, reseed, stats, total, steps, last);
      taken = steps - taken;
    }
    return total;
  }

  // One sweep of `grow`; if it has changed nothing by then, it stops after the class at position
  // `stop` of `work`. Returns the position of the class of its last step.
  std::size_t grow_sweep(std::vector<Index>& work, double tolerance, bool reseed,
                         ImproveStats& stats, double& total, std::size_t& steps, std::size_t stop) {
    const std::size_t start = steps;
    std::size_t last = work.size(), item_start = steps, i = 0;
    for (; i < work.size() && steps < kChainSteps && chain_tries_ > 0; ++i) {
      if (steps != item_start) last = i - 1;
      item_start = steps;
      if (steps == start && i > stop) break;
      const Index shared = work[i];
      if (!e_.needed(shared)) continue;
      // A step taken: its change counts, and the classes it made needed join the work list.
      const auto take = [&](double delta) {
        total += delta;
        ++steps;
        work.insert(work.end(), e_.added().begin(), e_.added().end());
      };
      // A class the chain brought in re-chooses its node where that lowers the cost.
      for (Index node : p_.candidates(shared)) {
        if (node == e_.chosen(shared)) continue;
        if (const auto delta = chain_step(shared, node, kNone, kNone, -tolerance, stats)) {
          take(*delta);
          break;
        }
      }
      for (Index use : p_.parents(shared)) {
        if (chain_tries_ == 0) break;
        const Index owner = p_.node_class(use);
        if (e_.needed(owner)) {
          if (e_.chosen(owner) == use) continue;
          if (const auto delta = chain_step(owner, use, kNone, kNone, -tolerance, stats)) {
            take(*delta);
          }
          continue;
        }
        for (Index parent : p_.parents(owner)) {
          const Index eclass = p_.node_class(parent);
          if (!e_.needed(eclass) || e_.chosen(eclass) == parent) continue;
          if (const auto delta = chain_step(eclass, parent, owner, use, -tolerance, stats)) {
            take(*delta);
            break;
          }
        }
      }
      if (!reseed || !e_.needed(shared)) continue;
      for (Index node : p_.candidates(shared)) {
        if (node == e_.chosen(shared)) continue;
        const auto children = p_.unique_children(node);
        if (!std::any_of(children.begin(), children.end(),
                         [&](Index child) { return !e_.needed(child) && shareable_[child]; }))
          continue;
        const std::size_t mark = e_.mark();
        const auto first =
            chain_step(shared, node, kNone, kNone, std::numeric_limits<double>::infinity(), stats);
        if (!first) continue;
        std::vector<Index> more = e_.added();
        const double change = *first + grow(more, tolerance, /*reseed=*/false, stats);
        if (change < -tolerance) {
          total += change;
          ++steps;
          work.insert(work.end(), more.begin(), more.end());
          break;
        }
        e_.revert_to(mark);
      }
    }
    if (steps != item_start) last = i - 1;
    return last;
  }

  // A chain takes at most this many steps (follow-ups and reseeds), and tries at most this many
  // moves (its seeding and the lookaheads included).
  static constexpr std::size_t kChainSteps = 256;
  static constexpr std::size_t kChainTries = 64;
  // A chain's first step makes at most this many classes needed.
  static constexpr std::size_t kCompoundClasses = 64;

  ChoiceEngine& e_;
  const Problem& p_;
  std::vector<std::uint8_t> shareable_;   // by class
  std::vector<std::uint32_t> user_mark_;  // by class, user_stamp_ when counted
  std::uint32_t user_stamp_ = 0;
  std::size_t chain_tries_ = 0;  // moves the current chain may still try
};

}  // namespace

ImproveStats improve_by_chains(const Problem& problem, Choice& choice, std::size_t max_rounds) {
  ChoiceEngine engine(problem, choice, /*acyclic_shortcut=*/true);
  return ChainMoves(engine).run_chains(max_rounds);
}

}  // namespace mctsat::extract
