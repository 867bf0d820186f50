#pragma once
// The MPI communicator of a distributed run and the collective helpers every phase uses:
// all-to-all exchanges of any trivially copyable element in bounded rounds (64-bit counts, no
// message ever near 2^31 elements), and the agreement on failures after each phase.
#include <cstdint>
#include <cstring>
#include <exception>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include <mpi.h>

namespace gnnpart::distributed {

struct Comm {
  MPI_Comm comm = MPI_COMM_WORLD;
  int rank = 0;
  int size = 1;
  static Comm world();
};

// Bytes one rank sends to one destination per round of an exchange (bounded buffers).
inline constexpr std::size_t kExchangeRoundBytes = std::size_t{64} << 20;

// Raw exchange: send[offsets[d], offsets[d + 1]) bytes go to rank d; returns what every rank
// sent here, concatenated in rank order, with recv_offsets the boundaries.
std::vector<char> exchange_bytes(const Comm& comm, std::span<const char> send,
                                 std::span<const std::uint64_t> send_offsets,
                                 std::vector<std::uint64_t>& recv_offsets);

// Typed all-to-all: items[send_offsets[d], send_offsets[d + 1]) go to rank d.
template <typename T>
std::vector<T> exchange(const Comm& comm, std::span<const T> items,
                        std::span<const std::uint64_t> send_offsets,
                        std::vector<std::uint64_t>* recv_offsets = nullptr) {
  static_assert(std::is_trivially_copyable_v<T>);
  std::vector<std::uint64_t> byte_offsets(send_offsets.size());
  for (std::size_t d = 0; d < send_offsets.size(); ++d)
    byte_offsets[d] = send_offsets[d] * sizeof(T);
  std::vector<std::uint64_t> recv_bytes;
  const std::vector<char> bytes = exchange_bytes(
      comm, {reinterpret_cast<const char*>(items.data()), items.size() * sizeof(T)}, byte_offsets,
      recv_bytes);
  std::vector<T> out(bytes.size() / sizeof(T));
  if (!bytes.empty())
    std::memcpy(out.data(), bytes.data(), bytes.size());
  if (recv_offsets) {
    recv_offsets->resize(recv_bytes.size());
    for (std::size_t d = 0; d < recv_bytes.size(); ++d)
      (*recv_offsets)[d] = recv_bytes[d] / sizeof(T);
  }
  return out;
}

// Items bucketed by destination rank, then exchanged: a counting sort of (rank, item) pairs.
template <typename T> class Outbox {
public:
  explicit Outbox(int ranks) : buckets_(static_cast<std::size_t>(ranks)) {}
  void add(int rank, const T& item) { buckets_[static_cast<std::size_t>(rank)].push_back(item); }
  std::vector<T> exchange(const Comm& comm, std::vector<std::uint64_t>* recv_offsets = nullptr) {
    std::vector<std::uint64_t> offsets(buckets_.size() + 1, 0);
    for (std::size_t d = 0; d < buckets_.size(); ++d)
      offsets[d + 1] = offsets[d] + buckets_[d].size();
    std::vector<T> flat;
    flat.reserve(offsets.back());
    for (auto& bucket : buckets_) {
      flat.insert(flat.end(), bucket.begin(), bucket.end());
      std::vector<T>().swap(bucket);
    }
    return distributed::exchange<T>(comm, flat, offsets, recv_offsets);
  }

private:
  std::vector<std::vector<T>> buckets_;
};

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
