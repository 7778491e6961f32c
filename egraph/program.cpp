// The pattern compiler: breadth-first over the pattern, one Bind per operator node, with the
// checks of each Bind's children right after it.
#include "egraph/program.hpp"

#include <deque>

#include "support/error.hpp"

namespace mctsat::egraph {

Program compile(const Pattern& pattern) {
  MCTSAT_ASSERT(!pattern.empty());
  Program program;
  program.pattern = pattern;
  const auto nodes = pattern.nodes();
  const PatternNode& root = nodes[pattern.root()];
  auto register_of = [&](VarId v) -> const std::uint32_t* {
    for (const auto& [var, reg] : program.var_registers) {
      if (var == v) return &reg;
    }
    return nullptr;
  };

  if (root.is_var) {
    program.root_is_var = true;
    program.var_registers.push_back({root.var, 0});
    program.instructions.push_back({Instruction::Kind::kYield});
    return program;
  }
  program.root_op = root.op;
  std::deque<std::pair<std::uint32_t, std::uint32_t>> work{
      {pattern.root(), 0}};  // (pattern node, register)
  while (!work.empty()) {
    const auto [index, reg] = work.front();
    work.pop_front();
    const PatternNode& node = nodes[index];
    const std::uint32_t first_child = program.registers;
    const auto arity = static_cast<std::uint32_t>(node.children.size());
    program.registers += arity;
    program.instructions.push_back({Instruction::Kind::kBind, reg, first_child, arity,
                                    program.binds++, node.op, node.payload});
    for (std::uint32_t i = 0; i < arity; ++i) {
      const std::uint32_t child = node.children[i];
      const std::uint32_t child_reg = first_child + i;
      const PatternNode& c = nodes[child];
      if (c.is_var) {
        if (const std::uint32_t* bound = register_of(c.var)) {
          program.instructions.push_back(
              {Instruction::Kind::kCompare, child_reg, *bound, 0, 0, 0, 0});
          program.equality_registers.push_back(child_reg);
          program.equality_registers.push_back(*bound);
        } else {
          program.var_registers.push_back({c.var, child_reg});
        }
      } else if (pattern.ground(child)) {
        program.instructions.push_back({Instruction::Kind::kCheckGround, child_reg,
                                        static_cast<std::uint32_t>(program.ground_terms.size()), 0,
                                        0, 0, 0});
        program.ground_terms.push_back(child);
        program.equality_registers.push_back(child_reg);
      } else {
        work.push_back({child, child_reg});
      }
    }
  }
  program.instructions.push_back({Instruction::Kind::kYield});
  return program;
}

}  // namespace mctsat::egraph
