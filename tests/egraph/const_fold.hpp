// A constant-folding analysis over the test language (test_language.hpp), for the engine's tests:
// integer literals are constants, + and * of two constants fold, / of two constants folds when
// exact, and a division by the constant 0 is invalid (make() rejects it, so kMayReject is set).
// Leaves and every other operator are not constants. ConstFoldWithLiterals adds the `modify` hook:
// a class with a constant also receives the literal e-node of that constant.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "egraph/analysis.hpp"
#include "egraph/id.hpp"
#include "tests/egraph/test_language.hpp"

namespace eglang {

struct ConstFold {
  static constexpr bool kMayReject = true;
  struct Data {
    std::optional<std::int64_t> value;
    friend bool operator==(const Data&, const Data&) = default;
  };

  bool make(const mctsat::egraph::ENodeRef& node, std::span<const Data* const> children,
            Data& out) const {
    out = Data{};
    auto both = [&] { return children.size() == 2 && children[0]->value && children[1]->value; };
    switch (node.op) {
      case kNum:
        out.value = node.payload;
        return true;
      case kAdd:
        if (both()) out.value = *children[0]->value + *children[1]->value;
        return true;
      case kMul:
        if (both()) out.value = *children[0]->value * *children[1]->value;
        return true;
      case kDiv:
        if (children.size() == 2 && children[1]->value == 0) return false;
        if (both() && *children[0]->value % *children[1]->value == 0)
          out.value = *children[0]->value / *children[1]->value;
        return true;
      default:
        return true;
    }
  }

  // A known constant wins over an unknown one; two different constants keep `into`'s.
  mctsat::egraph::MergeResult merge(Data& into, const Data& from) const {
    if (into.value == from.value) return {false, false};
    if (!into.value) {
      into.value = from.value;
      return {true, false};
    }
    return {false, true};
  }
  // Two different constants are accepted (merge keeps one): the tests' rules are sound.
  bool can_merge(const Data&, const Data&) const { return true; }
};

struct ConstFoldWithLiterals : ConstFold {
  template <class G>
  void modify(G& egraph, mctsat::egraph::Id eclass) const {
    const std::optional<std::int64_t> value = egraph.data(eclass).value;  // a copy: add() may grow
    if (!value) return;
    egraph.merge(eclass, egraph.add(kNum, *value));
  }
};

}  // namespace eglang
