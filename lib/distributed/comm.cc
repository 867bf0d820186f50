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

std::vector<std::uint64_t> exchange_counts(const Comm& comm,
                                           const std::vector<std::uint64_t>& send_counts) {
  std::vector<std::uint64_t> recv_counts(send_counts.size());
  MPI_Alltoall(send_counts.data(), 1, MPI_UINT64_T, recv_counts.data(), 1, MPI_UINT64_T,
               comm.comm);
  return recv_counts;
}

void alltoallv_round(const Comm& comm, const void* send, const std::vector<int>& send_counts,
                     const std::vector<int>& send_displs, void* recv,
                     const std::vector<int>& recv_counts, const std::vector<int>& recv_displs,
                     std::size_t bytes) {
  MPI_Datatype element;
  MPI_Type_contiguous(static_cast<int>(bytes), MPI_BYTE, &element);
  MPI_Type_commit(&element);
  MPI_Alltoallv(send, send_counts.data(), send_displs.data(), element, recv, recv_counts.data(),
                recv_displs.data(), element, comm.comm);
  MPI_Type_free(&element);
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
