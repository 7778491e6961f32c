// Keeping freed memory for reuse (see allocator_reuse.hpp).
#include "support/allocator_reuse.hpp"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace mctsat {

void keep_freed_memory_for_reuse() {
#if defined(__GLIBC__)
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 64 << 20);
#endif
}

}  // namespace mctsat
