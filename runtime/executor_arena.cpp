// Carving buffers from the arena's chunks.
#include "runtime/executor_arena.hpp"

#include <algorithm>
#include <cstring>
#include <iterator>

#include "support/error.hpp"

namespace mctsat::runtime {
namespace {

constexpr std::size_t kAlignment = 64;
constexpr std::size_t kFirstChunk = std::size_t{4} << 20;

std::size_t aligned(std::size_t bytes) {
  return (bytes + kAlignment - 1) / kAlignment * kAlignment;
}

}  // namespace

void* ExecutorArena::allocate_for_run(std::size_t bytes) {
  const std::size_t size = aligned(std::max<std::size_t>(bytes, 1));
  if (const auto reuse = released_.lower_bound(size);
      reuse != released_.end() && reuse->first <= 2 * size) {
    void* buffer = reuse->second;
    released_.erase(reuse);
    std::memset(buffer, 0, size);
    allocated_.push_back(buffer);
    return buffer;
  }
  return allocate(bytes);
}

void* ExecutorArena::allocate(std::size_t bytes) {
  const std::size_t size = aligned(std::max<std::size_t>(bytes, 1));
  if (chunks_.empty() || chunks_.back().size() - used_ < size) {
    const std::size_t next = chunks_.empty() ? kFirstChunk : 2 * chunks_.back().size();
    chunks_.emplace_back(std::max(next, size));
    used_ = 0;
  }
  void* buffer = chunks_.back().data() + used_;
  used_ += size;
  sizes_.emplace(reinterpret_cast<std::uintptr_t>(buffer), size);
  allocated_.push_back(buffer);
  return buffer;
}

void ExecutorArena::release(void* buffer) {
  const auto found = sizes_.find(reinterpret_cast<std::uintptr_t>(buffer));
  MCTSAT_ASSERT(found != sizes_.end() && "release() takes a buffer from allocate()");
  released_.emplace(found->second, buffer);
}

void* ExecutorArena::buffer_containing(const void* address) const {
  const auto at = reinterpret_cast<std::uintptr_t>(address);
  auto after = sizes_.upper_bound(at);
  if (after == sizes_.begin()) return nullptr;
  const auto& [start, size] = *std::prev(after);
  return at < start + size ? reinterpret_cast<void*>(start) : nullptr;
}

std::size_t ExecutorArena::reserved_bytes() const {
  std::size_t total = 0;
  for (const Chunk& chunk : chunks_) total += chunk.size();
  return total;
}

}  // namespace mctsat::runtime
