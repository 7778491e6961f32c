// The hashcons: an open-addressing table (linear probing, backward-shift deletion, power-of-two
// capacity) from e-node content to the live e-node holding it. A slot holds the node id, a class id
// of the node (a hint kept close to the representative: the e-graph writes back what it finds, so
// a hit rarely has to read the union-find entry of the node itself, a cache miss in a large
// e-graph), the low half of the hash and, for e-nodes of at most two children, the content itself;
// slots are 32 bytes and 32-byte aligned, so a slot never straddles two cache lines and a lookup of
// a small e-node touches one line. Larger e-nodes are compared against the NodeStore. Operator
// codes must be below 2^24 (the top byte of a slot's operator word holds the arity). Copying it is
// a flat copy.
//
// When rebuilding re-canonicalizes a small e-node, its old slot need not be found and erased at
// once (a random probe per repair): the slot is left in place, *stale*, and one sequential sweep
// at the end of the rebuild removes every stale slot. A stale slot holds a child that is no longer
// a canonical class, and lookups use canonical children only, so it can never be found meanwhile.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "egraph/huge_pages.hpp"
#include "egraph/id.hpp"
#include "egraph/node_store.hpp"

namespace mctsat::egraph {

class Hashcons {
 public:
  static constexpr std::size_t kNotFound = ~std::size_t{0};

  // The slot of the node with this content, or kNotFound.
  std::size_t find(const NodeStore& nodes, OpCode op, std::int64_t payload,
                   std::span<const Id> children, std::uint64_t hash) const {
    if (slots_.empty()) return kNotFound;
    if (children.size() > kInline) return find_large(nodes, op, payload, children, hash);
    // The content is in the slot; absent children are stored as 0.
    const auto home = static_cast<std::uint32_t>(hash);
    const std::uint32_t op_arity = pack(op, children.size());
    const Id c0 = children.empty() ? 0 : children[0];
    const Id c1 = children.size() < 2 ? 0 : children[1];
    for (std::size_t i = hash & mask_;; i = (i + 1) & mask_) {
      const Slot& slot = slots_[i];
      if (slot.node == kNoId) return kNotFound;
      // The hash bits above the table's index bits filter before the content is compared.
      if (slot.home == home && slot.op_arity == op_arity && slot.children[0] == c0 &&
          slot.children[1] == c1 && slot.payload == payload)
        return i;
    }
  }
  // A found slot's node, and the class hint: some id of the node's class (initially the node's
  // own, then whatever set_class stored).
  Id node_at(std::size_t slot) const { return slots_[slot].node; }
  Id class_at(std::size_t slot) const { return slots_[slot].eclass; }
  void set_class(std::size_t slot, Id eclass) { slots_[slot].eclass = eclass; }

  // Inserts a node whose content is not present yet; `eclass` is an id of its class.
  void insert(Id node, const ENodeRef& content, std::uint64_t hash, Id eclass) {
    if ((size_ + 1) * 4 > slots_.size() * 3) grow();
    Slot slot{node,
              eclass,
              static_cast<std::uint32_t>(hash),
              pack(content.op, content.children.size()),
              {0, 0},
              content.payload};
    if (content.children.size() <= kInline)
      std::copy(content.children.begin(), content.children.end(), slot.children);
    place(slot);
    ++size_;
  }

  // Whether slots hold the content of e-nodes of this arity (then a stale slot can be left for
  // remove_stale instead of erased).
  static bool holds_content(std::size_t arity) { return arity <= kInline; }

  // Removes `node`, stored under `hash` (the hash of its content when it was inserted).
  void erase(Id node, std::uint64_t hash) {
    std::size_t i = hash & mask_;
    while (slots_[i].node != node) i = (i + 1) & mask_;
    erase_at(i);
  }

  // Removes every slot holding a child for which `canonical(child)` is false, in one pass over the
  // table (each removal shifts the rest of its probe run back, as erase does).
  template <class IsCanonical>
  void remove_stale(IsCanonical canonical) {
    if (size_ == 0) return;
    std::size_t start = 0;
    while (slots_[start].node != kNoId) ++start;  // no probe run wraps past an empty slot
    for (std::size_t k = 1; k <= mask_; ++k) {
      const std::size_t i = (start + k) & mask_;
      while (slots_[i].node != kNoId && stale(slots_[i], canonical)) erase_at(i);
    }
  }

  // Starts loading the first slot a lookup of `hash` probes (a hint; it changes nothing). Issued
  // ahead of the lookup, it hides the cache miss that dominates lookups in large tables.
  void prefetch(std::uint64_t hash) const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[hash & mask_]);
  }

  std::size_t size() const { return size_; }
  std::size_t memory_bytes() const { return slots_.capacity() * sizeof(Slot); }
  void reserve(std::size_t entries) {
    while (entries * 4 > slots_.size() * 3) grow();
  }

 private:
  static constexpr std::size_t kInline = 2;
  struct alignas(32) Slot {
    Id node = kNoId;
    Id eclass = kNoId;       // an id of the node's class (see class_at)
    std::uint32_t home = 0;  // low half of the hash: where the probe run starts, and a filter
    // The content (for e-nodes of at most kInline children): operator and arity (see pack),
    // children, payload.
    std::uint32_t op_arity = 0;
    Id children[kInline] = {0, 0};
    std::int64_t payload = 0;
  };
  static_assert(sizeof(Slot) == 32);

  // find() for e-nodes whose content is compared against the NodeStore.
  [[gnu::noinline]] std::size_t find_large(const NodeStore& nodes, OpCode op, std::int64_t payload,
                                           std::span<const Id> children, std::uint64_t hash) const {
    const auto home = static_cast<std::uint32_t>(hash);
    const std::uint32_t op_arity = pack(op, children.size());
    for (std::size_t i = hash & mask_;; i = (i + 1) & mask_) {
      const Slot& slot = slots_[i];
      if (slot.node == kNoId) return kNotFound;
      if (slot.home == home && slot.op_arity == op_arity &&
          same_enode(nodes.get(slot.node), op, payload, children))
        return i;
    }
  }

  template <class IsCanonical>
  static bool stale(const Slot& slot, IsCanonical& canonical) {
    const std::uint32_t arity = slot.op_arity >> 24;
    return arity <= kInline && ((arity > 0 && !canonical(slot.children[0])) ||
                                (arity > 1 && !canonical(slot.children[1])));
  }

  // Empties slot i and shifts the rest of its probe run back where allowed.
  void erase_at(std::size_t i) {
    // Backward shift: move later entries of the probe run into the hole when allowed.
    for (std::size_t j = (i + 1) & mask_;; j = (j + 1) & mask_) {
      if (slots_[j].node == kNoId) break;
      const std::size_t home = slots_[j].home & mask_;
      // Entry j may move to i when i lies cyclically in [home, j).
      if (((j - home) & mask_) >= ((j - i) & mask_)) {
        slots_[i] = slots_[j];
        i = j;
      }
    }
    slots_[i] = Slot{};
    --size_;
  }

  // The operator in the low 24 bits, the arity (capped at kInline + 1: larger e-nodes are
  // compared against the NodeStore) in the top 8.
  static std::uint32_t pack(OpCode op, std::size_t arity) {
    return op | static_cast<std::uint32_t>(std::min(arity, kInline + 1)) << 24;
  }

  void place(const Slot& slot) {
    std::size_t i = slot.home & mask_;
    while (slots_[i].node != kNoId) i = (i + 1) & mask_;
    slots_[i] = slot;
  }

  void grow() {
    BigVector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 64 : old.size() * 2, Slot{});
    mask_ = slots_.size() - 1;
    for (const Slot& slot : old) {
      if (slot.node != kNoId) place(slot);
    }
  }

  BigVector<Slot> slots_;
  std::size_t mask_ = 0;
  std::size_t size_ = 0;
};

}  // namespace mctsat::egraph
