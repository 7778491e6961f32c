// An allocator for the e-graph's large flat arrays (hashcons slots, node records, union-find,
// per-id tables, match buffers): blocks of 4 MiB or more are their own 2 MiB-aligned mappings,
// advised to use transparent huge pages (madvise) and returned to the kernel when freed; smaller
// ones come from malloc. These arrays are read at random addresses (hashcons probes, finds, node
// records), so with 4 KiB pages nearly every access to a large e-graph also misses the TLB; huge
// pages remove most of those misses (the effect: bench/results/egraph-micro.md). Where the kernel
// has no huge pages or ignores the advice, nothing changes but the alignment. Stateless, so copying
// an e-graph (an MCTS snapshot) stays a flat copy.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>
#include <vector>

#include <sys/mman.h>

namespace mctsat::egraph {

namespace huge_pages_detail {

inline constexpr std::size_t kHugePage = std::size_t{2} << 20;
inline constexpr std::size_t kMinBytes = std::size_t{4} << 20;

inline std::size_t rounded(std::size_t bytes) {
  return (bytes + kHugePage - 1) / kHugePage * kHugePage;
}
// A fresh 2 MiB-aligned mapping of `bytes` (a multiple of 2 MiB), advised to use huge pages;
// nullptr on failure. Freed memory goes straight back to the kernel (munmap).
inline void* map_huge(std::size_t bytes) {
  void* raw =
      mmap(nullptr, bytes + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
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

}  // namespace huge_pages_detail

template <class T>
class HugePageAllocator {
 public:
  using value_type = T;

  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) noexcept {}

  T* allocate(std::size_t n) {
    using namespace huge_pages_detail;
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
    using namespace huge_pages_detail;
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
};

// A std::vector on huge pages once it is large.
template <class T>
using BigVector = std::vector<T, HugePageAllocator<T>>;

template <class T>
class GrowVector;
// GrowVector where the elements allow it (trivially copyable), BigVector otherwise.
template <class T>
using GrowableVector =
    std::conditional_t<std::is_trivially_copyable_v<T>, GrowVector<T>, BigVector<T>>;

// A vector of trivially copyable elements for the arrays that grow by one entry per e-node (node
// records, union-find, per-id tables): like BigVector, blocks of 4 MiB or more are their own
// 2 MiB-aligned huge-page mappings, but a mapping grows by moving its pages into a larger mapping
// (mremap to a fixed, 2 MiB-aligned address: page-table entries move, huge pages stay whole) rather
// than by copying. A std::vector's growth copies every element into freshly zeroed pages; here only
// the pages beyond the old end are new (they are zeroed by the kernel when first written).
// Smaller blocks use malloc/realloc.
template <class T>
class GrowVector {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;

  GrowVector() = default;
  GrowVector(const GrowVector& other) { copy_from(other); }
  GrowVector(GrowVector&& other) noexcept { take(other); }
  GrowVector& operator=(const GrowVector& other) {
    if (this != &other) {
      size_ = 0;
      copy_from(other);
    }
    return *this;
  }
  GrowVector& operator=(GrowVector&& other) noexcept {
    if (this != &other) {
      release();
      take(other);
    }
    return *this;
  }
  ~GrowVector() { release(); }

  std::size_t size() const { return size_; }
  std::size_t capacity() const { return capacity_; }
  bool empty() const { return size_ == 0; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  T& back() { return data_[size_ - 1]; }
  const T& back() const { return data_[size_ - 1]; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }

  void push_back(const T& value) {
    if (size_ == capacity_) [[unlikely]] {
      const T copy = value;  // `value` may live in this vector
      grow(size_ + 1);
      data_[size_++] = copy;
      return;
    }
    data_[size_++] = value;
  }
  void pop_back() { --size_; }
  void clear() { size_ = 0; }
  void reserve(std::size_t n) {
    if (n > capacity_) grow(n);
  }
  void resize(std::size_t n, const T& value = T{}) {
    if (n > capacity_) grow(n);
    for (std::size_t i = size_; i < n; ++i) data_[i] = value;
    size_ = n;
  }
  void assign(std::size_t n, const T& value) {
    size_ = 0;
    resize(n, value);
  }

 private:
  static constexpr bool kOverAligned = alignof(T) > alignof(std::max_align_t);

  void copy_from(const GrowVector& other) {
    if (other.size_ > capacity_) grow(other.size_);
    if (other.size_ > 0)
      std::memcpy(static_cast<void*>(data_), other.data_, other.size_ * sizeof(T));
    size_ = other.size_;
  }
  void take(GrowVector& other) {
    data_ = other.data_;
    size_ = other.size_;
    capacity_ = other.capacity_;
    mapped_ = other.mapped_;
    other.data_ = nullptr;
    other.size_ = other.capacity_ = other.mapped_ = 0;
  }
  void release() {
    if (mapped_ != 0) {
      munmap(data_, mapped_);
    } else {
      std::free(data_);
    }
    data_ = nullptr;
    size_ = capacity_ = mapped_ = 0;
  }

  // Room for at least `needed` elements (and at least twice the current capacity).
  void grow(std::size_t needed) {
    using namespace huge_pages_detail;
    std::size_t want = std::max<std::size_t>({needed, 2 * capacity_, 16});
    const std::size_t bytes = want * sizeof(T);
    if (bytes >= kMinBytes) {
      const std::size_t mapped = rounded(bytes);
      void* p = map_huge(mapped);
      if (!p) throw std::bad_alloc();
      if (mapped_ != 0) {
        // Moves the old pages to the start of the new mapping (replacing its untouched pages).
        if (mremap(data_, mapped_, mapped_, MREMAP_MAYMOVE | MREMAP_FIXED, p) == MAP_FAILED) {
          std::memcpy(p, static_cast<const void*>(data_), size_ * sizeof(T));
          munmap(data_, mapped_);
        }
      } else {
        if (size_ > 0) std::memcpy(p, static_cast<const void*>(data_), size_ * sizeof(T));
        std::free(data_);
      }
      data_ = static_cast<T*>(p);
      mapped_ = mapped;
      capacity_ = mapped / sizeof(T);
      return;
    }
    void* p = nullptr;
    if constexpr (kOverAligned) {
      p = std::aligned_alloc(alignof(T), (bytes + alignof(T) - 1) / alignof(T) * alignof(T));
      if (p && size_ > 0) std::memcpy(p, static_cast<const void*>(data_), size_ * sizeof(T));
      if (p) std::free(data_);
    } else {
      p = std::realloc(static_cast<void*>(data_), bytes);
    }
    if (!p) throw std::bad_alloc();
    data_ = static_cast<T*>(p);
    capacity_ = want;
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
  std::size_t mapped_ = 0;  // bytes of the own mapping, or 0 when data_ comes from malloc
};

}  // namespace mctsat::egraph
