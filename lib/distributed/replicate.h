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

// Every rank's part concatenated (rank order) on every rank. Collective.
template <typename T> std::vector<T> all_gather(const Comm& comm, const std::vector<T>& mine) {
  const std::uint64_t bytes = mine.size() * sizeof(T);
  if (bytes > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
    throw Unsupported("a level is too large to replicate (> 2 GiB per rank part)");
  const int count = static_cast<int>(bytes);
  std::vector<int> counts(static_cast<std::size_t>(comm.size)), displs(counts.size(), 0);
  MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, comm.comm);
  std::int64_t total = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    if (total > std::numeric_limits<int>::max())
      throw Unsupported("a level is too large to replicate (> 2 GiB)");
    displs[r] = static_cast<int>(total);
    total += counts[r];
  }
  std::vector<T> all(static_cast<std::size_t>(total) / sizeof(T));
  MPI_Allgatherv(mine.data(), count, MPI_BYTE, all.data(), counts.data(), displs.data(), MPI_BYTE,
                 comm.comm);
  return all;
}

// The whole graph (global ids, vertex and edge weights) on every rank. Collective.
CsrGraph replicate(const Comm& comm, const DistGraph& graph);

// The rank whose (over the bound, objective) is the smallest, ties to the lowest rank; the
// same on every rank. Collective.
int best_rank(const Comm& comm, bool over, std::uint64_t objective);

} // namespace gnnpart::distributed
