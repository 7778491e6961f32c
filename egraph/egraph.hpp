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
#include "egraph/huge_pages.hpp"
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
    // E-nodes of at most two children (the common case) canonicalize into a plain array.
    if (children.size() <= 2) [[likely]] {
      Id canonical[2] = {0, 0};
      for (std::size_t i = 0; i < children.size(); ++i)
        canonical[i] = uf_.find_compress(children[i]);
      return add_canonical(op, payload, std::span<const Id>(canonical, children.size()));
    }
    ChildIds canonical(children.size());
    for (std::size_t i = 0; i < children.size(); ++i) canonical[i] = uf_.find_compress(children[i]);
    return add_canonical(op, payload, id_span(canonical));
  }
  Id add(OpCode op, std::int64_t payload = 0, std::initializer_list<Id> children = {}) {
    return add(op, payload, std::span<const Id>(children.begin(), children.size()));
  }

  // The class of an existing e-node with this content, if any.
  std::optional<Id> lookup(OpCode op, std::int64_t payload, std::span<const Id> children) const {
    if (children.size() <= 2) {
      Id canonical[2] = {0, 0};
      for (std::size_t i = 0; i < children.size(); ++i) canonical[i] = uf_.find(children[i]);
      const std::span<const Id> view(canonical, children.size());
      const std::size_t slot =
          hashcons_.find(nodes_, op, payload, view, hash_enode(op, payload, view));
      if (slot == Hashcons::kNotFound) return std::nullopt;
      return uf_.find(hashcons_.class_at(slot));
    }
    ChildIds canonical(children.size());
    for (std::size_t i = 0; i < children.size(); ++i) canonical[i] = uf_.find(children[i]);
    const std::size_t slot = hashcons_.find(nodes_, op, payload, id_span(canonical),
                                            hash_enode(op, payload, id_span(canonical)));
    if (slot == Hashcons::kNotFound) return std::nullopt;
    return uf_.find(hashcons_.class_at(slot));
  }

  // A hint that `add` or `lookup` of this content follows soon: starts loading the hashcons slot it
  // will probe first, so that a batch of lookups overlaps its cache misses. Changes nothing.
  void prefetch(OpCode op, std::int64_t payload, std::span<const Id> children) const {
    if (children.size() <= 2) {
      Id canonical[2] = {0, 0};
      for (std::size_t i = 0; i < children.size(); ++i) canonical[i] = uf_.find(children[i]);
      hashcons_.prefetch(hash_enode(op, payload, std::span<const Id>(canonical, children.size())));
      return;
    }
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
    // b's parents need repair. Rather than reading b's parent list now (a cache miss per merge),
    // a marker for the list goes on the repair stack: b keeps the ends of its list (see
    // splice_parents), and rebuild() expands the marker into the same e-nodes, in the same order
    // (expand_parent_lists; markers pushed during rebuild() when they reach the top of the stack).
    if (classes_[b].parent_head != kNoLink) {
      if (b < kListMarker) {
        pending_.push_back(b | kListMarker);
      } else {  // an id too large to carry the marker bit
        for_each_parent(b, [&](Id parent) { pending_.push_back(parent); });
      }
    }
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
    expand_parent_lists();
    while (!pending_.empty() || !analysis_pending_.empty()) {
      while (!pending_.empty()) {
        prefetch_pending();
        const Id entry = pending_.back();
        pending_.pop_back();
        if (entry & kListMarker) {
          queue_parent_list(entry & ~kListMarker);
        } else {
          repair(entry);
        }
      }
      while (!analysis_pending_.empty()) {
        const Id node = analysis_pending_.back();
        analysis_pending_.pop_back();
        if (nodes_.live(node)) propagate(node);
      }
    }
    // Every live e-node is canonical now: a slot with a non-canonical child is stale.
    if (stale_slots_) hashcons_.remove_stale([&](Id child) { return uf_.is_root(child); });
    stale_slots_ = false;
    rebuild_indexes();
    pending_ = GrowVector<Id>();  // its memory back: it peaked during this rebuild
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
  std::uint32_t node_stamp(Id node) const {
    return std::max(node_stamps_[node], node_moved_stamps_[node]);
  }
  // The stamp without the moves: the epoch the e-node was added or its children last changed. A
  // match rooted at an e-node that only moved to another class repeats an applied match whose
  // right-hand side is already in the (merged) class; see Machine's root_moves_free.
  std::uint32_t node_content_stamp(Id node) const { return node_stamps_[node]; }
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
    const std::span<const IndexedNode> entries = indexed_nodes_of(eclass, op);
    return {class_nodes_.data() + (entries.data() - class_entries_.data()), entries.size()};
  }
  // The same e-nodes with their content and stamp, contiguous in memory (for matching).
  struct IndexedNode {
    Id node;
    OpCode op;
    std::uint32_t arity;
    std::uint32_t stamp;          // node_stamp(node)
    std::uint32_t content_stamp;  // node_content_stamp(node)
    Id children[2];               // when arity <= 2; see children()
    std::int64_t payload;
  };
  std::span<const IndexedNode> indexed_nodes_of(Id eclass, OpCode op) const {
    MCTSAT_ASSERT(clean_);
    const ClassInfo& info = classes_[eclass];
    const IndexedNode* all = class_entries_.data() + info.node_begin;
    const IndexedNode* end = all + info.node_count;
    const IndexedNode* first =
        std::lower_bound(all, end, op, [](const IndexedNode& e, OpCode o) { return e.op < o; });
    const IndexedNode* last = first;
    while (last != end && last->op == op) ++last;
    return {first, last};
  }
  std::span<const Id> children(const IndexedNode& entry) const {
    if (entry.arity <= 2) return {entry.children, entry.arity};
    return nodes_.children(entry.node);
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
           (node_stamps_.capacity() + node_moved_stamps_.capacity() + data_stamps_.capacity() +
            merge_stamps_.capacity() + node_classes_.capacity()) *
               sizeof(std::uint32_t) +
           blacklist_.capacity() * sizeof(std::uint8_t) +
           (class_ids_.capacity() + class_nodes_.capacity() + op_classes_.capacity() +
            live_ids_.capacity()) *
               sizeof(Id) +
           class_entries_.capacity() * sizeof(IndexedNode) +
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

  // add() with canonical children: the class of an equal e-node, or a new e-node's.
  Id add_canonical(OpCode op, std::int64_t payload, std::span<const Id> canonical) {
    const std::uint64_t hash = hash_enode(op, payload, canonical);
    if (const std::size_t slot = hashcons_.find(nodes_, op, payload, canonical, hash);
        slot != Hashcons::kNotFound)
      return class_of_slot(slot);
    return add_new(op, payload, canonical, hash);
  }

  // Stores a new e-node (canonical children, content not in the hashcons) in a class of its own.
  [[gnu::noinline]] Id add_new(OpCode op, std::int64_t payload, std::span<const Id> canonical,
                               std::uint64_t hash) {
    Data data{};
    const bool valid = make_data_of_classes(ENodeRef{op, payload, canonical}, data);
    MCTSAT_ASSERT(valid && "the analysis rejects an e-node that was added");
    const Id node = nodes_.push(op, payload, canonical);
    MCTSAT_ASSERT(uf_.make_set() == node);
    classes_.push_back({});
    data_.push_back(std::move(data));
    node_stamps_.push_back(epoch_);
    node_moved_stamps_.push_back(epoch_);
    node_classes_.push_back(node);
    data_stamps_.push_back(epoch_);
    merge_stamps_.push_back(epoch_);
    blacklist_.push_back(0);
    hashcons_.insert(node, nodes_.get(node), hash, node);
    for (Id child : canonical) add_parent(child, node);
    ++live_nodes_;
    clean_ = false;
    if constexpr (HasModify<Analysis, EGraph>) analysis_.modify(*this, node);
    return node;
  }

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

  // The class of the e-node in a hashcons slot; stores the representative back as the slot's hint,
  // so that the next hit starts from a (cache-resident) class id instead of the node's own id.
  Id class_of_slot(std::size_t slot) {
    const Id hint = hashcons_.class_at(slot);
    const Id eclass = uf_.find_compress(hint);
    if (eclass != hint) hashcons_.set_class(slot, eclass);
    return eclass;
  }

  // Appends `from`'s parent list to `into`'s. `from` keeps the ends and length of its list (its
  // links stay in place), for queue_parent_list; the entry is reset by the next rebuild_indexes.
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
  }

  // Replaces, in place, every marker on the repair stack by the parent list it stands for, so
  // that the repairs of the e-nodes queued by the apply phase are prefetched as usual. The stack
  // only grows (a list has at least one link), so the expansion runs from the top down, writing
  // at or above where it reads.
  void expand_parent_lists() {
    constexpr std::size_t kAhead = 8;
    const std::size_t size = pending_.size();
    std::size_t expanded = 0;
    for (std::size_t i = 0; i < size; ++i) {
      if (i + kAhead < size && (pending_[i + kAhead] & kListMarker))
        __builtin_prefetch(&classes_[pending_[i + kAhead] & ~kListMarker]);
      const Id entry = pending_[i];
      expanded += (entry & kListMarker) ? classes_[entry & ~kListMarker].parent_count : 1;
    }
    if (expanded == size) return;
    pending_.resize(expanded);
    std::size_t write = expanded;
    for (std::size_t read = size; read-- > 0;) {
      if (read >= kAhead && (pending_[read - kAhead] & kListMarker))
        __builtin_prefetch(
            &parent_links_[classes_[pending_[read - kAhead] & ~kListMarker].parent_head]);
      const Id entry = pending_[read];
      if (!(entry & kListMarker)) {
        pending_[--write] = entry;
        continue;
      }
      const ClassInfo& info = classes_[entry & ~kListMarker];
      write -= info.parent_count;
      std::size_t at = write;
      for (std::uint32_t link = info.parent_head;; link = parent_links_[link].next) {
        pending_[at++] = parent_links_[link].node;
        if (link == info.parent_tail) break;
      }
    }
  }

  // Pushes the parents a class had when it lost a merge (its list from the first to the last link
  // then; links appended later belong to the winner), first to last.
  void queue_parent_list(Id loser) {
    const ClassInfo& info = classes_[loser];
    for (std::uint32_t link = info.parent_head;; link = parent_links_[link].next) {
      pending_.push_back(parent_links_[link].node);
      if (link == info.parent_tail) break;
    }
  }

  // Re-canonicalizes a parent whose child classes merged; a now-equal e-node elsewhere means the
  // two classes are congruent: this e-node dies and the classes merge.
  void repair(Id node) {
    if (!nodes_.live(node)) return;
    const std::span<Id> children = nodes_.children(node);
    const bool stale =
        std::any_of(children.begin(), children.end(), [&](Id c) { return !uf_.is_root(c); });
    if (!stale) return;
    // The old slot of a small e-node is left stale (see Hashcons::remove_stale).
    if (const ENodeRef before = nodes_.get(node); Hashcons::holds_content(before.children.size()))
      stale_slots_ = true;
    else
      hashcons_.erase(node, hash_enode(before.op, before.payload, before.children));
    for (Id& child : children) child = uf_.find_compress(child);
    node_stamps_[node] = epoch_;
    const ENodeRef after = nodes_.get(node);
    const std::uint64_t hash = hash_enode(after.op, after.payload, after.children);
    if (const std::size_t twin =
            hashcons_.find(nodes_, after.op, after.payload, after.children, hash);
        twin != Hashcons::kNotFound) {
      nodes_.kill(node);
      --live_nodes_;
      merge(node, class_of_slot(twin));
    } else {
      hashcons_.insert(node, after, hash, node);
    }
  }

  // Repairs take e-nodes from the back of `pending_`, each at a random place in the node store and
  // the hashcons. Starts loading the record of the e-node 2 * kRepairAhead repairs ahead and, for
  // the stale e-node kRepairAhead ahead (its record has arrived by now), the hashcons slot that
  // looking up its canonical form will probe (its old slot is left stale, not erased, when the
  // slot holds its content). Merges push more e-nodes meanwhile, so some hints miss; they are
  // hints.
  static constexpr std::size_t kRepairAhead = 8;
  void prefetch_pending() const {
    const std::size_t size = pending_.size();
    if (size > 2 * kRepairAhead) {
      const Id entry = pending_[size - 1 - 2 * kRepairAhead];
      if (entry & kListMarker) {
        __builtin_prefetch(&classes_[entry & ~kListMarker]);
      } else {
        nodes_.prefetch(entry);
      }
    }
    if (size <= kRepairAhead) return;
    const Id node = pending_[size - 1 - kRepairAhead];
    if (node & kListMarker) {
      __builtin_prefetch(&parent_links_[classes_[node & ~kListMarker].parent_head]);
      return;
    }
    if (!nodes_.live(node)) return;
    const ENodeRef content = nodes_.get(node);
    if (std::all_of(content.children.begin(), content.children.end(),
                    [&](Id c) { return uf_.is_root(c); }))
      return;
    ChildIds canonical(content.children.size());
    for (std::size_t i = 0; i < canonical.size(); ++i) canonical[i] = uf_.find(content.children[i]);
    hashcons_.prefetch(hash_enode(content.op, content.payload, id_span(canonical)));
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

  // Rebuilds, from the live e-nodes, the class list, the per-class sorted e-node lists (and their
  // copies for matching), compact duplicate-free parent lists and the per-operator class index.
  // Works in O(live e-nodes + ids added since the last rebuild) besides flattening the union-find:
  // dead ids (e-nodes found congruent, typically several per live one) are not visited again.
  void rebuild_indexes() {
    uf_.flatten();
    const std::size_t ids = uf_.size();
    const auto first_new = static_cast<Id>(indexed_ids_);
    // The live e-nodes in id order: the survivors of the last index, then the e-nodes added since.
    {
      std::size_t kept = 0;
      for (Id n : live_ids_) {
        if (nodes_.live(n)) live_ids_[kept++] = n;
      }
      live_ids_.resize(kept);
      for (Id n = first_new; n < ids; ++n) {
        if (nodes_.live(n)) live_ids_.push_back(n);
      }
      indexed_ids_ = ids;
    }
    // E-nodes whose class lost a union joined another class: they may complete new matches.
    for (Id n : live_ids_) {
      const Id eclass = uf_.find(n);
      if (node_classes_[n] != eclass) {
        node_classes_[n] = eclass;
        node_moved_stamps_[n] = epoch_;
      }
    }
    // Only the classes of the last index and the ids added since can hold class information (adds,
    // merges and parent links touch canonical classes only); every other entry is already empty.
    for (Id c : class_ids_) classes_[c] = ClassInfo{};
    for (Id c = first_new; c < ids; ++c) classes_[c] = ClassInfo{};

    // Per class: its live e-nodes (counting sort by class), sorted by operator and payload.
    GrowVector<std::uint32_t>& counts = scratch_counts_;  // all zero between rebuilds
    if (counts.size() < ids) counts.resize(ids, 0);
    class_ids_.clear();
    for (Id n : live_ids_) {
      const Id c = uf_.find(n);
      if (counts[c]++ == 0) class_ids_.push_back(c);
    }
    std::sort(class_ids_.begin(), class_ids_.end());
    std::uint32_t offset = 0;
    for (Id c : class_ids_) {
      classes_[c].node_begin = offset;
      classes_[c].node_count = counts[c];
      offset += counts[c];
      counts[c] = classes_[c].node_begin;
    }
    // Each class's e-nodes with their record and stamps (so that matching scans memory in order),
    // placed in id order by a pass that reads the records in id order, then sorted by operator and
    // payload where they are not already.
    class_entries_.resize(live_nodes_);
    for (Id n : live_ids_) {
      const ENodeRef e = nodes_.get(n);
      IndexedNode& entry = class_entries_[counts[uf_.find(n)]++];
      entry = IndexedNode{n,
                          e.op,
                          static_cast<std::uint32_t>(e.children.size()),
                          std::max(node_stamps_[n], node_moved_stamps_[n]),
                          node_stamps_[n],
                          {0, 0},
                          e.payload};
      if (e.children.size() <= 2) std::copy(e.children.begin(), e.children.end(), entry.children);
    }
    for (Id c : class_ids_) counts[c] = 0;
    const auto before = [](const IndexedNode& x, const IndexedNode& y) {
      if (x.op != y.op) return x.op < y.op;
      return x.payload != y.payload ? x.payload < y.payload : x.node < y.node;
    };
    for (Id c : class_ids_) {
      const auto first = class_entries_.begin() + classes_[c].node_begin;
      const auto last = first + classes_[c].node_count;
      if (!std::is_sorted(first, last, before)) std::sort(first, last, before);
    }
    class_nodes_.resize(live_nodes_);
    for (std::size_t i = 0; i < class_entries_.size(); ++i)
      class_nodes_[i] = class_entries_[i].node;

    // Parent lists, contiguous per class, each parent once.
    parent_links_.clear();
    for (Id n : live_ids_) {
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
    for (Id n : live_ids_) {
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
    for (const IndexedNode& e : class_entries_) max_op = std::max(max_op, e.op);
    op_class_begin_.assign(class_nodes_.empty() ? 1 : max_op + 2, 0);
    auto for_each_class_op = [&](auto&& visit) {
      for (Id c : class_ids_) {
        OpCode previous = 0;
        bool first = true;
        const ClassInfo& info = classes_[c];
        for (std::uint32_t i = info.node_begin; i < info.node_begin + info.node_count; ++i) {
          const OpCode op = class_entries_[i].op;
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
    std::vector<std::uint32_t> cursor(op_class_begin_.begin(), op_class_begin_.end());
    for_each_class_op([&](Id c, OpCode op) { op_classes_[cursor[op]++] = c; });
  }

  Analysis analysis_;
  NodeStore nodes_;
  UnionFind uf_;
  Hashcons hashcons_;
  GrowVector<ClassInfo> classes_;                // by id; meaningful for canonical ids
  GrowableVector<Data> data_;                    // by id; meaningful for canonical ids
  GrowVector<std::uint32_t> node_stamps_;        // by node: epoch added or last re-canonicalized
  GrowVector<std::uint32_t> node_moved_stamps_;  // by node: epoch it last joined another class
  GrowVector<std::uint32_t> data_stamps_;        // by id: epoch the class's data last changed
  GrowVector<std::uint32_t> merge_stamps_;       // by id: epoch another class last merged into it
  GrowVector<Id> node_classes_;                  // by node: its class at the last rebuild
  GrowVector<std::uint8_t> blacklist_;           // by node: 1 when extraction must not pick it
  GrowVector<ParentLink> parent_links_;
  // E-nodes whose children may have merged, and markers (a class id | kListMarker) for the
  // parent lists of classes that lost a merge (see merge()).
  GrowVector<Id> pending_;
  static constexpr Id kListMarker = Id{1} << 31;
  std::vector<Id> analysis_pending_;      // e-nodes whose children's data changed
  std::vector<Id> class_ids_;             // canonical classes, ascending
  BigVector<Id> class_nodes_;             // live e-nodes grouped by class
  BigVector<IndexedNode> class_entries_;  // class_nodes_ with their content, for matching
  BigVector<Id> live_ids_;                // live e-nodes at the last rebuild, ascending
  std::size_t indexed_ids_ = 0;           // ids at the last rebuild
  std::vector<std::uint32_t> op_class_begin_{0};
  std::vector<Id> op_classes_;
  GrowVector<std::uint32_t> scratch_counts_;  // by id, all zero outside rebuild_indexes
  std::size_t live_nodes_ = 0;
  std::size_t unions_ = 0;
  std::size_t blacklisted_nodes_ = 0;
  std::uint32_t epoch_ = 0;
  bool clean_ = true;
  bool stale_slots_ = false;  // the hashcons holds stale slots (until rebuild() ends)
};

}  // namespace mctsat::egraph
