// The matching machine: runs a compiled pattern program (program.hpp) over a clean e-graph and
// collects substitutions. Candidate roots come from the e-graph's per-operator class index; a
// match limit bounds the work of one search.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <vector>

#include "egraph/egraph.hpp"
#include "egraph/huge_pages.hpp"
#include "egraph/program.hpp"

namespace mctsat::egraph {

// Matches of one pattern (or joined matches of a multi-pattern rule): per match, the root class of
// each source pattern and one class per rule variable (kNoId for variables no pattern mentions).
struct Matches {
  std::uint32_t num_vars = 0;
  std::uint32_t num_roots = 1;  // source patterns per match
  BigVector<Id> roots;          // size() * num_roots
  BigVector<Id> substs;         // size() * num_vars
  std::size_t skipped = 0;      // matches left out as already applied (see Machine's skip_before)

  std::size_t size() const { return roots.size() / num_roots; }
  std::span<const Id> roots_of(std::size_t i) const {
    return {roots.data() + i * num_roots, num_roots};
  }
  std::span<const Id> subst(std::size_t i) const {
    return {substs.data() + i * num_vars, num_vars};
  }
  void clear() {
    roots.clear();
    substs.clear();
    skipped = 0;
  }
};

// The class of a ground pattern subterm, if the e-graph holds it.
template <class Analysis>
std::optional<Id> lookup_ground(const EGraph<Analysis>& egraph, const Pattern& pattern,
                                std::uint32_t index) {
  const PatternNode& node = pattern.nodes()[index];
  typename EGraph<Analysis>::ChildIds children;
  for (std::uint32_t child : node.children) {
    const auto id = lookup_ground(egraph, pattern, child);
    if (!id) return std::nullopt;
    children.push_back(*id);
  }
  return egraph.lookup(node.op, node.payload, id_span(children));
}

template <class Analysis>
class Machine {
 public:
  // Matches built only from e-nodes stamped before `skip_before`, whose compared classes did not
  // merge since, and (with `check_data`) whose variables' classes kept their data since then are
  // counted in `skipped` instead of emitted;
  // 0 emits everything. Patterns rooted at a variable bind no e-node and are never skipped.
  Machine(const EGraph<Analysis>& egraph, const Program& program, Matches& out, std::size_t limit,
          std::uint32_t skip_before = 0, bool check_data = false)
      : egraph_(egraph),
        program_(program),
        out_(out),
        limit_(limit),
        skip_before_(program.root_is_var ? 0 : skip_before),
        check_data_(check_data),
        registers_(program.registers, kNoId),
        bound_stamps_(program.binds, 0),
        var_register_(out.num_vars, kNoRegister) {
    for (const auto& [var, reg] : program.var_registers) var_register_[var] = reg;
  }

  // Appends the matches of the program rooted anywhere in the e-graph; stops at the limit.
  void search_all() {
    ground_.clear();
    for (std::uint32_t term : program_.ground_terms) {
      const auto id = lookup_ground(egraph_, program_.pattern, term);
      if (!id) return;  // a ground subterm the e-graph lacks: nothing can match
      ground_.push_back(*id);
    }
    const std::span<const Id> candidates =
        program_.root_is_var ? egraph_.classes() : egraph_.classes_with_op(program_.root_op);
    for (Id eclass : candidates) {
      registers_[0] = eclass;
      if (!run(0)) return;
    }
  }

 private:
  // Runs from instruction pc; false once the match limit is reached.
  bool run(std::size_t pc) {
    const Instruction& ins = program_.instructions[pc];
    switch (ins.kind) {
      case Instruction::Kind::kBind:
        for (const auto& e : egraph_.indexed_nodes_of(registers_[ins.in], ins.op)) {
          if (e.payload != ins.payload || e.arity != ins.arity) continue;
          const std::span<const Id> children = egraph_.children(e);
          std::copy(children.begin(), children.end(), registers_.begin() + ins.out);
          bound_stamps_[ins.depth] = e.stamp;
          if (!run(pc + 1)) return false;
        }
        return true;
      case Instruction::Kind::kCompare:
        return registers_[ins.in] != registers_[ins.out] || run(pc + 1);
      case Instruction::Kind::kCheckGround:
        return registers_[ins.in] != ground_[ins.out] || run(pc + 1);
      case Instruction::Kind::kYield:
        if (out_.size() >= limit_) return false;
        if (already_applied()) {
          ++out_.skipped;
          return true;
        }
        out_.roots.push_back(registers_[0]);
        for (const std::uint32_t reg : var_register_)
          out_.substs.push_back(reg == kNoRegister ? kNoId : registers_[reg]);
        return out_.size() < limit_;
    }
    return true;
  }

  bool already_applied() const {
    if (skip_before_ == 0) return false;
    for (std::uint32_t stamp : bound_stamps_) {
      if (stamp >= skip_before_) return false;
    }
    for (std::uint32_t reg : program_.equality_registers) {
      if (egraph_.merge_stamp(registers_[reg]) >= skip_before_) return false;
    }
    if (check_data_) {
      for (const auto& [var, reg] : program_.var_registers) {
        if (egraph_.data_stamp(registers_[reg]) >= skip_before_) return false;
      }
    }
    return true;
  }

  const EGraph<Analysis>& egraph_;
  const Program& program_;
  Matches& out_;
  std::size_t limit_;
  std::uint32_t skip_before_;
  bool check_data_;
  static constexpr std::uint32_t kNoRegister = ~std::uint32_t{0};
  std::vector<Id> registers_;
  std::vector<std::uint32_t> bound_stamps_;  // the stamp of the e-node each Bind chose, by depth
  std::vector<std::uint32_t> var_register_;  // by variable: its register, or kNoRegister
  std::vector<Id> ground_;
};

// All matches of a program, up to `limit`, into `out` (replacing its contents; its buffers are
// reused, so a caller searching every iteration keeps them warm).
template <class Analysis>
void search_into(const EGraph<Analysis>& egraph, const Program& program, std::uint32_t num_vars,
                 Matches& out, std::size_t limit = std::numeric_limits<std::size_t>::max(),
                 std::uint32_t skip_before = 0, bool check_data = false) {
  out.clear();
  out.num_vars = num_vars;
  out.num_roots = 1;
  Machine<Analysis>(egraph, program, out, limit, skip_before, check_data).search_all();
}

// Convenience: all matches of a program, up to `limit`.
template <class Analysis>
Matches search(const EGraph<Analysis>& egraph, const Program& program, std::uint32_t num_vars,
               std::size_t limit = std::numeric_limits<std::size_t>::max(),
               std::uint32_t skip_before = 0, bool check_data = false) {
  Matches matches;
  search_into(egraph, program, num_vars, matches, limit, skip_before, check_data);
  return matches;
}

}  // namespace mctsat::egraph
