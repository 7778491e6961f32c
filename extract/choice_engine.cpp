// The incremental extraction state behind the local moves (see choice_engine.hpp).
#include "extract/choice_engine.hpp"

#include <algorithm>
#include <cmath>

#include "extract/fixpoint.hpp"

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

}  // namespace

ChoiceEngine::ChoiceEngine(const Problem& problem, Choice& choice, bool acyclic_shortcut)
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

void ChoiceEngine::refresh_positions() {
  if (!positions_valid_) refresh(check_choice(p_, choice_));
}

void ChoiceEngine::refresh(const ChoiceCheck& check) {
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

void ChoiceEngine::refresh_defaults() {
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

void ChoiceEngine::commit(double delta) {
  log_.clear();
  total_ += delta;
  positions_valid_ = false;
  ++version_;
}

bool ChoiceEngine::set_choice(Index eclass, Index node, bool keep_heights) {
  std::uint64_t height = 0;
  keep_heights = keep_heights && !acyclic_;
  if (keep_heights) {
    for (Index child : p_.unique_children(node)) height = std::max(height, height_[child] + 1);
    if (height > height_[eclass]) {
      for (Index parent : p_.parents(eclass)) {
        const Index owner = p_.node_class(parent);
        if (refs_[owner] > 0 && choice_[owner] == parent && height_[owner] <= height) return false;
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

void ChoiceEngine::set_height(Index eclass, std::uint64_t height) {
  log_.push_back({eclass, Kind::kHeight, static_cast<std::int64_t>(height_[eclass])});
  height_[eclass] = height;
}

void ChoiceEngine::revert_to(std::size_t mark) {
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
bool ChoiceEngine::reaches(Index eclass, Index target) {
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

double ChoiceEngine::release(Index node) {
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
std::optional<double> ChoiceEngine::add(Index eclass, Index node, double base, double abort_at,
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

std::optional<double> ChoiceEngine::apply(Index eclass, Index node, double abort_at,
                                          std::size_t max_new, double refund_bound) {
  const Index old = choice_[eclass];
  const std::optional<double> added =
      add(eclass, node, -p_.node_cost(old) - refund_bound, abort_at, max_new);
  if (!added) return std::nullopt;
  return *added - p_.node_cost(old) - release(old);
}

void ChoiceEngine::set_default(Index eclass, Index node) {
  MCTSAT_ASSERT(refs_[eclass] == 0);
  log_.push_back({eclass, Kind::kChoice, static_cast<std::int64_t>(choice_[eclass])});
  choice_[eclass] = node;
  ++version_;
}

}  // namespace mctsat::extract
