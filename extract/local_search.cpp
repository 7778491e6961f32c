// Local improvement by single-class and compound moves priced with reference counts.
#include "extract/local_search.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace mctsat::extract {
namespace {

class LocalSearch {
 public:
  LocalSearch(const Problem& problem, Choice& choice)
      : p_(problem),
        choice_(choice),
        refs_(problem.num_classes(), 0),
        pos_(problem.num_classes(), kNone),
        added_(problem.num_classes(), 0),
        on_path_(problem.num_classes(), 0),
        ancestor_(problem.num_classes(), 0) {
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
    std::vector<std::pair<double, Index>> options;
    while (stats.passes < max_passes) {
      ++stats.passes;
      order = order_;
      bool improved = false;
      for (Index eclass : order) {
        if (refs_[eclass] == 0) continue;  // left the extraction earlier in this pass
        if (p_.candidates(eclass).size() < 2) continue;
        if (!positions_valid_) refresh(check_choice(p_, choice_));
        const double tolerance = 1e-9 * std::max(total_, 1e-300);
        // Single moves: every other candidate, priced; the best improving one is taken.
        options.clear();
        for (Index node : p_.candidates(eclass)) {
          if (node == choice_[eclass]) continue;
          ++stats.moves_tried;
          const std::size_t mark = log_.size();
          const std::optional<double> delta = apply(eclass, node);
          revert_to(mark);
          if (delta) options.push_back({*delta, node});
        }
        std::sort(options.begin(), options.end());
        if (!options.empty() && options[0].first < -tolerance) {
          const std::optional<double> delta = apply(eclass, options[0].second);
          MCTSAT_ASSERT(delta.has_value());
          set_choice(eclass, options[0].second);
          commit(*delta);
          improved = true;
          ++stats.moves_taken;
          continue;
        }
        // Compound moves: a candidate that does not pay for itself may bring in classes that other
        // needed classes could then share; take the first one that pays with those follow-ups.
        for (const auto& [delta, node] : options) {
          stats.moves_tried += 1;
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

 private:
  struct Change {
    Index eclass;
    bool is_choice;  // a choice change (old node in `value`) or a reference count change
    std::int64_t value;
  };

  // The exact total and the topological positions of the needed classes.
  void refresh(const ChoiceCheck& check) {
    MCTSAT_ASSERT(check.valid && "a local-search move broke the extraction");
    total_ = check.cost;
    for (Index eclass : order_) pos_[eclass] = kNone;
    order_ = check.order;
    for (std::size_t i = 0; i < order_.size(); ++i) pos_[order_[i]] = static_cast<Index>(i);
    positions_valid_ = true;
    ++version_;
  }

  void commit(double delta) {
    log_.clear();
    total_ += delta;
    positions_valid_ = false;
    ++version_;
  }

  void set_choice(Index eclass, Index node) {
    log_.push_back({eclass, true, static_cast<std::int64_t>(choice_[eclass])});
    choice_[eclass] = node;
    positions_valid_ = false;
    ++version_;
  }

  void revert_to(std::size_t mark) {
    bool choices = false;
    while (log_.size() > mark) {
      const Change change = log_.back();
      log_.pop_back();
      if (change.is_choice) {
        choice_[change.eclass] = static_cast<Index>(change.value);
        choices = true;
      } else {
        refs_[change.eclass] =
            static_cast<std::uint32_t>(static_cast<std::int64_t>(refs_[change.eclass]) -
                                       change.value);
      }
    }
    if (choices) ++version_;
  }

  // Marks the needed classes that reach `target` through chosen nodes (target included).
  void compute_ancestors(Index target) {
    ++stamp_;
    ancestors_of_ = target;
    ancestors_version_ = version_;
    ancestor_[target] = stamp_;
    frontier_.assign(1, target);
    while (!frontier_.empty()) {
      const Index eclass = frontier_.back();
      frontier_.pop_back();
      for (Index parent : p_.parents(eclass)) {
        const Index owner = p_.node_class(parent);
        if (refs_[owner] == 0 || choice_[owner] != parent || ancestor_[owner] == stamp_) continue;
        ancestor_[owner] = stamp_;
        frontier_.push_back(owner);
      }
    }
  }

  // Whether a class needed before the move reaches `target`.
  bool reaches(Index eclass, Index target) {
    if (positions_valid_ && pos_[eclass] < pos_[target]) return false;  // children come first
    if (ancestors_of_ != target || ancestors_version_ != version_) compute_ancestors(target);
    return ancestor_[eclass] == stamp_;
  }

  // Switches `eclass` to `node` in the reference counts (not in the choice), logging every change;
  // returns the cost change, or nullopt (with its changes undone) when the move is impossible: a
  // cycle, or a class it needs without a usable node. Classes it makes needed are in added_list_.
  std::optional<double> apply(Index eclass, Index node) {
    ++move_;
    added_list_.clear();
    const std::size_t mark = log_.size();
    const Index old = choice_[eclass];
    double delta = p_.node_cost(node) - p_.node_cost(old);
    // Add the new node's children, walking into classes that become needed.
    stack_.clear();
    auto visit = [&](Index cls) -> bool {
      if (cls == eclass) return false;
      const std::uint32_t previous = refs_[cls]++;
      log_.push_back({cls, false, +1});
      if (previous > 0) {
        if (added_[cls] == move_) return on_path_[cls] == 0;  // added by this move
        return !reaches(cls, eclass);                         // needed before the move
      }
      const Index chosen = choice_[cls];
      if (chosen == kNone || p_.node_class(chosen) != cls || p_.forbidden(chosen)) return false;
      added_[cls] = move_;
      added_list_.push_back(cls);
      on_path_[cls] = 1;
      delta += p_.node_cost(chosen);
      stack_.push_back({cls, 0});
      return true;
    };
    bool ok = true;
    for (Index child : p_.unique_children(node)) {
      if (!(ok = visit(child))) break;
      while (ok && !stack_.empty()) {
        Frame& top = stack_.back();
        const std::span<const Index> children = p_.unique_children(choice_[top.eclass]);
        if (top.next_child == children.size()) {
          on_path_[top.eclass] = 0;
          stack_.pop_back();
          continue;
        }
        ok = visit(children[top.next_child++]);
      }
      if (!ok) break;
    }
    if (!ok) {
      for (const Frame& frame : stack_) on_path_[frame.eclass] = 0;
      stack_.clear();
      revert_to(mark);
      return std::nullopt;
    }
    // Release the old node's children, refunding classes that are no longer needed.
    release_.assign(p_.unique_children(old).begin(), p_.unique_children(old).end());
    while (!release_.empty()) {
      const Index cls = release_.back();
      release_.pop_back();
      MCTSAT_ASSERT(refs_[cls] > 0);
      --refs_[cls];
      log_.push_back({cls, false, -1});
      if (refs_[cls] > 0) continue;
      const Index chosen = choice_[cls];
      delta -= p_.node_cost(chosen);
      for (Index child : p_.unique_children(chosen)) release_.push_back(child);
    }
    return delta;
  }

  // Applies `eclass` -> `node`, then, for each class the move made needed, lets the other needed
  // classes with a node using it switch to that node where this lowers the cost. Keeps everything
  // (in the log, to commit) and returns the total change when it is an improvement; otherwise
  // undoes everything.
  std::optional<double> compound(Index eclass, Index node, double tolerance,
                                 ImproveStats& stats) {
    const std::size_t mark = log_.size();
    const std::optional<double> first = apply(eclass, node);
    if (!first) return std::nullopt;
    set_choice(eclass, node);
    double total = *first;
    const std::vector<Index> added = added_list_;
    for (Index shared : added) {
      if (refs_[shared] == 0) continue;
      for (Index parent : p_.parents(shared)) {
        const Index owner = p_.node_class(parent);
        if (owner == eclass || refs_[owner] == 0 || choice_[owner] == parent) continue;
        ++stats.moves_tried;
        const std::size_t before = log_.size();
        const std::optional<double> delta = apply(owner, parent);
        if (delta && *delta < -tolerance) {
          set_choice(owner, parent);
          total += *delta;
        } else if (delta) {
          revert_to(before);
        }
      }
    }
    if (total < -tolerance) return total;
    revert_to(mark);
    return std::nullopt;
  }

  struct Frame {
    Index eclass;
    std::uint32_t next_child;
  };

  const Problem& p_;
  Choice& choice_;
  double total_ = 0;
  std::vector<std::uint32_t> refs_;  // by class: chosen parents (and roots) using it
  std::vector<Index> pos_;           // by class: position in order_, kNone if not needed
  std::vector<Index> order_;         // the needed classes, children first
  bool positions_valid_ = false;     // pos_ describes the current choice
  std::vector<std::uint32_t> added_;     // by class: the move that made it needed
  std::vector<std::uint8_t> on_path_;    // by class: being expanded by the current move
  std::vector<std::uint32_t> ancestor_;  // by class: stamp_ when it reaches ancestors_of_
  std::uint32_t move_ = 0, stamp_ = 0;
  std::uint64_t version_ = 0, ancestors_version_ = 0;  // of the choice; of the ancestor marks
  Index ancestors_of_ = kNone;
  std::vector<Change> log_;
  std::vector<Index> added_list_, frontier_, release_;
  std::vector<Frame> stack_;
};

}  // namespace

ImproveStats improve_choice(const Problem& problem, Choice& choice, std::size_t max_passes) {
  LocalSearch search(problem, choice);
  return search.run(max_passes);
}

}  // namespace mctsat::extract
