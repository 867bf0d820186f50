#pragma once
// Routing a large stream of items to their ranks in bounded rounds, and building a distributed
// graph from such a stream without ever holding it: the sender produces its items chunk by
// chunk (a block of a file, a range of vertices) and holds one chunk's send buffer; the
// receiver consumes each round's items as they arrive (counts them, or places them straight
// into the CSR), so no exchange keeps a per-item buffer.
#include <algorithm>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include "distributed/comm.h"
#include "distributed/dist_graph.h"

namespace gnnpart::distributed {

// kFill is the last use of a chunk's data in a stream (the emitter may release it after).
enum class RoutePass { kCount, kFill };

// emit(c, send, pass) produces chunk c (0 <= c < chunks, chunks may differ between ranks) by
// calls send(rank, item); in round c it is called twice with the same sequence, counting
// (pass kCount) and then filling the send buffer (`last`: kFill, else kCount again).
// consume(items) gets what every rank sent here in that round, in rank order. Collective.
template <typename T, typename Emit, typename Consume>
void route_rounds(const Comm& comm, std::uint64_t chunks, Emit&& emit, Consume&& consume,
                  RoutePass last = RoutePass::kFill) {
  static_assert(std::is_trivially_copyable_v<T>);
  const std::size_t p = static_cast<std::size_t>(comm.size);
  const std::uint64_t rounds = max_all(comm, chunks);
  std::vector<T> send_buffer, recv_buffer;
  std::vector<std::uint64_t> fill(p), counts(p);
  std::vector<int> sc(p), sd(p), rc(p), rd(p);
  for (std::uint64_t round = 0; round < rounds; ++round) {
    std::fill(counts.begin(), counts.end(), 0);
    if (round < chunks)
      emit(round, [&](int rank, const T&) { ++counts[static_cast<std::size_t>(rank)]; },
           RoutePass::kCount);
    std::uint64_t sent = 0;
    for (std::size_t d = 0; d < p; ++d) {
      fill[d] = sent;
      sd[d] = static_cast<int>(sent);
      sc[d] = static_cast<int>(counts[d]);
      sent += counts[d];
    }
    send_buffer.resize(sent);
    if (round < chunks)
      emit(round,
           [&](int rank, const T& item) {
             send_buffer[fill[static_cast<std::size_t>(rank)]++] = item;
           },
           last);
    const std::vector<std::uint64_t> arriving = exchange_counts(comm, counts);
    std::uint64_t received = 0;
    for (std::size_t d = 0; d < p; ++d) {
      rd[d] = static_cast<int>(received);
      rc[d] = static_cast<int>(arriving[d]);
      received += arriving[d];
    }
    recv_buffer.resize(received);
    alltoallv_round(comm, send_buffer.data(), sc, sd, recv_buffer.data(), rc, rd, sizeof(T));
    consume(std::span<const T>(recv_buffer));
  }
}

// Builds this rank's part of the graph whose entries (T = Entry or Entry32 with weights, Edge
// without; global ids, any order, self loops and parallel entries allowed) every rank emits by
// chunks as route_rounds' emit does, each entry to the owner of its source under vtxdist. Two
// streams: the sources only (degrees), then the entries, placed straight into their CSR rows
// (the offsets serve as fill cursors); so the per-entry memory is the CSR itself (4 bytes per
// entry, 8 or 12 with weights). Collective.
template <typename T, typename Emit>
DistGraph build_dist_graph_streamed(const Comm& comm, std::vector<std::uint64_t> vtxdist,
                                    std::uint64_t chunks, Emit&& emit,
                                    std::vector<Weight> vertex_weights, Merge merge) {
  DistGraph g;
  g.rank = comm.rank;
  g.vtxdist = std::move(vtxdist);
  const NodeID first = static_cast<NodeID>(g.vtxdist[comm.rank]);
  g.n_local = static_cast<NodeID>(g.vtxdist[comm.rank + 1] - first);
  g.offsets.assign(static_cast<std::size_t>(g.n_local) + 1, 0);
  route_rounds<NodeID>(
      comm, chunks,
      [&](std::uint64_t c, auto&& send, RoutePass pass) {
        emit(c, [&](int rank, const T& e) { send(rank, e.u); }, pass);
      },
      [&](std::span<const NodeID> sources) {
        for (const NodeID u : sources)
          ++g.offsets[u - first + 1];
      },
      RoutePass::kCount);
  // offsets[u] = where row u - 1 ends = where row u begins; offsets[u + 1] fills row u.
  for (NodeID u = 0; u < g.n_local; ++u)
    g.offsets[u + 1] += g.offsets[u];
  const EdgeID total = g.offsets[g.n_local];
  for (NodeID u = g.n_local; u > 0; --u)
    g.offsets[u] = g.offsets[u - 1];
  g.adjacency.resize(total);
  if constexpr (std::is_same_v<T, Entry>)
    g.edge_weights.resize(total);
  if constexpr (std::is_same_v<T, Entry32>)
    g.edge_weights32.resize(total);
  route_rounds<T>(comm, chunks, emit, [&](std::span<const T> entries) {
    for (const T& e : entries) {
      const EdgeID at = g.offsets[e.u - first + 1]++;
      g.adjacency[at] = e.v;
      if constexpr (std::is_same_v<T, Entry>)
        g.edge_weights[at] = e.w;
      if constexpr (std::is_same_v<T, Entry32>)
        g.edge_weights32[at] = e.w;
    }
  });
  g.vertex_weights = std::move(vertex_weights);
  finish_dist_graph(comm, g, merge);
  return g;
}

} // namespace gnnpart::distributed
