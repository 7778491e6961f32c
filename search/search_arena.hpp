// The oneTBB arena a search runs its parallel work in: the caller's, when the search shares its
// threads with another one run beside it (strategies.cpp), else one of its own with `threads`
// threads (at least one).
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>

#include <tbb/task_arena.h>

namespace mctsat::search {

class SearchArena {
 public:
  SearchArena(tbb::task_arena* shared, std::size_t threads)
      : own_(shared ? nullptr
                    : std::make_unique<tbb::task_arena>(
                          static_cast<int>(std::max<std::size_t>(threads, 1)))),
        arena_(shared ? *shared : *own_) {}

  tbb::task_arena& get() const { return arena_; }

 private:
  std::unique_ptr<tbb::task_arena> own_;  // when not given one
  tbb::task_arena& arena_;
};

}  // namespace mctsat::search
