#pragma once
// Work runs inside a task_arena sized by the caller's thread count, never in global TBB
// settings, so an embedding trainer keeps control of its cores.
#include <thread>
#include <utility>

#include <tbb/task_arena.h>

namespace gnnpart {

// threads <= 0 means all hardware threads.
inline int resolve_threads(int threads) {
  if (threads > 0) return threads;
  const unsigned hw = std::thread::hardware_concurrency();
  return hw == 0 ? 1 : static_cast<int>(hw);
}

template <typename F>
decltype(auto) run_with_threads(int threads, F&& f) {
  tbb::task_arena arena(resolve_threads(threads));
  return arena.execute(std::forward<F>(f));
}

}  // namespace gnnpart
