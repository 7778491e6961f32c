// The analysis API: per e-class data computed from e-nodes (`make`), combined when e-classes merge
// (`merge`), and an optional hook run when a class's data is created or changes (`modify`).
//
//   struct MyAnalysis {
//     static constexpr bool kMayReject = true;  // make() can return false
//     using Data = ...;
//     // Data of an e-node from its content and its children's data; false when the e-node is
//     // invalid (e.g. ill-shaped), in which case it must not be added.
//     bool make(const ENodeRef& node, std::span<const Data* const> children, Data& out) const;
//     // Merges `from` into `into` and says which side differs from the merged result.
//     MergeResult merge(Data& into, const Data& from) const;
//     // With kMayReject: whether two classes' data may be united at all. A rewrite whose
//     // right-hand root could not be united with its matched class (an unsound rule, e.g. one
//     // that changes a shape) is rejected like an invalid right-hand side.
//     bool can_merge(const Data& a, const Data& b) const;
//     // Optional: template <class G> void modify(G& egraph, Id eclass) const;
//     // Optional: a hash of Data consistent with its operator== (grouping matches by their
//     // classes' data; without it, groups are found by comparing data only).
//     std::uint64_t hash(const Data& data) const;
//   };
//
// `make` takes the children's data rather than their ids so that a right-hand side can be checked
// before any of its e-nodes is added.
#pragma once

#include <concepts>
#include <cstdint>
#include <span>

#include "egraph/id.hpp"

namespace mctsat::egraph {

struct MergeResult {
  bool into_changed = false;
  bool from_changed = false;
};

// The analysis of an e-graph that needs none (e.g. the associativity/commutativity benchmark).
struct NoAnalysis {
  static constexpr bool kMayReject = false;  // make() accepts every e-node: no dry runs needed
  struct Data {
    friend bool operator==(const Data&, const Data&) = default;
  };
  bool make(const ENodeRef&, std::span<const Data* const>, Data&) const { return true; }
  MergeResult merge(Data&, const Data&) const { return {}; }
};

template <class A>
concept HasDataHash = requires(const A& analysis, const typename A::Data& data) {
  { analysis.hash(data) } -> std::convertible_to<std::uint64_t>;
};

template <class A, class G>
concept HasModify = requires(const A& analysis, G& egraph, Id id) {
  analysis.modify(egraph, id);
};

}  // namespace mctsat::egraph
