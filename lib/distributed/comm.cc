#include "distributed/comm.h"

#include <algorithm>
#include <limits>

#include "core/errors.h"

namespace gnnpart::distributed {

Comm Comm::world() {
  Comm c;
  c.comm = MPI_COMM_WORLD;
  MPI_Comm_rank(c.comm, &c.rank);
  MPI_Comm_size(c.comm, &c.size);
  return c;
}

std::vector<char> exchange_bytes(const Comm& comm, std::span<const char> send,
                                 std::span<const std::uint64_t> send_offsets,
                                 std::vector<std::uint64_t>& recv_offsets) {
  const std::size_t p = static_cast<std::size_t>(comm.size);
  std::vector<std::uint64_t> send_counts(p), recv_counts(p);
  for (std::size_t d = 0; d < p; ++d)
    send_counts[d] = send_offsets[d + 1] - send_offsets[d];
  MPI_Alltoall(send_counts.data(), 1, MPI_UINT64_T, recv_counts.data(), 1, MPI_UINT64_T,
               comm.comm);
  recv_offsets.assign(p + 1, 0);
  for (std::size_t d = 0; d < p; ++d)
    recv_offsets[d + 1] = recv_offsets[d] + recv_counts[d];
  std::vector<char> recv(recv_offsets[p]);
  // Rounds of at most kExchangeRoundBytes per pair keep every MPI count far below 2^31.
  std::uint64_t largest = 0;
  for (std::size_t d = 0; d < p; ++d)
    largest = std::max({largest, send_counts[d], recv_counts[d]});
  MPI_Allreduce(MPI_IN_PLACE, &largest, 1, MPI_UINT64_T, MPI_MAX, comm.comm);
  const std::uint64_t rounds = (largest + kExchangeRoundBytes - 1) / kExchangeRoundBytes;
  std::vector<int> sc(p), sd(p), rc(p), rd(p);
  std::vector<char> send_round, recv_round;
  for (std::uint64_t round = 0; round < rounds; ++round) {
    const std::uint64_t skip = round * kExchangeRoundBytes;
    int s_total = 0, r_total = 0;
    for (std::size_t d = 0; d < p; ++d) {
      const auto piece = [&](std::uint64_t count) {
        return static_cast<int>(count > skip ? std::min<std::uint64_t>(count - skip,
                                                                       kExchangeRoundBytes)
                                             : 0);
      };
      sc[d] = piece(send_counts[d]);
      rc[d] = piece(recv_counts[d]);
      sd[d] = s_total;
      rd[d] = r_total;
      s_total += sc[d];
      r_total += rc[d];
    }
    send_round.resize(static_cast<std::size_t>(s_total));
    recv_round.resize(static_cast<std::size_t>(r_total));
    for (std::size_t d = 0; d < p; ++d)
      if (sc[d] > 0)
        std::copy_n(send.data() + send_offsets[d] + skip, sc[d], send_round.data() + sd[d]);
    MPI_Alltoallv(send_round.data(), sc.data(), sd.data(), MPI_BYTE, recv_round.data(), rc.data(),
                  rd.data(), MPI_BYTE, comm.comm);
    for (std::size_t d = 0; d < p; ++d)
      if (rc[d] > 0)
        std::copy_n(recv_round.data() + rd[d], rc[d], recv.data() + recv_offsets[d] + skip);
  }
  return recv;
}

std::uint64_t sum_all(const Comm& comm, std::uint64_t value) {
  MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_UINT64_T, MPI_SUM, comm.comm);
  return value;
}
std::int64_t sum_all(const Comm& comm, std::int64_t value) {
  MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_INT64_T, MPI_SUM, comm.comm);
  return value;
}
std::uint64_t max_all(const Comm& comm, std::uint64_t value) {
  MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_UINT64_T, MPI_MAX, comm.comm);
  return value;
}
std::uint64_t exclusive_prefix_sum(const Comm& comm, std::uint64_t value) {
  std::uint64_t before = 0;
  MPI_Exscan(&value, &before, 1, MPI_UINT64_T, MPI_SUM, comm.comm);
  return comm.rank == 0 ? 0 : before;
}
void sum_all_in_place(const Comm& comm, std::vector<std::int64_t>& values) {
  MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_INT64_T, MPI_SUM,
                comm.comm);
}
void sum_all_in_place(const Comm& comm, std::vector<std::uint64_t>& values) {
  MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_UINT64_T,
                MPI_SUM, comm.comm);
}

namespace {
bool g_reported_here = false;
} // namespace

bool reported_here() { return g_reported_here; }

std::uint64_t failure_key(std::exception_ptr failure) {
  if (!failure)
    return std::numeric_limits<std::uint64_t>::max();
  try {
    std::rethrow_exception(failure);
  } catch (const InputError& e) {
    return e.line();
  } catch (...) {
    return std::numeric_limits<std::uint64_t>::max() - 1;
  }
}

void agree_on_failure(const Comm& comm, std::exception_ptr failure, std::uint64_t key) {
  // The failed rank with the smallest key, then the lowest rank among those.
  std::uint64_t best = failure ? key : std::numeric_limits<std::uint64_t>::max();
  std::uint64_t any = failure ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_UINT64_T, MPI_MAX, comm.comm);
  if (!any)
    return;
  MPI_Allreduce(MPI_IN_PLACE, &best, 1, MPI_UINT64_T, MPI_MIN, comm.comm);
  std::uint64_t candidate = failure && key == best ? static_cast<std::uint64_t>(comm.rank)
                                                      : std::numeric_limits<std::uint64_t>::max();
  MPI_Allreduce(MPI_IN_PLACE, &candidate, 1, MPI_UINT64_T, MPI_MIN, comm.comm);
  if (candidate == static_cast<std::uint64_t>(comm.rank)) {
    g_reported_here = true;
    std::rethrow_exception(failure);
  }
  throw PeerFailure();
}

} // namespace gnnpart::distributed
