#pragma once
// Routing a large stream of items to their ranks in bounded rounds: the sender produces its
// items chunk by chunk and holds one chunk's send buffer; the receiver consumes each round's
// items as they arrive, so no exchange keeps a buffer of all its items.
#include <algorithm>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include "distributed/comm.h"

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
      emit(
          round, [&](int rank, const T&) { ++counts[static_cast<std::size_t>(rank)]; },
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
      emit(
          round,
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

} // namespace gnnpart::distributed
