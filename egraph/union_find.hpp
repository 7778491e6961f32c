// Union-find over dense ids: a flat parent array with path halving. Unions are decided by the
// caller (the e-graph picks which class survives).
#pragma once

#include <vector>

#include "egraph/huge_pages.hpp"
#include "egraph/id.hpp"

namespace mctsat::egraph {

class UnionFind {
 public:
  Id make_set() {
    parent_.push_back(static_cast<Id>(parent_.size()));
    return static_cast<Id>(parent_.size() - 1);
  }
  std::size_t size() const { return parent_.size(); }

  // The representative, without changing the structure (safe for concurrent readers).
  Id find(Id id) const {
    while (parent_[id] != id) id = parent_[id];
    return id;
  }
  // The representative, halving the path on the way.
  Id find_compress(Id id) {
    while (parent_[id] != id) {
      parent_[id] = parent_[parent_[id]];
      id = parent_[id];
    }
    return id;
  }
  // Makes `root` the representative of `child`'s set; both must be representatives.
  void link(Id child, Id root) { parent_[child] = root; }
  bool is_root(Id id) const { return parent_[id] == id; }

  // Points every id straight at its representative (so later finds are one step).
  void flatten() {
    for (Id id = 0; id < parent_.size(); ++id) parent_[id] = find(id);
  }

 private:
  GrowVector<Id> parent_;
};

}  // namespace mctsat::egraph
