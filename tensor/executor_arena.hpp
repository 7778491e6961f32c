// Where one oneDNN executor's tensors live: buffers carved in order from a few large chunks
// (huge-page mappings from 4 MiB up, each chunk twice the previous), released together with the
// executor. With one malloc per tensor, every executor of the same graph had its own scattered
// placement, and identical executors ran -6.8% to +18.2% apart (NASRNN against itself); carving
// the buffers in a fixed order from 2 MiB-aligned huge pages gives every executor of a graph the
// same layout (within a huge page, also the same physical cache sets), and identical executors
// now run -0.3% to +1.5% apart.
#pragma once

#include <cstddef>
#include <vector>

#include "egraph/huge_pages.hpp"

namespace mctsat::tensor {

class ExecutorArena {
 public:
  ExecutorArena() = default;
  ExecutorArena(const ExecutorArena&) = delete;
  ExecutorArena& operator=(const ExecutorArena&) = delete;

  // A zeroed buffer of `bytes`, aligned to 64 bytes, valid until the arena is destroyed.
  void* allocate(std::size_t bytes);
  std::size_t reserved_bytes() const;  // the chunks' total size

 private:
  using Chunk = std::vector<std::byte, egraph::HugePageAllocator<std::byte>>;
  std::vector<Chunk> chunks_;
  std::size_t used_ = 0;  // bytes handed out from the last chunk
};

}  // namespace mctsat::tensor
