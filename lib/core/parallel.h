#pragma once
// Work runs inside a task_arena sized by the caller's thread count, never in global TBB
// settings, so an embedding trainer keeps control of its cores.
#include <thread>
#include <utility>

#include <tbb/task_arena.h>

namespace gnnpart {

// threads <= 0 means all hardware threads, on every front end (gnnpart_defaults.h: the default).
inline int resolve_threads(int threads) {
  if (threads > 0) return threads;
  const unsigned hw = std::thread::hardware_concurrency();
  return hw == 0 ? 1 : static_cast<int>(hw);
}

// Runs f in a task_arena of `threads` workers. Each public entry point opens the one arena of
// its call; an inner function asking for the same size runs in it instead of nesting a second.
template <typename F>
decltype(auto) run_with_threads(int threads, F&& f) {
  const int size = resolve_threads(threads);
  if (tbb::this_task_arena::max_concurrency() == size) return std::forward<F>(f)();
  tbb::task_arena arena(size);
  return arena.execute(std::forward<F>(f));
}

}  // namespace gnnpart
