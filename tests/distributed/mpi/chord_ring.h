#pragma once
// The test graph of the MPI tests (tests/distributed/mpi): a ring of kVertices with chords,
// split over the ranks in equal ranges.
#include <cstdint>
#include <vector>

#include "distributed/chunked_route.h"

namespace gnnpart::distributed::test {

inline constexpr NodeID kVertices = 3000;

// A ring with chords: u is joined to u ± 1, u ± 7 and u ± 113 (mod n), every entry of
// `weight` (1: unweighted).
inline DistGraph chord_ring(const Comm& comm, Weight weight = 1) {
  std::vector<std::uint64_t> vtxdist(static_cast<std::size_t>(comm.size) + 1);
  for (int r = 0; r <= comm.size; ++r)
    vtxdist[static_cast<std::size_t>(r)] = std::uint64_t{kVertices} * r / comm.size;
  DistGraph g = empty_rows(comm, std::move(vtxdist));
  const NodeID first = g.first();
  std::vector<Entry> entries;
  for (NodeID u = first; u < first + g.n_local; ++u)
    for (const NodeID step : {1u, 7u, 113u}) {
      entries.push_back({u, (u + step) % kVertices, weight});
      entries.push_back({u, (u + kVertices - step) % kVertices, weight});
    }
  for (const Entry& e : entries)
    ++g.offsets[e.u - first + 1];
  if (weight == 1) {
    start_rows<Edge>(g);
    for (const Entry& e : entries)
      place_entry(g, first, Edge{e.u, e.v});
  } else {
    start_rows<Entry>(g);
    for (const Entry& e : entries)
      place_entry(g, first, e);
  }
  finish_dist_graph(comm, g, Merge::kMax);
  return g;
}

} // namespace gnnpart::distributed::test
