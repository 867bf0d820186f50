#pragma once
// The MPI communicator of a distributed run and the collective helpers every phase uses:
// all-to-all exchanges of any trivially copyable element in bounded rounds (64-bit counts, no
// message ever near 2^31 elements), and the agreement on failures after each phase.
#include <cstdint>
#include <algorithm>
#include <cstring>
#include <exception>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include <mpi.h>

namespace gnnpart::distributed {

// Items per round of the streamed exchanges, from all ranks together (--chunk-items).
inline constexpr std::uint64_t kDefaultChunkItems = std::uint64_t{1} << 18;

struct Comm {
  MPI_Comm comm = MPI_COMM_WORLD;
  int rank = 0;
  int size = 1;
  // Items a streamed exchange (ghost updates) brings one rank per round from all ranks together
  // (--chunk-items); the results never depend on it.
  std::uint64_t round_items = kDefaultChunkItems;
  static Comm world();
};

// Bytes one rank sends to one destination per round of an exchange (bounded buffers).
inline constexpr std::size_t kExchangeRoundBytes = std::size_t{64} << 20;

// Element counts per destination (send) and per source (returned), exchanged all-to-all.
std::vector<std::uint64_t> exchange_counts(const Comm& comm,
                                           const std::vector<std::uint64_t>& send_counts);
// One MPI_Alltoallv round of elements of `bytes` bytes; counts in elements (each < 2^31).
void alltoallv_round(const Comm& comm, const void* send, const std::vector<int>& send_counts,
                     const std::vector<int>& send_displs, void* recv,
                     const std::vector<int>& recv_counts, const std::vector<int>& recv_displs,
                     std::size_t bytes);

// Typed all-to-all: items[send_offsets[d], send_offsets[d + 1]) go to rank d; the result holds
// what every rank sent here, in rank order (recv_offsets: its boundaries). Large exchanges run
// in rounds of at most kExchangeRoundBytes per pair; a single round sends straight from items.
template <typename T>
std::vector<T> exchange(const Comm& comm, std::span<const T> items,
                        std::span<const std::uint64_t> send_offsets,
                        std::vector<std::uint64_t>* recv_offsets = nullptr) {
  static_assert(std::is_trivially_copyable_v<T>);
  const std::size_t p = static_cast<std::size_t>(comm.size);
  std::vector<std::uint64_t> send_counts(p);
  for (std::size_t d = 0; d < p; ++d)
    send_counts[d] = send_offsets[d + 1] - send_offsets[d];
  const std::vector<std::uint64_t> recv_counts = exchange_counts(comm, send_counts);
  std::vector<std::uint64_t> offsets(p + 1, 0);
  for (std::size_t d = 0; d < p; ++d)
    offsets[d + 1] = offsets[d] + recv_counts[d];
  std::vector<T> out(offsets[p]);
  constexpr std::uint64_t kRound = std::max<std::uint64_t>(1, kExchangeRoundBytes / sizeof(T));
  std::uint64_t largest = 0;
  for (std::size_t d = 0; d < p; ++d)
    largest = std::max({largest, send_counts[d], recv_counts[d]});
  MPI_Allreduce(MPI_IN_PLACE, &largest, 1, MPI_UINT64_T, MPI_MAX, comm.comm);
  const std::uint64_t rounds = (largest + kRound - 1) / kRound;
  std::vector<int> sc(p), sd(p), rc(p), rd(p);
  std::vector<T> send_round, recv_round;
  for (std::uint64_t round = 0; round < rounds; ++round) {
    const std::uint64_t skip = round * kRound;
    const auto piece = [&](std::uint64_t count) {
      return static_cast<int>(count > skip ? std::min(count - skip, kRound) : 0);
    };
    std::uint64_t s_total = 0, r_total = 0;
    for (std::size_t d = 0; d < p; ++d) {
      sc[d] = piece(send_counts[d]);
      rc[d] = piece(recv_counts[d]);
      sd[d] = static_cast<int>(rounds == 1 ? send_offsets[d] : s_total);
      rd[d] = static_cast<int>(rounds == 1 ? offsets[d] : r_total);
      s_total += static_cast<std::uint64_t>(sc[d]);
      r_total += static_cast<std::uint64_t>(rc[d]);
    }
    constexpr std::uint64_t kMaxDispl = 0x7fffffff;
    if (rounds == 1 && items.size() <= kMaxDispl && out.size() <= kMaxDispl) {
      alltoallv_round(comm, items.data(), sc, sd, out.data(), rc, rd, sizeof(T));
      break;
    }
    if (rounds == 1) { // displacements past 2^31 elements: copy like any round
      s_total = r_total = 0;
      for (std::size_t d = 0; d < p; ++d) {
        sd[d] = static_cast<int>(s_total);
        rd[d] = static_cast<int>(r_total);
        s_total += static_cast<std::uint64_t>(sc[d]);
        r_total += static_cast<std::uint64_t>(rc[d]);
      }
    }
    send_round.resize(s_total);
    recv_round.resize(r_total);
    for (std::size_t d = 0; d < p; ++d)
      std::copy_n(items.data() + send_offsets[d] + skip, sc[d], send_round.data() + sd[d]);
    alltoallv_round(comm, send_round.data(), sc, sd, recv_round.data(), rc, rd, sizeof(T));
    for (std::size_t d = 0; d < p; ++d)
      std::copy_n(recv_round.data() + rd[d], rc[d], out.data() + offsets[d] + skip);
  }
  if (recv_offsets)
    *recv_offsets = std::move(offsets);
  return out;
}

// Routes items to ranks without a second copy per destination: emit(send) is called twice with
// the same sequence of send(rank, item) calls, first to count, then to fill the buffer in
// destination order. Collective.
template <typename T, typename Emit>
std::vector<T> route(const Comm& comm, Emit&& emit,
                     std::vector<std::uint64_t>* recv_offsets = nullptr) {
  const std::size_t p = static_cast<std::size_t>(comm.size);
  std::vector<std::uint64_t> offsets(p + 1, 0);
  emit([&](int rank, const T&) { ++offsets[static_cast<std::size_t>(rank) + 1]; });
  for (std::size_t d = 0; d < p; ++d)
    offsets[d + 1] += offsets[d];
  std::vector<T> items(offsets[p]);
  {
    std::vector<std::uint64_t> fill(offsets.begin(), offsets.end() - 1);
    emit([&](int rank, const T& item) { items[fill[static_cast<std::size_t>(rank)]++] = item; });
  }
  if (comm.size == 1) { // nothing to send: the buffer is the result
    if (recv_offsets)
      *recv_offsets = std::move(offsets);
    return items;
  }
  return exchange<T>(comm, items, offsets, recv_offsets);
}

std::uint64_t sum_all(const Comm& comm, std::uint64_t value);
std::int64_t sum_all(const Comm& comm, std::int64_t value);
std::uint64_t max_all(const Comm& comm, std::uint64_t value);
std::uint64_t exclusive_prefix_sum(const Comm& comm, std::uint64_t value);
void sum_all_in_place(const Comm& comm, std::vector<std::int64_t>& values);
void sum_all_in_place(const Comm& comm, std::vector<std::uint64_t>& values);

// Thrown on the ranks that did not fail themselves when another rank failed a phase: the
// failing rank reports the error, the others exit non-zero quietly.
class PeerFailure : public std::exception {
public:
  const char* what() const noexcept override { return "another rank failed"; }
};

// Ends a phase on every rank: when any rank failed, the failure with the smallest key (for
// input errors the line number; ties and other errors: the lowest rank) is rethrown on its
// rank and PeerFailure on all others. Collective.
void agree_on_failure(const Comm& comm, std::exception_ptr failure, std::uint64_t key);

// True on the rank where agree_on_failure rethrew the failure it holds (that rank reports it).
bool reported_here();

// Runs phase() on every rank and agrees on failure (keys from InputError lines).
template <typename F> auto run_phase(const Comm& comm, F&& phase) -> decltype(phase());

std::uint64_t failure_key(std::exception_ptr failure);

template <typename F> auto run_phase(const Comm& comm, F&& phase) -> decltype(phase()) {
  std::exception_ptr failure;
  if constexpr (std::is_void_v<decltype(phase())>) {
    try {
      phase();
    } catch (...) {
      failure = std::current_exception();
    }
    agree_on_failure(comm, failure, failure_key(failure));
  } else {
    decltype(phase()) result{};
    try {
      result = phase();
    } catch (...) {
      failure = std::current_exception();
    }
    agree_on_failure(comm, failure, failure_key(failure));
    return result;
  }
}

} // namespace gnnpart::distributed
