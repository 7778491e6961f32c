// The exact DAG cost of a choice, by one iterative depth-first walk from the roots.
#include "extract/dag_cost.hpp"

#include <cstdint>

#include <fmt/format.h>

namespace mctsat::extract {
namespace {

std::string class_name(const Problem& problem, Index eclass) {
  if (problem.class_source(eclass) == kNoId) return fmt::format("class {}", eclass);
  return fmt::format("class {} (e-class {})", eclass, problem.class_source(eclass));
}

}  // namespace

ChoiceCheck check_choice(const Problem& problem, const Choice& choice,
                         std::span<const Index> roots) {
  ChoiceCheck check;
  const std::size_t classes = problem.num_classes();
  if (choice.size() != classes) {
    check.error = fmt::format("the choice has {} entries for a problem of {} classes",
                              choice.size(), classes);
    return check;
  }
  enum : std::uint8_t { kUnvisited, kActive, kDone };
  std::vector<std::uint8_t> state(classes, kUnvisited);
  struct Frame {
    Index eclass;
    std::uint32_t next_child;
  };
  std::vector<Frame> stack;
  double total = 0;

  // Enters a class: validates its chosen node; false (with check.error) when it is not valid.
  auto enter = [&](Index eclass) {
    const Index node = choice[eclass];
    if (node == kNone) {
      check.error = fmt::format("{} is needed but has no chosen node", class_name(problem, eclass));
      return false;
    }
    if (node >= problem.num_nodes() || problem.node_class(node) != eclass) {
      check.error = fmt::format("the node chosen for {} ({}) is not one of its nodes",
                                class_name(problem, eclass), node);
      return false;
    }
    if (problem.forbidden(node)) {
      check.error = fmt::format("{} is forbidden (blacklisted or of infinite cost)",
                                problem.describe_node(node));
      return false;
    }
    state[eclass] = kActive;
    stack.push_back({eclass, 0});
    return true;
  };

  for (Index root : roots) {
    if (root >= classes) {
      check.error = fmt::format("root class {} does not exist", root);
      return check;
    }
    if (state[root] == kDone) continue;
    if (!enter(root)) return check;
    while (!stack.empty()) {
      Frame& top = stack.back();
      const Index node = choice[top.eclass];
      const std::span<const Index> children = problem.unique_children(node);
      if (top.next_child == children.size()) {
        state[top.eclass] = kDone;
        total += problem.node_cost(node);
        check.order.push_back(top.eclass);
        stack.pop_back();
        continue;
      }
      const Index child = children[top.next_child++];
      if (state[child] == kDone) continue;
      if (state[child] == kActive) {
        std::string cycle;
        bool on_cycle = false;
        for (const Frame& frame : stack) {
          on_cycle = on_cycle || frame.eclass == child;
          if (on_cycle) cycle += fmt::format("{} -> ", frame.eclass);
        }
        check.error = fmt::format("the choice is cyclic: classes {}{}", cycle, child);
        return check;
      }
      if (!enter(child)) return check;
    }
  }
  check.valid = true;
  check.cost = total;
  return check;
}

double dag_cost(const Problem& problem, const Choice& choice, std::span<const Index> roots) {
  ChoiceCheck check = check_choice(problem, choice, roots);
  if (!check.valid) throw InvalidChoice("invalid extraction: " + check.error);
  return check.cost;
}

Choice needed_choice(const Problem& problem, const Choice& choice, std::span<const Index> roots) {
  const ChoiceCheck check = check_choice(problem, choice, roots);
  if (!check.valid) throw InvalidChoice("invalid extraction: " + check.error);
  Choice needed(problem.num_classes(), kNone);
  for (Index eclass : check.order) needed[eclass] = choice[eclass];
  return needed;
}

}  // namespace mctsat::extract
