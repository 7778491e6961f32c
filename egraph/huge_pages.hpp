// An allocator for the e-graph's large flat arrays (hashcons slots, node records, union-find, per-id
// tables, match buffers): blocks of 4 MiB or more are their own 2 MiB-aligned mappings, advised to
// use transparent huge pages (madvise) and returned to the kernel when freed; smaller ones come from
// malloc. These arrays are read at random addresses (hashcons probes, finds, node records), so with
// 4 KiB pages nearly every access to a large e-graph also misses the TLB; huge pages remove most of
// those misses (about 9% of anchor E1's time at n = 10). Where the kernel has no huge pages or
// ignores the advice, nothing changes but the alignment. Stateless, so copying an e-graph (an MCTS
// snapshot) stays a flat copy.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <vector>

#include <sys/mman.h>

namespace mctsat::egraph {

template <class T>
class HugePageAllocator {
 public:
  using value_type = T;

  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) noexcept {}

  T* allocate(std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    void* p = nullptr;
    if (bytes >= kMinBytes) {
      p = map_huge(rounded(bytes));
    } else if constexpr (alignof(T) > alignof(std::max_align_t)) {
      p = std::aligned_alloc(alignof(T), (bytes + alignof(T) - 1) / alignof(T) * alignof(T));
    } else {
      p = std::malloc(bytes == 0 ? 1 : bytes);
    }
    if (!p) throw std::bad_alloc();
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t n) noexcept {
    if (n * sizeof(T) >= kMinBytes) {
      munmap(p, rounded(n * sizeof(T)));
    } else {
      std::free(p);
    }
  }

  template <class U>
  bool operator==(const HugePageAllocator<U>&) const noexcept {
    return true;
  }

 private:
  static constexpr std::size_t kHugePage = std::size_t{2} << 20;
  static constexpr std::size_t kMinBytes = std::size_t{4} << 20;

  static std::size_t rounded(std::size_t bytes) {
    return (bytes + kHugePage - 1) / kHugePage * kHugePage;
  }
  // A fresh 2 MiB-aligned mapping of `bytes` (a multiple of 2 MiB), advised to use huge pages;
  // nullptr on failure. Freed memory goes straight back to the kernel (munmap).
  static void* map_huge(std::size_t bytes) {
    void* raw = mmap(nullptr, bytes + kHugePage, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) return nullptr;
    const auto begin = reinterpret_cast<std::uintptr_t>(raw);
    const std::uintptr_t aligned = (begin + kHugePage - 1) / kHugePage * kHugePage;
    if (aligned > begin) munmap(raw, aligned - begin);
    if (const std::uintptr_t end = begin + bytes + kHugePage; end > aligned + bytes)
      munmap(reinterpret_cast<void*>(aligned + bytes), end - (aligned + bytes));
    void* p = reinterpret_cast<void*>(aligned);
#if defined(MADV_HUGEPAGE)
    madvise(p, bytes, MADV_HUGEPAGE);
#endif
    return p;
  }
};

// A std::vector on huge pages once it is large.
template <class T>
using BigVector = std::vector<T, HugePageAllocator<T>>;

}  // namespace mctsat::egraph
