#pragma once
// A small distributed level copied onto every rank (for the shared-memory engine), and the
// agreement on the best of the ranks' results.
#include <cstdint>
#include <limits>
#include <vector>

#include "core/errors.h"
#include "core/graph.h"
#include "distributed/comm.h"
#include "distributed/dist_graph.h"

namespace gnnpart::distributed {

// An all-gather into the final array: all_gather_layout says where every rank's `count`
// elements go (rank order; at most 2^31 - 1 in all); the caller writes its own at `mine` and
// all_gather_in_place fills in the others' (elements of `bytes` bytes), so no copy of the
// rank's part is made. Collective.
struct GatherLayout {
  std::vector<int> counts, displs; // elements per rank and their first position
  std::uint64_t total = 0;
  std::uint64_t mine = 0; // this rank's first position
};
GatherLayout all_gather_layout(const Comm& comm, std::uint64_t count);
void all_gather_in_place(const Comm& comm, const GatherLayout& layout, void* all,
                         std::size_t bytes);

// Every rank's part concatenated (rank order) on every rank. Collective.
template <typename T> std::vector<T> all_gather(const Comm& comm, const std::vector<T>& mine) {
  const GatherLayout layout = all_gather_layout(comm, mine.size());
  std::vector<T> all(layout.total);
  std::copy(mine.begin(), mine.end(), all.begin() + static_cast<std::ptrdiff_t>(layout.mine));
  all_gather_in_place(comm, layout, all.data(), sizeof(T));
  return all;
}

// The whole graph (global ids, vertex and edge weights) on every rank, gathered straight into
// the copy's arrays. Collective.
CsrGraph replicate(const Comm& comm, const DistGraph& graph);

// The rank whose (over the bound, objective) is the smallest, ties to the lowest rank; the
// same on every rank. Collective.
int best_rank(const Comm& comm, bool over, std::uint64_t objective);

} // namespace gnnpart::distributed
