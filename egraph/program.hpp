// Patterns compiled into programs for the matching machine (machine.hpp), in the style of egg's
// e-matching VM. Registers hold e-class ids; register 0 holds the candidate root class.
//
//   Bind r, op, payload, arity -> out   for each e-node of class r with this operator, payload and
//                                       arity: children into out..out+arity-1, run the rest
//   Compare a, b                        continue only if registers a and b hold the same class
//   CheckGround r, g                    continue only if register r holds ground term g's class
//   Yield                               emit the root and the variables' registers
//
// Checks of a Bind's children are emitted right after it, so that repeated variables and literal
// attributes prune the search before deeper Binds run.
#pragma once

#include <cstdint>
#include <vector>

#include "egraph/id.hpp"
#include "egraph/pattern.hpp"

namespace mctsat::egraph {

struct Instruction {
  enum class Kind : std::uint8_t { kBind, kCompare, kCheckGround, kYield };
  Kind kind = Kind::kYield;
  std::uint32_t in = 0;   // Bind: class register; Compare/CheckGround: first register
  std::uint32_t out = 0;  // Bind: first child register; Compare: second register; CheckGround: term
  std::uint32_t arity = 0;
  std::uint32_t depth = 0;  // Bind: its position among the program's Binds
  OpCode op = 0;
  std::int64_t payload = 0;
};

struct Program {
  std::vector<Instruction> instructions;
  std::uint32_t registers = 1;
  std::uint32_t binds = 0;
  bool root_is_var = false;
  OpCode root_op = 0;
  std::vector<std::uint32_t> ground_terms;  // pattern indices of ground subterms checked
  std::vector<std::pair<VarId, std::uint32_t>> var_registers;  // where each variable ends up
  std::vector<std::uint32_t> equality_registers;  // registers a Compare or CheckGround reads
  Pattern pattern;                                             // the source, for ground terms
};

Program compile(const Pattern& pattern);

}  // namespace mctsat::egraph
