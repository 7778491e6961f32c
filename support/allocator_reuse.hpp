// Keeping freed memory for reuse, for commands that make and delete many short-lived objects
// with large blocks (the verifier makes a Z3 context per numeric sample). By default glibc gives
// blocks of 128 KiB and more back to the kernel when they are freed, so every new context faults
// fresh pages in and the kernel zeroes them; with this, blocks up to 32 MiB come from the heap and
// up to 64 MiB of freed heap is kept. Process-wide; only where memory goes changes, not results.
// A no-op with other C libraries.
#pragma once

namespace mctsat {

void keep_freed_memory_for_reuse();

}  // namespace mctsat
