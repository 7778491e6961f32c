// Local improvement by single-class and compound moves priced with reference counts.
#include "extract/local_search.hpp"

#include "extract/fixpoint.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

namespace mctsat::extract {
namespace {

// Whether the classes, linked to the child classes of their candidate nodes, form no cycle.
bool classes_acyclic(const Problem& problem) {
  enum : std::uint8_t { kUnvisited, kActive, kDone };
  std::vector<std::uint8_t> state(problem.num_classes(), kUnvisited);
  struct Frame {
    Index eclass;
    std::uint32_t next_node, next_child;
  };
  std::vector<Frame> stack;
  for (Index start = 0; start < problem.num_classes(); ++start) {
    if (state[start] != kUnvisited) continue;
    state[start] = kActive;
    stack.push_back({start, 0, 0});
    while (!stack.empty()) {
      Frame& top = stack.back();
      const std::span<const Index> candidates = problem.candidates(top.eclass);
      if (top.next_node == candidates.size()) {
        state[top.eclass] = kDone;
        stack.pop_back();
        continue;
      }
      const std::span<const Index> children = problem.unique_children(candidates[top.next_node]);
      if (top.next_child == children.size()) {
        ++top.next_node;
        top.next_child = 0;
        continue;
      }
      const Index child = children[top.next_child++];
      if (state[child] == kActive) return false;
      if (state[child] == kUnvisited) {
        state[child] = kActive;
        stack.push_back({child, 0, 0});
      }
    }
  }
  return true;
}

class LocalSearch {
 public:
  LocalSearch(const Problem& problem, Choice& choice, bool acyclic_shortcut)
      : p_(problem),
        choice_(choice),
        refs_(problem.num_classes(), 0),
        height_(problem.num_classes(), 0),
        explored_(problem.num_classes(), 0),
        added_(problem.num_classes(), 0),
        on_path_(problem.num_classes(), 0),
        acyclic_(acyclic_shortcut && classes_acyclic(problem)) {
    const ChoiceCheck check = check_choice(p_, choice_);
    MCTSAT_ASSERT(check.valid && "local search needs a valid extraction to start from");
    for (Index root : p_.roots()) ++refs_[root];
    for (Index eclass : check.order)
      for (Index child : p_.unique_children(choice_[eclass])) ++refs_[child];
    refresh(check);
  }

  ImproveStats run(std::size_t max_passes) {
    ImproveStats stats;
    stats.before = total_;
    std::vector<Index> order;
    while (stats.passes < max_passes) {
      ++stats.passes;
      if (!positions_valid_) refresh(check_choice(p_, choice_));
      refresh_defaults();
      order = order_;
      bool improved = false;
      for (Index eclass : order) {
        if (refs_[eclass] == 0) continue;  // left the extraction earlier in this pass
        if (p_.candidates(eclass).size() < 2) continue;
        // (Positions only serve the cycle checks, which an acyclic problem does not need.)
        if (!positions_valid_ && !acyclic_) refresh(check_choice(p_, choice_));
        const double tolerance = 1e-9 * std::max(total_, 1e-300);
        // Single moves. Releasing the old node alone bounds what any move can refund; a
        // candidate's additions stop as soon as, with that refund, it could not beat the best move
        // found so far.
        const Index old = choice_[eclass];
        const std::size_t mark = log_.size();
        const double refund_bound = release(old);
        revert_to(mark);
        Index best = kNone;
        double best_delta = -tolerance;
        for (Index node : p_.candidates(eclass)) {
          if (node == old) continue;
          ++stats.moves_tried;
          const std::optional<double> delta =
              apply(eclass, node, best_delta, kUnlimited, refund_bound);
          revert_to(mark);
          if (delta && *delta < best_delta) {
            best_delta = *delta;
            best = node;
          }
        }
        if (best != kNone) {
          const std::optional<double> delta = apply(eclass, best);
          MCTSAT_ASSERT(delta.has_value());
          set_choice(eclass, best, /*keep_heights=*/false);
          commit(*delta);
          improved = true;
          ++stats.moves_taken;
          continue;
        }
        // Compound moves: a candidate that does not pay for itself may bring in a few classes
        // that other needed classes could then share; take the first one that pays with those
        // follow-ups.
        for (Index node : p_.candidates(eclass)) {
          if (node == old) continue;
          ++stats.moves_tried;
          if (const std::optional<double> total = compound(eclass, node, tolerance, stats)) {
            commit(*total);
            improved = true;
            ++stats.moves_taken;
            break;
          }
        }
      }
      if (!improved) break;
    }
    if (!positions_valid_) refresh(check_choice(p_, choice_));
    stats.after = total_;
    return stats;
  }

  // Chain moves (local_search.hpp), in rounds over the shareable classes outside the extraction
  // until a round changes nothing.
  ImproveStats run_chains(std::size_t max_rounds) {
    ImproveStats stats;
    stats.before = total_;
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
      if (!positions_valid_) refresh(check_choice(p_, choice_));
      refresh_defaults();
      bool improved = false;
      for (Index seed = 0; seed < p_.num_classes(); ++seed) {
        if (!shareable_[seed] || refs_[seed] > 0 || !shared_by_needed(seed)) continue;
        if (!positions_valid_ && !acyclic_) refresh(check_choice(p_, choice_));
        improved = chain_from(seed, stats) || improved;
      }
      if (!improved) break;
    }
    if (!positions_valid_) refresh(check_choice(p_, choice_));
    stats.after = total_;
    return stats;
  }

 private:
  enum class Kind : std::uint8_t { kRefs, kChoice, kHeight };
  struct Change {
    Index eclass;
    Kind kind;
    std::int64_t value;  // kRefs: the change; kChoice, kHeight: the old value
  };

  // The exact total and the topological positions of the needed classes.
  void refresh(const ChoiceCheck& check) {
    MCTSAT_ASSERT(check.valid && "a local-search move broke the extraction");
    total_ = check.cost;
    order_ = check.order;
    for (Index eclass : order_) {
      std::uint64_t height = 0;
      for (Index child : p_.unique_children(choice_[eclass]))
        height = std::max(height, height_[child] + kHeightSpacing);
      height_[eclass] = height;
    }
    positions_valid_ = true;
    ++version_;
  }

  // Re-chooses the classes outside the extraction (the nodes a move brings in) by tree cost,
  // counting the classes in it as free: a move then brings in what best reuses the extraction.
  void refresh_defaults() {
    std::vector<double>& value = scratch_value_;
    value.assign(p_.num_classes(), std::numeric_limits<double>::infinity());
    for (Index eclass = 0; eclass < p_.num_classes(); ++eclass) {
      if (refs_[eclass] > 0) {
        value[eclass] = 0;
      } else {
        choice_[eclass] = kNone;
      }
    }
    bottom_up_fixpoint(
        p_, value, choice_,
        [&](Index node) {
          double sum = p_.node_cost(node);
          for (Index child : p_.children(node)) sum += value[child];
          return sum;
        },
        [](Index, double) {});
    ++version_;
  }

  void commit(double delta) {
    log_.clear();
    total_ += delta;
    positions_valid_ = false;
    ++version_;
  }

  // Sets a class's node (its counts already switched by apply). Unless the positions are about
  // to be refreshed (`keep_heights` false), keeps the height potential valid by raising the class
  // above its new children; false (the caller then undoes the move) when that would take it to
  // or above one of its chosen parents, whose ancestors would have to rise in turn.
  bool set_choice(Index eclass, Index node, bool keep_heights) {
    std::uint64_t height = 0;
    keep_heights = keep_heights && !acyclic_;
    if (keep_heights) {
      for (Index child : p_.unique_children(node)) height = std::max(height, height_[child] + 1);
      if (height > height_[eclass]) {
        for (Index parent : p_.parents(eclass)) {
          const Index owner = p_.node_class(parent);
          if (refs_[owner] > 0 && choice_[owner] == parent && height_[owner] <= height)
            return false;
        }
      }
    }
    log_.push_back({eclass, Kind::kChoice, static_cast<std::int64_t>(choice_[eclass])});
    choice_[eclass] = node;
    ++version_;
    if (!keep_heights) {
      positions_valid_ = false;
    } else if (height > height_[eclass]) {
      set_height(eclass, height);
    }
    return true;
  }

  void set_height(Index eclass, std::uint64_t height) {
    log_.push_back({eclass, Kind::kHeight, static_cast<std::int64_t>(height_[eclass])});
    height_[eclass] = height;
  }

  void revert_to(std::size_t mark) {
    bool choices = false;
    while (log_.size() > mark) {
      const Change change = log_.back();
      log_.pop_back();
      switch (change.kind) {
        case Kind::kChoice:
          choice_[change.eclass] = static_cast<Index>(change.value);
          choices = true;
          break;
        case Kind::kHeight:
          height_[change.eclass] = static_cast<std::uint64_t>(change.value);
          break;
        case Kind::kRefs:
          refs_[change.eclass] = static_cast<std::uint32_t>(
              static_cast<std::int64_t>(refs_[change.eclass]) - change.value);
          break;
      }
    }
    if (choices) ++version_;
  }

  // Whether a class needed before the move reaches `target` through chosen nodes. Heights are a
  // potential (a chosen node's class is higher than its children), so a class no higher than
  // the target cannot, and a depth-first walk down from the class only enters classes higher than
  // the target; classes found not to reach it are remembered until the choice changes.
  bool reaches(Index eclass, Index target) {
    if (acyclic_) return false;
    MCTSAT_ASSERT(positions_valid_);
    const std::uint64_t floor = height_[target];
    if (height_[eclass] <= floor) return false;
    if (walk_target_ != target || walk_version_ != version_) {
      ++walk_stamp_;
      walk_target_ = target;
      walk_version_ = version_;
    }
    if (explored_[eclass] == walk_stamp_) return false;
    explored_[eclass] = walk_stamp_;
    walk_.assign(1, eclass);
    while (!walk_.empty()) {
      const Index cls = walk_.back();
      walk_.pop_back();
      for (Index child : p_.unique_children(choice_[cls])) {
        if (child == target) {
          ++walk_stamp_;  // the marks of this walk are not all "does not reach"
          return true;
        }
        if (height_[child] <= floor || explored_[child] == walk_stamp_) continue;
        explored_[child] = walk_stamp_;
        walk_.push_back(child);
      }
    }
    return false;
  }

  // Releases a node's children, refunding (and releasing in turn) classes no longer needed;
  // returns the refund. Logged.
  double release(Index node) {
    double refund = 0;
    release_.assign(p_.unique_children(node).begin(), p_.unique_children(node).end());
    while (!release_.empty()) {
      const Index cls = release_.back();
      release_.pop_back();
      MCTSAT_ASSERT(refs_[cls] > 0);
      --refs_[cls];
      log_.push_back({cls, Kind::kRefs, -1});
      if (refs_[cls] > 0) continue;
      const Index chosen = choice_[cls];
      refund += p_.node_cost(chosen);
      for (Index child : p_.unique_children(chosen)) release_.push_back(child);
    }
    return refund;
  }

  // Adds `node`'s children as if it were `eclass`'s node (its old node still in place), walking
  // into the classes that become needed and paying their chosen nodes. Returns the cost added
  // (the node's own included), or nullopt (its changes undone) when the move is impossible (a
  // cycle, a class without a usable node) or abandoned: `base` plus the cost so far reaches
  // `abort_at`, or more than `max_new` classes become needed. Those classes are in added_list_.
  std::optional<double> add(Index eclass, Index node, double base, double abort_at,
                            std::size_t max_new) {
    ++move_;
    added_list_.clear();
    const std::size_t mark = log_.size();
    double added = p_.node_cost(node);
    stack_.clear();
    auto visit = [&](Index cls) -> bool {
      if (cls == eclass) return false;
      const std::uint32_t previous = refs_[cls]++;
      log_.push_back({cls, Kind::kRefs, +1});
      if (previous > 0) {
        if (added_[cls] == move_) return on_path_[cls] == 0;  // added by this move
        return !reaches(cls, eclass);                         // needed before the move
      }
      const Index chosen = choice_[cls];
      if (chosen == kNone || p_.node_class(chosen) != cls || p_.forbidden(chosen)) return false;
      added_[cls] = move_;
      added_list_.push_back(cls);
      on_path_[cls] = 1;
      added += p_.node_cost(chosen);
      stack_.push_back({cls, 0});
      return base + added < abort_at && added_list_.size() <= max_new;
    };
    bool ok = base + added < abort_at;
    for (Index child : p_.unique_children(node)) {
      if (!ok) break;
      ok = visit(child);
      while (ok && !stack_.empty()) {
        Frame& top = stack_.back();
        const std::span<const Index> children = p_.unique_children(choice_[top.eclass]);
        if (top.next_child == children.size()) {
          // Finished: its children are needed classes (heights valid) or finished ones.
          std::uint64_t height = 0;
          for (Index child : children) height = std::max(height, height_[child] + 1);
          set_height(top.eclass, height);
          on_path_[top.eclass] = 0;
          stack_.pop_back();
          continue;
        }
        ok = visit(children[top.next_child++]);
      }
    }
    if (!ok) {
      for (const Frame& frame : stack_) on_path_[frame.eclass] = 0;
      stack_.clear();
      revert_to(mark);
      return std::nullopt;
    }
    return added;
  }

  // Switches `eclass` to `node` in the reference counts (not in the choice): adds the new node's
  // children, then releases the old node's (so that what both use stays). Returns the exact cost
  // change; logged. Nullopt (nothing changed) when impossible, or abandoned as `add` says, where
  // `refund_bound` bounds the refund of releasing the old node.
  std::optional<double> apply(Index eclass, Index node,
                              double abort_at = std::numeric_limits<double>::infinity(),
                              std::size_t max_new = kUnlimited,
                              double refund_bound = std::numeric_limits<double>::infinity()) {
    const Index old = choice_[eclass];
    const std::optional<double> added =
        add(eclass, node, -p_.node_cost(old) - refund_bound, abort_at, max_new);
    if (!added) return std::nullopt;
    return *added - p_.node_cost(old) - release(old);
  }

  // Applies `eclass` -> `node`, then, for each class the move made needed, lets the other needed
  // classes with a node using it switch to that node where this lowers the cost. Keeps everything
  // (in the log, to commit) and returns the total change when it is an improvement; otherwise
  // undoes everything.
  std::optional<double> compound(Index eclass, Index node, double tolerance, ImproveStats& stats) {
    const std::size_t mark = log_.size();
    const std::optional<double> first =
        apply(eclass, node, std::numeric_limits<double>::infinity(), kCompoundClasses);
    if (!first) return std::nullopt;
    // Worth following up only if another needed class has a node using a class it brings in.
    const bool shareable = std::any_of(added_list_.begin(), added_list_.end(), [&](Index shared) {
      const auto parents = p_.parents(shared);
      return std::any_of(parents.begin(), parents.end(), [&](Index parent) {
        const Index owner = p_.node_class(parent);
        return owner != eclass && refs_[owner] > 0 && choice_[owner] != parent;
      });
    });
    if (!shareable || !set_choice(eclass, node, /*keep_heights=*/true)) {
      revert_to(mark);
      return std::nullopt;
    }
    double total = *first;
    const std::vector<Index> added = added_list_;
    for (Index shared : added) {
      if (refs_[shared] == 0) continue;
      for (Index parent : p_.parents(shared)) {
        const Index owner = p_.node_class(parent);
        if (owner == eclass || refs_[owner] == 0 || choice_[owner] == parent) continue;
        ++stats.moves_tried;
        const std::size_t before = log_.size();
        if (const std::optional<double> delta = apply(owner, parent, -tolerance)) {
          if (set_choice(owner, parent, /*keep_heights=*/true)) {
            total += *delta;
          } else {
            revert_to(before);
          }
        }
      }
    }
    if (total < -tolerance) return total;
    revert_to(mark);
    return std::nullopt;
  }

  // Sets the node a class outside the extraction would bring in when a move needs it. Logged.
  void set_default(Index eclass, Index node) {
    MCTSAT_ASSERT(refs_[eclass] == 0);
    log_.push_back({eclass, Kind::kChoice, static_cast<std::int64_t>(choice_[eclass])});
    choice_[eclass] = node;
    ++version_;
  }

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
      const double refund = leaf_refund(choice_[eclass], node, via == kNone ? kNone : via_node);
      const double paid = p_.node_cost(node) + (via == kNone ? 0.0 : p_.node_cost(via_node));
      if (paid - p_.node_cost(choice_[eclass]) - refund >= limit) return std::nullopt;
    }
    const std::size_t mark = log_.size();
    if (via != kNone) set_default(via, via_node);
    const std::optional<double> delta =
        apply(eclass, node, std::numeric_limits<double>::infinity(), kCompoundClasses);
    if (delta && *delta < limit && set_choice(eclass, node, /*keep_heights=*/true)) return delta;
    revert_to(mark);
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
      if (refs_[child] != 1 || uses(kept, child) || uses(kept_too, child)) continue;
      const Index chosen = choice_[child];
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
      if (refs_[eclass] == 0 || user_mark_[eclass] == user_stamp_) return false;
      user_mark_[eclass] = user_stamp_;
      return ++users >= 2;
    };
    for (Index use : p_.parents(seed)) {
      const Index owner = p_.node_class(use);
      if (refs_[owner] > 0) {
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
    const double tolerance = 1e-9 * std::max(total_, 1e-300);
    const double any = std::numeric_limits<double>::infinity();
    chain_tries_ = kChainTries;  // for all the seedings of this class
    auto attempt = [&](Index eclass, Index node, Index via, Index via_node) {
      const std::size_t mark = log_.size();
      const std::optional<double> first = chain_step(eclass, node, via, via_node, any, stats);
      if (!first) return false;
      std::vector<Index> work = added_list_;
      const double total = *first + grow(work, tolerance, /*reseed=*/true, stats);
      if (total < -tolerance) {
        commit(total);
        ++stats.moves_taken;
        return true;
      }
      revert_to(mark);
      return false;
    };
    for (Index use : p_.parents(seed)) {
      const Index owner = p_.node_class(use);
      if (refs_[owner] > 0) {
        if (attempt(owner, use, kNone, kNone)) return true;
        continue;
      }
      for (Index parent : p_.parents(owner)) {
        const Index eclass = p_.node_class(parent);
        if (refs_[eclass] == 0 || choice_[eclass] == parent) continue;
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
    for (; i < work.size() && steps < kChainSteps; ++i) {
      if (steps != item_start) last = i - 1;
      item_start = steps;
      if (steps == start && i > stop) break;
      const Index shared = work[i];
      if (refs_[shared] == 0) continue;
      // A step taken: its change counts, and the classes it made needed join the work list.
      const auto take = [&](double delta) {
        total += delta;
        ++steps;
        work.insert(work.end(), added_list_.begin(), added_list_.end());
      };
      // A class the chain brought in re-chooses its node where that lowers the cost.
      for (Index node : p_.candidates(shared)) {
        if (node == choice_[shared]) continue;
        if (const auto delta = chain_step(shared, node, kNone, kNone, -tolerance, stats)) {
          take(*delta);
          break;
        }
      }
      for (Index use : p_.parents(shared)) {
        const Index owner = p_.node_class(use);
        if (refs_[owner] > 0) {
          if (choice_[owner] == use) continue;
          if (const auto delta = chain_step(owner, use, kNone, kNone, -tolerance, stats)) {
            take(*delta);
          }
          continue;
        }
        for (Index parent : p_.parents(owner)) {
          const Index eclass = p_.node_class(parent);
          if (refs_[eclass] == 0 || choice_[eclass] == parent) continue;
          if (const auto delta = chain_step(eclass, parent, owner, use, -tolerance, stats)) {
            take(*delta);
            break;
          }
        }
      }
      if (!reseed || refs_[shared] == 0) continue;
      for (Index node : p_.candidates(shared)) {
        if (node == choice_[shared]) continue;
        const auto children = p_.unique_children(node);
        if (!std::any_of(children.begin(), children.end(),
                         [&](Index child) { return refs_[child] == 0 && shareable_[child]; }))
          continue;
        const std::size_t mark = log_.size();
        const auto first =
            chain_step(shared, node, kNone, kNone, std::numeric_limits<double>::infinity(), stats);
        if (!first) continue;
        std::vector<Index> more = added_list_;
        const double change = *first + grow(more, tolerance, /*reseed=*/false, stats);
        if (change < -tolerance) {
          total += change;
          ++steps;
          work.insert(work.end(), more.begin(), more.end());
          break;
        }
        revert_to(mark);
      }
    }
    if (steps != item_start) last = i - 1;
    return last;
  }

  struct Frame {
    Index eclass;
    std::uint32_t next_child;
  };
  // A chain takes at most this many steps (follow-ups and reseeds), and tries at most this many
  // moves (its seeding and the lookaheads included).
  static constexpr std::size_t kChainSteps = 256;
  static constexpr std::size_t kChainTries = 64;
  // A compound move starts with a move that makes at most this many classes needed.
  static constexpr std::size_t kCompoundClasses = 64;
  static constexpr std::size_t kUnlimited = std::numeric_limits<std::size_t>::max();
  static constexpr std::uint64_t kHeightSpacing = 1024;

  const Problem& p_;
  Choice& choice_;
  double total_ = 0;
  std::vector<std::uint32_t> refs_;  // by class: chosen parents (and roots) using it
  // By needed class: above its chosen children's. Refreshed heights are spaced kHeightSpacing
  // apart, so that a move can usually raise a class without reaching its parents.
  std::vector<std::uint64_t> height_;
  std::vector<std::uint32_t> explored_;  // by class: walk_stamp_ when it does not reach the target
  std::vector<Index> order_;             // the needed classes, children first
  bool positions_valid_ = false;         // order_ and height_ describe the current choice
  std::uint32_t walk_stamp_ = 0;
  Index walk_target_ = kNone;
  std::uint64_t walk_version_ = 0;
  std::vector<std::uint32_t> added_;   // by class: the move that made it needed
  std::vector<std::uint8_t> on_path_;  // by class: being expanded by the current move
  // No candidate node reaches its own class: no choice can be cyclic, and the cycle checks (and
  // the positions they need) are skipped.
  const bool acyclic_;
  std::uint32_t move_ = 0;
  std::uint64_t version_ = 0;  // of the choice
  std::vector<Change> log_;
  std::vector<Index> added_list_, frontier_, release_, walk_;
  std::vector<double> scratch_value_;
  std::vector<Frame> stack_;
  std::vector<std::uint8_t> shareable_;  // run_chains: by class
  std::vector<std::uint32_t> user_mark_;  // run_chains: by class, user_stamp_ when counted
  std::uint32_t user_stamp_ = 0;
  std::size_t chain_tries_ = 0;          // run_chains: moves the current chain may still try
};

}  // namespace

ImproveStats improve_choice(const Problem& problem, Choice& choice, std::size_t max_passes,
                            bool acyclic_shortcut) {
  LocalSearch search(problem, choice, acyclic_shortcut);
  return search.run(max_passes);
}

ImproveStats improve_by_chains(const Problem& problem, Choice& choice, std::size_t max_rounds) {
  LocalSearch search(problem, choice, /*acyclic_shortcut=*/true);
  return search.run_chains(max_rounds);
}

}  // namespace mctsat::extract
