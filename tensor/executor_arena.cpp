// Carving buffers from the arena's chunks.
#include "tensor/executor_arena.hpp"

#include <algorithm>

namespace mctsat::tensor {
namespace {

constexpr std::size_t kAlignment = 64;
constexpr std::size_t kFirstChunk = std::size_t{4} << 20;

std::size_t aligned(std::size_t bytes) {
  return (bytes + kAlignment - 1) / kAlignment * kAlignment;
}

}  // namespace

void* ExecutorArena::allocate(std::size_t bytes) {
  const std::size_t size = aligned(std::max<std::size_t>(bytes, 1));
  if (chunks_.empty() || chunks_.back().size() - used_ < size) {
    const std::size_t next = chunks_.empty() ? kFirstChunk : 2 * chunks_.back().size();
    chunks_.emplace_back(std::max(next, size));
    used_ = 0;
  }
  void* buffer = chunks_.back().data() + used_;
  used_ += size;
  return buffer;
}

std::size_t ExecutorArena::reserved_bytes() const {
  std::size_t total = 0;
  for (const Chunk& chunk : chunks_) total += chunk.size();
  return total;
}

}  // namespace mctsat::tensor
