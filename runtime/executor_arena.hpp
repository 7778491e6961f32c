// Where one oneDNN executor's tensors live: buffers carved in order from a few large chunks
// (huge-page mappings from 4 MiB up, each chunk twice the previous), handed out again once the
// executor releases them (a tensor no later step reads), and unmapped together with the
// executor. Invariant: the same graph lowered twice gets the same sequence of requests, so every
// executor of a graph has the same layout (offsets within 2 MiB-aligned huge pages, hence also
// the same physical cache sets), and identical executors time alike. Why, with the spread of
// identical executors before and after: bench/results/dnnl-execution.md ("The executor arena").
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "egraph/huge_pages.hpp"

namespace mctsat::runtime {

class ExecutorArena {
 public:
  ExecutorArena() = default;
  ExecutorArena(const ExecutorArena&) = delete;
  ExecutorArena& operator=(const ExecutorArena&) = delete;

  // A new zeroed buffer of `bytes`, aligned to 64 bytes, valid until the arena is destroyed; for
  // data that must persist across runs (inputs, weights, anything written while building).
  void* allocate(std::size_t bytes);
  // The same for data written only while the graph runs (a step's output or scratch): the
  // smallest released buffer of at least `bytes` and at most twice that, zeroed, else a new one.
  void* allocate_for_run(std::size_t bytes);
  // Lets later allocate() calls reuse `buffer` (a start returned by allocate(), not released).
  void release(void* buffer);
  // The start of the allocated buffer that contains `address`, or nullptr.
  void* buffer_containing(const void* address) const;
  // The buffers allocate() returned since the last call, in order.
  std::vector<void*> take_allocated() { return std::exchange(allocated_, {}); }

  std::size_t reserved_bytes() const;  // the chunks' total size

 private:
  using Chunk = std::vector<std::byte, egraph::HugePageAllocator<std::byte>>;
  std::vector<Chunk> chunks_;
  std::size_t used_ = 0;                         // bytes handed out from the last chunk
  std::map<std::uintptr_t, std::size_t> sizes_;  // every buffer's start and (aligned) size
  std::multimap<std::size_t, void*> released_;   // reusable buffers by size
  std::vector<void*> allocated_;                 // since the last take_allocated()
};

}  // namespace mctsat::runtime
