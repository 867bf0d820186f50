#pragma once
// Routing a large stream of items to their ranks in bounded rounds: the sender produces its
// items chunk by chunk (a block of a file, a range of vertices) and never holds more than one
// chunk's send buffer; the receiver gets every item into one buffer allocated once at its exact
// final size. So the only per-item memory of an exchange is the received items themselves.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <vector>

#include "distributed/comm.h"

namespace gnnpart::distributed {

enum class RoutePass { kCount, kFill };

// emit(c, send, pass) produces chunk c (0 <= c < chunks, chunks may differ between ranks) by
// calls send(rank, item); it is called twice per chunk with the same sequence: once counting
// and once filling (chunk c in round c, after which the emitter may release the chunk's data).
// The count of chunk c comes just before its fill when the caller knows how many items this
// rank receives in all (`incoming`), else in a first pass over all chunks before anything is
// sent. The result holds what every rank sent here, ordered by round, then by source rank.
// Collective.
template <typename T, typename Emit>
std::vector<T> route_chunked(const Comm& comm, std::uint64_t chunks, Emit&& emit,
                             std::optional<std::uint64_t> incoming = std::nullopt) {
  static_assert(std::is_trivially_copyable_v<T>);
  const std::size_t p = static_cast<std::size_t>(comm.size);
  const auto count_chunk = [&](std::uint64_t c, std::uint64_t* counts) {
    emit(
        c, [&](int rank, const T&) { ++counts[static_cast<std::size_t>(rank)]; },
        RoutePass::kCount);
  };
  // Counting pass: items per (chunk, destination), then the exact total this rank receives.
  const bool count_per_round = incoming.has_value();
  std::vector<std::uint64_t> counts(count_per_round ? 0 : chunks * p, 0);
  if (!count_per_round) {
    std::vector<std::uint64_t> totals(p, 0);
    for (std::uint64_t c = 0; c < chunks; ++c) {
      count_chunk(c, counts.data() + c * p);
      for (std::size_t d = 0; d < p; ++d)
        totals[d] += counts[c * p + d];
    }
    incoming = 0;
    for (const std::uint64_t count : exchange_counts(comm, totals))
      *incoming += count;
  }
  const std::uint64_t rounds = max_all(comm, chunks);

  std::vector<T> out;
  out.reserve(*incoming);
  std::vector<T> send_buffer;
  std::vector<std::uint64_t> fill(p), chunk_counts(p);
  std::vector<int> sc(p), sd(p), rc(p), rd(p);
  for (std::uint64_t round = 0; round < rounds; ++round) {
    std::fill(chunk_counts.begin(), chunk_counts.end(), 0);
    if (round < chunks && count_per_round)
      count_chunk(round, chunk_counts.data());
    else if (round < chunks)
      std::copy_n(counts.data() + round * p, p, chunk_counts.data());
    std::uint64_t sent = 0;
    for (std::size_t d = 0; d < p; ++d) {
      fill[d] = sent;
      sd[d] = static_cast<int>(sent);
      sc[d] = static_cast<int>(chunk_counts[d]);
      sent += chunk_counts[d];
    }
    send_buffer.resize(sent);
    if (round < chunks)
      emit(
          round,
          [&](int rank, const T& item) {
            send_buffer[fill[static_cast<std::size_t>(rank)]++] = item;
          },
          RoutePass::kFill);
    const std::vector<std::uint64_t> arriving = exchange_counts(comm, chunk_counts);
    std::uint64_t received = 0;
    for (std::size_t d = 0; d < p; ++d) {
      rd[d] = static_cast<int>(received);
      rc[d] = static_cast<int>(arriving[d]);
      received += arriving[d];
    }
    const std::size_t base = out.size();
    if (base + received > out.capacity())
      throw std::logic_error("route_chunked: more items arrived than announced");
    out.resize(base + received); // within the reserved capacity: no reallocation
    alltoallv_round(comm, send_buffer.data(), sc, sd, out.data() + base, rc, rd, sizeof(T));
  }
  return out;
}

} // namespace gnnpart::distributed
