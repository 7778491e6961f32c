// The e-graph: e-nodes in contiguous arrays, a union-find over dense ids, a hashcons, per-class
// parent lists and analysis data, with egg-style deferred rebuilding. After `rebuild()` the graph
// is clean: every live e-node is canonical and unique, analysis data is up to date, and the
// indexes used by matching (each class's e-nodes sorted by operator, the classes holding each
// operator) are current. Every member is a flat array, so copying an e-graph (an MCTS snapshot)
// is a handful of memory copies.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include <boost/container/small_vector.hpp>

#include "egraph/analysis.hpp"
#include "egraph/hashcons.hpp"
#include "egraph/id.hpp"
#include "egraph/node_store.hpp"
#include "egraph/union_find.hpp"
#include "support/error.hpp"

namespace mctsat::egraph {

template <class Analysis>
class EGraph {
 public:
  using Data = typename Analysis::Data;
  using ChildIds = boost::container::small_vector<Id, 8>;
  static constexpr OpCode kMaxOpCode = OpCode{1} << 24;

  explicit EGraph(Analysis analysis = {}) : analysis_(std::move(analysis)) {}

  // Adds an e-node (children are canonicalized) and returns its e-class; an existing equal e-node
  // returns its class. The analysis must accept the e-node (check with `make_data` first when in
  // doubt).
  Id add(OpCode op, std::int64_t payload, std::span<const Id> children) {
    MCTSAT_ASSERT(op < kMaxOpCode && "operator codes index a dense table: keep them small");
    ChildIds canonical(children.size());
    for (std::size_t i = 0; i < children.size(); ++i) canonical[i] = uf_.find_compress(children[i]);
    const std::uint64_t hash = hash_enode(op, payload, id_span(canonical));
    if (const Id existing = hashcons_.find(nodes_, op, payload, id_span(canonical), hash);
        existing != kNoId)
      return uf_.find_compress(existing);

    Data data{};
    const bool valid = make_data_of_classes(ENodeRef{op, payload, id_span(canonical)}, data);
    MCTSAT_ASSERT(valid && "the analysis rejects an e-node that was added");
    const Id node = nodes_.push(op, payload, id_span(canonical));
    MCTSAT_ASSERT(uf_.make_set() == node);
    classes_.push_back({});
    data_.push_back(std::move(data));
    node_stamps_.push_back(epoch_);
    node_classes_.push_back(node);
    data_stamps_.push_back(epoch_);
    merge_stamps_.push_back(epoch_);
    blacklist_.push_back(0);
    hashcons_.insert(node, nodes_.get(node), hash);
    for (Id child : canonical) add_parent(child, node);
    ++live_nodes_;
    clean_ = false;
    if constexpr (HasModify<Analysis, EGraph>) analysis_.modify(*this, node);
    return node;
  }
  Id add(OpCode op, std::int64_t payload = 0, std::initializer_list<Id> children = {}) {
    return add(op, payload, std::span<const Id>(children.begin(), children.size()));
  }

  // The class of an existing e-node with this content, if any.
  std::optional<Id> lookup(OpCode op, std::int64_t payload, std::span<const Id> children) const {
    ChildIds canonical(children.size());
    for (std::size_t i = 0; i < children.size(); ++i) canonical[i] = uf_.find(children[i]);
    const Id existing = hashcons_.find(nodes_, op, payload, id_span(canonical),
                                       hash_enode(op, payload, id_span(canonical)));
    if (existing == kNoId) return std::nullopt;
    return uf_.find(existing);
  }

  // A hint that `add` or `lookup` of this content follows soon: starts loading the hashcons slot it
  // will probe first, so that a batch of lookups overlaps its cache misses. Changes nothing.
  void prefetch(OpCode op, std::int64_t payload, std::span<const Id> children) const {
    ChildIds canonical(children.size());
    for (std::size_t i = 0; i < children.size(); ++i) canonical[i] = uf_.find(children[i]);
    hashcons_.prefetch(hash_enode(op, payload, id_span(canonical)));
  }

  // Unites two classes; returns false when they already were one. The class with more parents
  // survives; the other's parents are queued for repair by rebuild().
  bool merge(Id a, Id b) {
    a = uf_.find_compress(a);
    b = uf_.find_compress(b);
    if (a == b) return false;
    if (classes_[a].parent_count < classes_[b].parent_count) std::swap(a, b);
    for_each_parent(b, [&](Id parent) { pending_.push_back(parent); });
    const MergeResult changed = analysis_.merge(data_[a], data_[b]);
    if (changed.into_changed)
      for_each_parent(a, [&](Id parent) { analysis_pending_.push_back(parent); });
    if (changed.from_changed)
      for_each_parent(b, [&](Id parent) { analysis_pending_.push_back(parent); });
    if (changed.into_changed) data_stamps_[a] = epoch_;
    merge_stamps_[a] = epoch_;
    splice_parents(b, a);
    uf_.link(b, a);
    ++unions_;
    clean_ = false;
    if constexpr (HasModify<Analysis, EGraph>) analysis_.modify(*this, a);
    return true;
  }

  // Restores the invariants: congruence closure, canonical unique e-nodes, analysis data, indexes.
  // A clean e-graph (nothing added or merged since the last rebuild) is left as it is, so
  // rebuilding an unchanged snapshot costs nothing.
  void rebuild() {
    if (clean_) return;
    while (!pending_.empty() || !analysis_pending_.empty()) {
      while (!pending_.empty()) {
        prefetch_pending();
        const Id node = pending_.back();
        pending_.pop_back();
        repair(node);
      }
      while (!analysis_pending_.empty()) {
        const Id node = analysis_pending_.back();
        analysis_pending_.pop_back();
        if (nodes_.live(node)) propagate(node);
      }
    }
    rebuild_indexes();
    clean_ = true;
  }

  bool clean() const { return clean_; }

  // Change stamps, for semi-naive matching: every e-node records the epoch in which it was added
  // or its children last changed, every class the epoch its analysis data last changed. The
  // runner advances the epoch once per iteration; a match built only from e-nodes (and, where
  // conditions read them, class data) older than a rule's last complete search was already found
  // and applied by it.
  void set_epoch(std::uint32_t epoch) { epoch_ = epoch; }
  std::uint32_t epoch() const { return epoch_; }
  // An e-node's stamp also moves when it joins another class by a merge (its class lost the
  // union), since it may then complete new matches with the winner's parents.
  std::uint32_t node_stamp(Id node) const { return node_stamps_[node]; }
  std::uint32_t data_stamp(Id eclass) const { return data_stamps_[uf_.find(eclass)]; }
  // The epoch in which another class last merged into this one (for matches whose repeated
  // variables or literal subterms became equal by the merge).
  std::uint32_t merge_stamp(Id eclass) const { return merge_stamps_[uf_.find(eclass)]; }
  Id find(Id id) const { return uf_.find(id); }
  std::size_t num_nodes() const { return live_nodes_; }
  std::size_t num_classes() const { return uf_.size() - unions_; }
  std::size_t num_ids() const { return uf_.size(); }

  ENodeRef node(Id node) const { return nodes_.get(node); }
  bool live(Id node) const { return nodes_.live(node); }

  // The blacklist: e-nodes extraction must never pick (e.g. the newest e-node of each cycle, see
  // cycles.hpp), one flag per e-node id. Matching still sees them; rebuilding and copying keep it.
  bool blacklisted(Id node) const { return blacklist_[node] != 0; }
  void blacklist(Id node) {
    if (blacklist_[node] == 0) ++blacklisted_nodes_;
    blacklist_[node] = 1;
  }
  std::size_t num_blacklisted() const { return blacklisted_nodes_; }
  const Data& data(Id eclass) const { return data_[uf_.find(eclass)]; }
  Data& data_mut(Id eclass) { return data_[uf_.find_compress(eclass)]; }
  const Analysis& analysis() const { return analysis_; }

  // Indexes, valid while clean: the canonical classes in id order; a class's live e-nodes sorted
  // by (operator, payload, id); the classes holding at least one e-node of an operator.
  std::span<const Id> classes() const {
    MCTSAT_ASSERT(clean_);
    return class_ids_;
  }
  std::span<const Id> nodes_of(Id eclass) const {
    MCTSAT_ASSERT(clean_);
    const ClassInfo& info = classes_[eclass];
    return {class_nodes_.data() + info.node_begin, info.node_count};
  }
  std::span<const Id> nodes_of(Id eclass, OpCode op) const {
    const std::span<const Id> all = nodes_of(eclass);
    const auto first = std::lower_bound(all.begin(), all.end(), op,
                                        [&](Id n, OpCode o) { return nodes_.op(n) < o; });
    auto last = first;
    while (last != all.end() && nodes_.op(*last) == op) ++last;
    return {first, last};
  }
  std::span<const Id> classes_with_op(OpCode op) const {
    MCTSAT_ASSERT(clean_);
    if (op >= op_class_begin_.size() - 1) return {};
    return {op_classes_.data() + op_class_begin_[op], op_classes_.data() + op_class_begin_[op + 1]};
  }
  // Live e-nodes whose children include a member of `eclass` (valid while clean).
  template <class F>
  void for_each_parent(Id eclass, F&& visit) const {
    for (std::uint32_t link = classes_[eclass].parent_head; link != kNoLink;
         link = parent_links_[link].next)
      visit(parent_links_[link].node);
  }

  // The analysis data an e-node would have, from its children's classes; false if invalid.
  bool make_data_of_classes(const ENodeRef& node, Data& out) const {
    boost::container::small_vector<const Data*, 8> child_data;
    for (Id child : node.children) child_data.push_back(&data_[uf_.find(child)]);
    return analysis_.make(node, std::span<const Data* const>(child_data.data(), child_data.size()),
                          out);
  }

  std::size_t memory_bytes() const {
    return nodes_.memory_bytes() + hashcons_.memory_bytes() + uf_.size() * sizeof(Id) +
           classes_.capacity() * sizeof(ClassInfo) + data_.capacity() * sizeof(Data) +
           parent_links_.capacity() * sizeof(ParentLink) +
           (node_stamps_.capacity() + data_stamps_.capacity() + merge_stamps_.capacity() +
            node_classes_.capacity()) *
               sizeof(std::uint32_t) +
           blacklist_.capacity() * sizeof(std::uint8_t) +
           (class_ids_.capacity() + class_nodes_.capacity() + op_classes_.capacity()) * sizeof(Id) +
           op_class_begin_.capacity() * sizeof(std::uint32_t);
  }

 private:
  static constexpr std::uint32_t kNoLink = 0xffffffffu;
  struct ClassInfo {
    std::uint32_t parent_head = kNoLink, parent_tail = kNoLink, parent_count = 0;
    std::uint32_t node_begin = 0, node_count = 0;
  };
  struct ParentLink {
    Id node;
    std::uint32_t next;
  };

  void add_parent(Id eclass, Id parent) {
    const auto link = static_cast<std::uint32_t>(parent_links_.size());
    parent_links_.push_back({parent, kNoLink});
    ClassInfo& info = classes_[eclass];
    if (info.parent_tail == kNoLink) {
      info.parent_head = link;
    } else {
      parent_links_[info.parent_tail].next = link;
    }
    info.parent_tail = link;
    ++info.parent_count;
  }

  // Appends `from`'s parent list to `into`'s.
  void splice_parents(Id from, Id into) {
    ClassInfo &source = classes_[from], &target = classes_[into];
    if (source.parent_head == kNoLink) return;
    if (target.parent_tail == kNoLink) {
      target.parent_head = source.parent_head;
    } else {
      parent_links_[target.parent_tail].next = source.parent_head;
    }
    target.parent_tail = source.parent_tail;
    target.parent_count += source.parent_count;
    source = ClassInfo{};
  }

  // Re-canonicalizes a parent whose child classes merged; a now-equal e-node elsewhere means the
  // two classes are congruent: this e-node dies and the classes merge.
  void repair(Id node) {
    if (!nodes_.live(node)) return;
    const std::span<Id> children = nodes_.children(node);
    const bool stale =
        std::any_of(children.begin(), children.end(), [&](Id c) { return !uf_.is_root(c); });
    if (!stale) return;
    const ENodeRef before = nodes_.get(node);
    hashcons_.erase(node, hash_enode(before.op, before.payload, before.children));
    for (Id& child : children) child = uf_.find_compress(child);
    node_stamps_[node] = epoch_;
    const ENodeRef after = nodes_.get(node);
    const std::uint64_t hash = hash_enode(after.op, after.payload, after.children);
    if (const Id twin = hashcons_.find(nodes_, after.op, after.payload, after.children, hash);
        twin != kNoId) {
      nodes_.kill(node);
      --live_nodes_;
      merge(node, twin);
    } else {
      hashcons_.insert(node, after, hash);
    }
  }

  // Repairs take e-nodes from the back of `pending_`, each at a random place in the node store and
  // the hashcons. Starts loading the record of the e-node 2 * kRepairAhead repairs ahead and, for
  // the stale e-node kRepairAhead ahead (its record has arrived by now), the hashcons slot that
  // erasing it will probe. Merges push more e-nodes meanwhile, so some hints miss; they are hints.
  static constexpr std::size_t kRepairAhead = 8;
  void prefetch_pending() const {
    const std::size_t size = pending_.size();
    if (size > 2 * kRepairAhead) nodes_.prefetch(pending_[size - 1 - 2 * kRepairAhead]);
    if (size <= kRepairAhead) return;
    const Id node = pending_[size - 1 - kRepairAhead];
    if (!nodes_.live(node)) return;
    const ENodeRef content = nodes_.get(node);
    if (std::all_of(content.children.begin(), content.children.end(),
                    [&](Id c) { return uf_.is_root(c); }))
      return;
    hashcons_.prefetch(hash_enode(content.op, content.payload, content.children));
  }

  // Recomputes a parent's data after a child class's data changed and merges it into its class.
  void propagate(Id node) {
    const Id eclass = uf_.find_compress(node);
    Data data{};
    const bool valid = make_data_of_classes(nodes_.get(node), data);
    MCTSAT_ASSERT(valid && "analysis data of an existing e-node became invalid");
    if (analysis_.merge(data_[eclass], data).into_changed) {
      data_stamps_[eclass] = epoch_;
      for_each_parent(eclass, [&](Id parent) { analysis_pending_.push_back(parent); });
      if constexpr (HasModify<Analysis, EGraph>) analysis_.modify(*this, eclass);
    }
  }

  // Rebuilds, from the live e-nodes, the class list, the per-class sorted e-node lists, compact
  // duplicate-free parent lists and the per-operator class index.
  void rebuild_indexes() {
    uf_.flatten();
    const std::size_t ids = uf_.size();
    // E-nodes whose class lost a union joined another class: they may complete new matches.
    for (Id n = 0; n < ids; ++n) {
      if (!nodes_.live(n)) continue;
      const Id eclass = uf_.find(n);
      if (node_classes_[n] != eclass) {
        node_classes_[n] = eclass;
        node_stamps_[n] = epoch_;
      }
    }
    for (ClassInfo& info : classes_) info = ClassInfo{};

    // Per class: its live e-nodes (counting sort by class), sorted by operator and payload.
    std::vector<std::uint32_t>& counts = scratch_counts_;
    counts.assign(ids + 1, 0);
    for (Id n = 0; n < ids; ++n) {
      if (nodes_.live(n)) ++counts[uf_.find(n) + 1];
    }
    class_ids_.clear();
    for (Id c = 0; c < ids; ++c) {
      classes_[c].node_begin = counts[c];
      classes_[c].node_count = counts[c + 1];
      if (counts[c + 1] > 0) class_ids_.push_back(c);
      counts[c + 1] += counts[c];
    }
    class_nodes_.resize(live_nodes_);
    for (Id n = 0; n < ids; ++n) {
      if (nodes_.live(n)) class_nodes_[counts[uf_.find(n)]++] = n;
    }
    for (Id c : class_ids_) {
      auto first = class_nodes_.begin() + classes_[c].node_begin;
      std::sort(first, first + classes_[c].node_count, [&](Id x, Id y) {
        const OpCode ox = nodes_.op(x), oy = nodes_.op(y);
        if (ox != oy) return ox < oy;
        const auto px = nodes_.payload(x), py = nodes_.payload(y);
        return px != py ? px < py : x < y;
      });
    }

    // Parent lists, contiguous per class, each parent once.
    parent_links_.clear();
    for (Id n = 0; n < ids; ++n) {
      if (!nodes_.live(n)) continue;
      const auto children = nodes_.children(n);
      for (std::size_t i = 0; i < children.size(); ++i) {
        if (std::find(children.begin(), children.begin() + static_cast<std::ptrdiff_t>(i),
                      children[i]) == children.begin() + static_cast<std::ptrdiff_t>(i))
          ++classes_[children[i]].parent_count;
      }
    }
    std::uint32_t next = 0;
    for (Id c : class_ids_) {
      ClassInfo& info = classes_[c];
      if (info.parent_count == 0) continue;
      info.parent_head = info.parent_tail = next;
      next += info.parent_count;
    }
    parent_links_.resize(next);
    for (Id n = 0; n < ids; ++n) {
      if (!nodes_.live(n)) continue;
      const auto children = nodes_.children(n);
      for (std::size_t i = 0; i < children.size(); ++i) {
        if (std::find(children.begin(), children.begin() + static_cast<std::ptrdiff_t>(i),
                      children[i]) != children.begin() + static_cast<std::ptrdiff_t>(i))
          continue;
        ClassInfo& info = classes_[children[i]];
        parent_links_[info.parent_tail] = {n, info.parent_tail + 1};
        ++info.parent_tail;
      }
    }
    for (Id c : class_ids_) {
      ClassInfo& info = classes_[c];
      if (info.parent_count == 0) continue;
      --info.parent_tail;
      parent_links_[info.parent_tail].next = kNoLink;
    }

    // Classes per operator (each class once per operator it holds), in class order.
    OpCode max_op = 0;
    for (Id n : class_nodes_) max_op = std::max(max_op, nodes_.op(n));
    op_class_begin_.assign(class_nodes_.empty() ? 1 : max_op + 2, 0);
    auto for_each_class_op = [&](auto&& visit) {
      for (Id c : class_ids_) {
        OpCode previous = 0;
        bool first = true;
        for (Id n : nodes_of_unchecked(c)) {
          const OpCode op = nodes_.op(n);
          if (first || op != previous) visit(c, op);
          previous = op;
          first = false;
        }
      }
    };
    for_each_class_op([&](Id, OpCode op) { ++op_class_begin_[op + 1]; });
    for (std::size_t op = 1; op < op_class_begin_.size(); ++op)
      op_class_begin_[op] += op_class_begin_[op - 1];
    op_classes_.resize(op_class_begin_.back());
    counts.assign(op_class_begin_.begin(), op_class_begin_.end());
    for_each_class_op([&](Id c, OpCode op) { op_classes_[counts[op]++] = c; });
  }

  std::span<const Id> nodes_of_unchecked(Id eclass) const {
    const ClassInfo& info = classes_[eclass];
    return {class_nodes_.data() + info.node_begin, info.node_count};
  }

  Analysis analysis_;
  NodeStore nodes_;
  UnionFind uf_;
  Hashcons hashcons_;
  std::vector<ClassInfo> classes_;           // by id; meaningful for canonical ids
  std::vector<Data> data_;                   // by id; meaningful for canonical ids
  std::vector<std::uint32_t> node_stamps_;   // by node: epoch added or last re-canonicalized
  std::vector<std::uint32_t> data_stamps_;   // by id: epoch the class's data last changed
  std::vector<std::uint32_t> merge_stamps_;  // by id: epoch another class last merged into it
  std::vector<Id> node_classes_;             // by node: its class at the last rebuild
  std::vector<std::uint8_t> blacklist_;      // by node: 1 when extraction must not pick it
  std::vector<ParentLink> parent_links_;
  std::vector<Id> pending_;           // e-nodes whose children may have merged
  std::vector<Id> analysis_pending_;  // e-nodes whose children's data changed
  std::vector<Id> class_ids_;         // canonical classes, ascending
  std::vector<Id> class_nodes_;       // live e-nodes grouped by class
  std::vector<std::uint32_t> op_class_begin_{0};
  std::vector<Id> op_classes_;
  std::vector<std::uint32_t> scratch_counts_;
  std::size_t live_nodes_ = 0;
  std::size_t unions_ = 0;
  std::size_t blacklisted_nodes_ = 0;
  std::uint32_t epoch_ = 0;
  bool clean_ = true;
};

}  // namespace mctsat::egraph
