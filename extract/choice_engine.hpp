// The state of an extraction under local moves, shared by the move policies of local_search.hpp
// and chain_moves.hpp: the choice (one node per class; classes outside the extraction keep a
// "default" node a move brings in when it needs them), a reference count per class (how many
// chosen parents, or roots, use it), the exact DAG cost, a height potential of the extracted DAG
// for cycle checks, and a log of every change, so that a move can be priced by making it and
// undone by reverting to a mark.
//
// A move is priced exactly with the counts: switching class c from node o to node m adds m's
// children (a class reaching 0 -> 1 is paid for and its chosen node's children added in turn) and
// then releases o's children (a class reaching 0 is refunded and its children released). A move
// that would make c reachable from itself is rejected: classes newly added by it are walked, and
// an already needed class is walked down through the classes above c in the height potential
// (kept valid through every change, and undone with it). With `acyclic_shortcut`, a problem where
// no candidate node reaches its own class through candidate nodes skips the cycle checks and the
// potential.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <vector>

#include "extract/dag_cost.hpp"
#include "extract/problem.hpp"

namespace mctsat::extract {

class ChoiceEngine {
 public:
  static constexpr std::size_t kUnlimited = std::numeric_limits<std::size_t>::max();

  // `choice` must be a valid extraction for the problem's roots; it is changed in place.
  ChoiceEngine(const Problem& problem, Choice& choice, bool acyclic_shortcut);

  const Problem& problem() const { return p_; }
  double total() const { return total_; }  // exact DAG cost of the current choice
  Index chosen(Index eclass) const { return choice_[eclass]; }
  std::uint32_t refs(Index eclass) const { return refs_[eclass]; }
  bool needed(Index eclass) const { return refs_[eclass] > 0; }
  bool acyclic() const { return acyclic_; }
  // The needed classes, children first, as of the last refresh.
  const std::vector<Index>& order() const { return order_; }
  // The classes the last apply() made needed, in the order they came in.
  const std::vector<Index>& added() const { return added_list_; }

  // Recomputes the order, the heights and the total from the choice when a change made them stale
  // (the cycle checks need them).
  void refresh_positions();
  // Re-chooses the classes outside the extraction by tree cost, counting the needed classes as
  // free: a move then brings in what best reuses the extraction.
  void refresh_defaults();

  // Switches `eclass` to `node` in the counts (not in the choice): adds the new node's children,
  // then releases the old node's. Returns the exact cost change, logged. Nullopt (nothing changed)
  // when impossible (a cycle, a class without a usable node) or abandoned: the cost added reaches
  // `abort_at` (counting `refund_bound` as the most releasing the old node can refund), or more
  // than `max_new` classes become needed.
  std::optional<double> apply(Index eclass, Index node,
                              double abort_at = std::numeric_limits<double>::infinity(),
                              std::size_t max_new = kUnlimited,
                              double refund_bound = std::numeric_limits<double>::infinity());
  // Releases a node's children, refunding (and releasing in turn) classes no longer needed;
  // returns the refund. Logged.
  double release(Index node);
  // Sets a class's node (its counts already switched by apply). Unless the positions are about
  // to be refreshed (`keep_heights` false), keeps the height potential valid by raising the class
  // above its new children; false (the caller then reverts the move) when that would take it to
  // or above one of its chosen parents. Logged.
  bool set_choice(Index eclass, Index node, bool keep_heights);
  // Sets the node a class outside the extraction brings in when a move needs it. Logged.
  void set_default(Index eclass, Index node);

  std::size_t mark() const { return log_.size(); }
  void revert_to(std::size_t mark);  // undoes every change logged since `mark`
  void commit(double delta);         // keeps the logged changes; the total moves by `delta`

 private:
  enum class Kind : std::uint8_t { kRefs, kChoice, kHeight };
  struct Change {
    Index eclass;
    Kind kind;
    std::int64_t value;  // kRefs: the change; kChoice, kHeight: the old value
  };
  struct Frame {
    Index eclass;
    std::uint32_t next_child;
  };
  static constexpr std::uint64_t kHeightSpacing = 1024;

  void refresh(const ChoiceCheck& check);
  void set_height(Index eclass, std::uint64_t height);
  bool reaches(Index eclass, Index target);
  std::optional<double> add(Index eclass, Index node, double base, double abort_at,
                            std::size_t max_new);

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
  std::vector<Index> added_list_, release_, walk_;
  std::vector<double> scratch_value_;
  std::vector<Frame> stack_;
};

}  // namespace mctsat::extract
