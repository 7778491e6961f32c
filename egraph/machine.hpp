// The matching machine: runs a compiled pattern program (program.hpp) over a clean e-graph and
// collects substitutions. Candidate roots come from the e-graph's per-operator class index; a
// match limit bounds the work of one search.
#pragma once

#include <algorithm>
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
  // With `root_moves_free` (the rule's applier does not depend on the root class beyond merging
  // into it: no binders reading the roots, no analysis that may reject the merge), the root e-node
  // counts by its content stamp only: if it merely joined another class since, the match repeats
  // one already applied, whose right-hand side is in the root's class already (classes only grow).
  Machine(const EGraph<Analysis>& egraph, const Program& program, Matches& out, std::size_t limit,
          std::uint32_t skip_before = 0, bool check_data = false, bool root_moves_free = false)
      : egraph_(egraph),
        program_(program),
        out_(out),
        limit_(limit),
        skip_before_(program.root_is_var ? 0 : skip_before),
        check_data_(check_data),
        root_moves_free_(root_moves_free),
        simple_skip_(program.equality_registers.empty() && !check_data),
        registers_(program.registers, kNoId),
        bound_stamps_(program.binds, 0),
        var_register_(out.num_vars, kNoRegister),
        emitted_(out.size()) {
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
      case Instruction::Kind::kBind: {
        // A Bind right before the Yield whose earlier Binds chose old e-nodes, in a program with
        // no other skip conditions (compared registers, class data): each old e-node it chooses
        // completes an already applied match, counted here without running the Yield.
        const bool count_old = skip_before_ != 0 && simple_skip_ &&
                               program_.instructions[pc + 1].kind == Instruction::Kind::kYield &&
                               std::all_of(bound_stamps_.begin(), bound_stamps_.begin() + ins.depth,
                                           [&](std::uint32_t s) { return s < skip_before_; });
        const bool root = ins.depth == 0 && root_moves_free_;
        for (const auto& e : egraph_.indexed_nodes_of(registers_[ins.in], ins.op)) {
          if (e.payload != ins.payload || e.arity != ins.arity) continue;
          const std::uint32_t stamp = root ? e.content_stamp : e.stamp;
          if (count_old && stamp < skip_before_) {
            if (emitted_ >= limit_) return false;  // as the Yield would
            ++out_.skipped;
            continue;
          }
          if (e.arity <= 2) {
            // Inline children: two plain stores (std::copy would call memmove per e-node).
            Id* const out = registers_.data() + ins.out;
            if (e.arity > 0) out[0] = e.children[0];
            if (e.arity > 1) out[1] = e.children[1];
          } else {
            const std::span<const Id> children = egraph_.children(e);
            std::copy(children.begin(), children.end(), registers_.begin() + ins.out);
          }
          bound_stamps_[ins.depth] = stamp;
          if (!run(pc + 1)) return false;
        }
        return true;
      }
      case Instruction::Kind::kCompare:
        return registers_[ins.in] != registers_[ins.out] || run(pc + 1);
      case Instruction::Kind::kCheckGround:
        return registers_[ins.in] != ground_[ins.out] || run(pc + 1);
      case Instruction::Kind::kYield:
        // `emitted_` mirrors out_.size() (which divides by the number of roots).
        if (emitted_ >= limit_) return false;
        if (already_applied()) {
          ++out_.skipped;
          return true;
        }
        out_.roots.push_back(registers_[0]);
        for (const std::uint32_t reg : var_register_)
          out_.substs.push_back(reg == kNoRegister ? kNoId : registers_[reg]);
        return ++emitted_ < limit_;
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
  bool root_moves_free_;
  bool simple_skip_;  // already_applied() reads only the Binds' stamps
  static constexpr std::uint32_t kNoRegister = ~std::uint32_t{0};
  std::vector<Id> registers_;
  std::vector<std::uint32_t> bound_stamps_;  // the stamp of the e-node each Bind chose, by depth
  std::vector<std::uint32_t> var_register_;  // by variable: its register, or kNoRegister
  std::vector<Id> ground_;
  std::size_t emitted_;  // out_.size()
};

// All matches of a program, up to `limit`, into `out` (replacing its contents; its buffers are
// reused, so a caller searching every iteration keeps them warm).
template <class Analysis>
void search_into(const EGraph<Analysis>& egraph, const Program& program, std::uint32_t num_vars,
                 Matches& out, std::size_t limit = std::numeric_limits<std::size_t>::max(),
                 std::uint32_t skip_before = 0, bool check_data = false,
                 bool root_moves_free = false) {
  out.clear();
  out.num_vars = num_vars;
  out.num_roots = 1;
  // Without an e-node of the root's operator nothing matches (many rules of a large set, in a
  // small e-graph): no machine to set up, no ground subterm to look up.
  if (!program.root_is_var && egraph.classes_with_op(program.root_op).empty()) return;
  Machine<Analysis>(egraph, program, out, limit, skip_before, check_data, root_moves_free)
      .search_all();
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
