// Choice repair: classify the chosen subgraphs, then re-choose the broken classes bottom-up.
#include "extract/acyclic_repair.hpp"

#include <cstdint>
#include <limits>
#include <vector>

#include "extract/fixpoint.hpp"

namespace mctsat::extract {

std::size_t repair_choice(const Problem& problem, Choice& choice) {
  const std::size_t classes = problem.num_classes();
  MCTSAT_ASSERT(choice.size() == classes);
  enum : std::uint8_t { kUnvisited, kActive, kGood, kBad };
  std::vector<std::uint8_t> state(classes, kUnvisited);
  auto usable = [&](Index eclass) {
    const Index node = choice[eclass];
    return node != kNone && node < problem.num_nodes() && problem.node_class(node) == eclass &&
           !problem.forbidden(node);
  };
  struct Frame {
    Index eclass;
    std::uint32_t next_child;
    bool bad;
  };
  std::vector<Frame> stack;
  // A class is good when its node is usable and every child class is good; a child still on the
  // walk's path closes a cycle and makes it bad.
  for (Index start = 0; start < classes; ++start) {
    if (state[start] != kUnvisited) continue;
    if (!usable(start)) {
      state[start] = kBad;
      continue;
    }
    state[start] = kActive;
    stack.push_back({start, 0, false});
    while (!stack.empty()) {
      Frame& top = stack.back();
      const std::span<const Index> children = problem.unique_children(choice[top.eclass]);
      if (top.next_child == children.size()) {
        state[top.eclass] = top.bad ? kBad : kGood;
        const bool bad = top.bad;
        stack.pop_back();
        if (bad && !stack.empty()) stack.back().bad = true;
        continue;
      }
      const Index child = children[top.next_child++];
      if (state[child] == kGood) continue;
      if (state[child] == kBad || state[child] == kActive) {
        top.bad = true;
        continue;
      }
      if (!usable(child)) {
        state[child] = kBad;
        top.bad = true;
        continue;
      }
      state[child] = kActive;
      stack.push_back({child, 0, false});
    }
  }

  std::size_t broken = 0;
  std::vector<double> value(classes, std::numeric_limits<double>::infinity());
  for (Index eclass = 0; eclass < classes; ++eclass) {
    if (state[eclass] == kGood) {
      value[eclass] = 0;
    } else {
      broken += choice[eclass] != kNone ? 1 : 0;
      choice[eclass] = kNone;
    }
  }
  if (broken == 0) return 0;
  bottom_up_fixpoint(
      problem, value, choice,
      [&](Index node) {
        double sum = problem.node_cost(node);
        for (Index child : problem.children(node)) sum += value[child];
        return sum;
      },
      [](Index, double) {});
  return broken;
}

}  // namespace mctsat::extract
