#include "distributed/partition_writer.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <limits>

#include "core/errors.h"
#include "io/replace_file.h"

namespace gnnpart::distributed {

namespace {

constexpr std::size_t kWriteBytes = std::size_t{64} << 20; // per MPI_File_write_at call

std::string mpi_error(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  return std::string(text, static_cast<std::size_t>(length));
}

} // namespace

void write_distributed_partition(const Comm& comm, const DistGraph& graph,
                                 const std::vector<BlockID>& blocks, const std::string& path) {
  if (path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0)
    run_phase(comm, [&] {
      throw Unsupported(path + ": gnnpart-mpi writes plain partition files (no .gz)");
    });
  std::string text;
  text.reserve(static_cast<std::size_t>(graph.n_local) * 3);
  char digits[16];
  for (NodeID u = 0; u < graph.n_local; ++u) {
    const auto [end, ec] = std::to_chars(digits, digits + sizeof digits, blocks[u]);
    text.append(digits, end);
    text.push_back('\n');
  }
  const std::uint64_t offset = exclusive_prefix_sum(comm, text.size());
  const std::string temp = path + ".tmp-gnnpart-mpi";
  MPI_File file;
  int status = MPI_File_open(comm.comm, temp.c_str(), MPI_MODE_CREATE | MPI_MODE_WRONLY,
                             MPI_INFO_NULL, &file);
  run_phase(comm, [&] {
    if (status != MPI_SUCCESS)
      throw SystemError(temp + ": cannot create: " + mpi_error(status));
  });
  MPI_File_set_size(file, 0);
  // Every rank makes the same number of collective calls.
  const std::uint64_t calls = max_all(comm, (text.size() + kWriteBytes - 1) / kWriteBytes);
  int failed = 0;
  for (std::uint64_t c = 0; c < calls; ++c) {
    const std::size_t begin = std::min(text.size(), c * kWriteBytes);
    const std::size_t count = std::min(kWriteBytes, text.size() - begin);
    MPI_Status st;
    status = MPI_File_write_at_all(file, static_cast<MPI_Offset>(offset + begin),
                                   text.data() + begin, static_cast<int>(count), MPI_CHAR, &st);
    failed |= status != MPI_SUCCESS;
  }
  status = MPI_File_close(&file);
  failed |= status != MPI_SUCCESS;
  const bool any_failed = max_all(comm, static_cast<std::uint64_t>(failed)) > 0;
  run_phase(comm, [&] {
    if (comm.rank == 0) {
      if (any_failed) {
        std::remove(temp.c_str());
        throw SystemError(path + ": cannot write the partition");
      }
      try {
        io::replace_file(temp, path, path);
      } catch (const SystemError&) {
        std::remove(temp.c_str()); // the new file, or the old one once swapped out
        throw;
      }
    }
  });
}

} // namespace gnnpart::distributed
