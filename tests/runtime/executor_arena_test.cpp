// The executor's arena: aligned, zeroed, non-overlapping buffers carved in order, new chunks
// (doubling) when one is full, and buffers larger than any chunk.
#include "runtime/executor_arena.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include <doctest/doctest.h>

namespace mctsat::runtime {
namespace {

std::uintptr_t address(const void* p) {
  return reinterpret_cast<std::uintptr_t>(p);
}

TEST_CASE("buffers are aligned, zeroed, in order and do not overlap") {
  ExecutorArena arena;
  struct Buffer {
    unsigned char* data;
    std::size_t bytes;
  };
  std::vector<Buffer> buffers;
  // 1 byte to 3 MiB: several fill the first 4 MiB chunk, later ones open new chunks.
  for (std::size_t bytes : {std::size_t{1}, std::size_t{100}, std::size_t{3} << 20, std::size_t{64},
                            std::size_t{2} << 20, std::size_t{5000}}) {
    auto* data = static_cast<unsigned char*>(arena.allocate(bytes));
    CHECK(address(data) % 64 == 0);
    CHECK(std::all_of(data, data + bytes, [](unsigned char c) { return c == 0; }));
    std::memset(data, 0xab, bytes);  // writing the whole buffer must not touch the others
    buffers.push_back({data, bytes});
  }
  for (const Buffer& b : buffers)
    CHECK(std::all_of(b.data, b.data + b.bytes, [](unsigned char c) { return c == 0xab; }));
  for (std::size_t i = 0; i < buffers.size(); ++i)
    for (std::size_t j = i + 1; j < buffers.size(); ++j) {
      const bool apart = address(buffers[i].data) + buffers[i].bytes <= address(buffers[j].data) ||
                         address(buffers[j].data) + buffers[j].bytes <= address(buffers[i].data);
      CHECK(apart);
    }
  // Carved in order within a chunk: the second buffer follows the first at the next 64 bytes.
  CHECK(address(buffers[1].data) == address(buffers[0].data) + 64);
  CHECK(arena.reserved_bytes() >= (std::size_t{4} + 8) << 20);  // 4 MiB, then 8 MiB
}

TEST_CASE("a buffer larger than the next chunk gets a chunk of its own size") {
  ExecutorArena arena;
  auto* big = static_cast<unsigned char*>(arena.allocate(std::size_t{40} << 20));
  big[(std::size_t{40} << 20) - 1] = 1;
  CHECK(arena.reserved_bytes() == std::size_t{40} << 20);
}

TEST_CASE(
    "released buffers go to run-time data: the smallest fit, zeroed, up to twice the request") {
  ExecutorArena arena;
  auto* a = static_cast<unsigned char*>(arena.allocate(1000));
  auto* b = static_cast<unsigned char*>(arena.allocate(5000));
  void* c = arena.allocate(100);
  CHECK(arena.take_allocated() == std::vector<void*>{a, b, c});
  CHECK(arena.take_allocated().empty());
  CHECK(arena.buffer_containing(b + 4999) == b);
  CHECK(arena.buffer_containing(a + 999) == a);
  CHECK(arena.buffer_containing(a) == a);
  std::memset(a, 7, 1000);
  std::memset(b, 7, 5000);
  arena.release(a);
  arena.release(b);
  CHECK(arena.allocate(4000) != b);          // persistent data never gets a released buffer
  CHECK(arena.allocate_for_run(4000) == b);  // 5000 bytes: the smallest of at least 4000
  CHECK(b[0] == 0);
  CHECK(b[3999] == 0);
  CHECK(arena.allocate_for_run(300) != a);  // 1024 (rounded) is more than twice 320 (rounded)
  CHECK(arena.allocate_for_run(600) == a);  // 1024 is at most twice 640
  CHECK(arena.allocate_for_run(600) != a);  // taken
  CHECK(arena.buffer_containing(nullptr) == nullptr);
}

}  // namespace
}  // namespace mctsat::runtime
