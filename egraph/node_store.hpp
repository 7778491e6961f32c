// Contiguous storage of e-nodes: one fixed-size record per node (operator, payload, arity,
// liveness, and its children inline when there are at most two) and one shared array for the
// children of larger nodes. Copying it is a flat copy.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "egraph/huge_pages.hpp"
#include "egraph/id.hpp"

namespace mctsat::egraph {

class NodeStore {
 public:
  Id push(OpCode op, std::int64_t payload, std::span<const Id> children) {
    Record record{op, static_cast<std::uint32_t>(children.size()), 1, {0, 0}, payload};
    if (children.size() <= kInline) {
      std::copy(children.begin(), children.end(), record.slots);
    } else {
      record.slots[0] = static_cast<std::uint32_t>(children_.size());
      children_.insert(children_.end(), children.begin(), children.end());
    }
    records_.push_back(record);
    return static_cast<Id>(records_.size() - 1);
  }

  std::size_t size() const { return records_.size(); }
  // Starts loading a node's record (a hint for an access that follows soon).
  void prefetch(Id node) const { __builtin_prefetch(&records_[node]); }
  ENodeRef get(Id node) const {
    return {records_[node].op, records_[node].payload, children(node)};
  }
  OpCode op(Id node) const { return records_[node].op; }
  std::int64_t payload(Id node) const { return records_[node].payload; }
  std::span<Id> children(Id node) {
    Record& r = records_[node];
    return {r.arity <= kInline ? r.slots : children_.data() + r.slots[0], r.arity};
  }
  std::span<const Id> children(Id node) const {
    const Record& r = records_[node];
    return {r.arity <= kInline ? r.slots : children_.data() + r.slots[0], r.arity};
  }

  // Dead nodes were found congruent to another node during rebuilding; they stay stored (ids are
  // stable) but belong to no e-class.
  bool live(Id node) const { return records_[node].live != 0; }
  void kill(Id node) { records_[node].live = 0; }

  std::size_t memory_bytes() const {
    return records_.capacity() * sizeof(Record) + children_.capacity() * sizeof(Id);
  }

 private:
  // Up to two children live in the record itself (one memory access per small e-node); more go
  // to the shared child array, with slots[0] as their offset.
  static constexpr std::uint32_t kInline = 2;
  struct Record {
    OpCode op;
    std::uint32_t arity;
    std::uint32_t live;
    Id slots[kInline];
    std::int64_t payload;
  };
  GrowVector<Record> records_;
  BigVector<Id> children_;
};

// The hash of an e-node's content (stable across runs and platforms).
inline std::uint64_t hash_enode(OpCode op, std::int64_t payload, std::span<const Id> children) {
  std::uint64_t h = (static_cast<std::uint64_t>(op) << 32) ^
                    static_cast<std::uint64_t>(payload) * 0x9e3779b97f4a7c15ULL;
  const auto mix = [&h](Id child) {
    h = (h ^ child) * 0xff51afd7ed558ccdULL + 0x632be59bd9b4e019ULL;
  };
  if (children.size() <= 2) {  // the common case, unrolled (the same value as the loop)
    if (!children.empty()) mix(children[0]);
    if (children.size() == 2) mix(children[1]);
  } else {
    for (Id child : children) mix(child);
  }
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 29;
  return h;
}

inline bool same_enode(const ENodeRef& a, OpCode op, std::int64_t payload,
                       std::span<const Id> children) {
  if (a.op != op || a.payload != payload || a.children.size() != children.size()) return false;
  for (std::size_t i = 0; i < children.size(); ++i) {
    if (a.children[i] != children[i]) return false;
  }
  return true;
}

}  // namespace mctsat::egraph
