#include "distributed/partition_writer.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <exception>
#include <limits>
#include <memory>
#include <string_view>

#include "core/errors.h"
#include "io/output_file.h"
#include "io/output_target.h"
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

// Whether `path` leads to a device, a FIFO or an open descriptor ("-", /dev/stdout), as rank 0
// sees it: such a target takes neither MPI-IO's file offsets nor a rename (a rename would
// replace /dev/null with a regular file). Collective.
bool special_target(const Comm& comm, const std::string& path) {
  const bool special = run_phase(comm, [&] {
    return comm.rank == 0 &&
           io::resolve_output_target(path).kind != io::OutputTarget::Kind::kRegular;
  });
  return max_all(comm, special ? 1 : 0) != 0;
}

// Rank 0 writes every rank's text in rank order, received in chunks of at most kWriteBytes, so
// no rank holds more than its own text and one chunk. A failed write on rank 0 is kept until
// every chunk was received, so no sender waits on it. Collective.
void write_through_rank0(const Comm& comm, const std::string& text, const std::string& path) {
  if (comm.rank != 0) {
    const std::uint64_t size = text.size();
    MPI_Send(&size, 1, MPI_UINT64_T, 0, 0, comm.comm);
    for (std::size_t begin = 0; begin < text.size(); begin += kWriteBytes) {
      const std::size_t count = std::min(kWriteBytes, text.size() - begin);
      MPI_Send(text.data() + begin, static_cast<int>(count), MPI_CHAR, 0, 1, comm.comm);
    }
    run_phase(comm, [] {});
    return;
  }
  std::exception_ptr failure;
  std::unique_ptr<io::OutputFile> out;
  auto write = [&](std::string_view bytes) {
    if (failure)
      return;
    try {
      if (!out)
        out = std::make_unique<io::OutputFile>(path, false);
      out->write(bytes);
    } catch (...) {
      failure = std::current_exception();
    }
  };
  write(text);
  std::string chunk;
  for (int r = 1; r < comm.size; ++r) {
    std::uint64_t size = 0;
    MPI_Recv(&size, 1, MPI_UINT64_T, r, 0, comm.comm, MPI_STATUS_IGNORE);
    for (std::uint64_t begin = 0; begin < size; begin += kWriteBytes) {
      chunk.resize(static_cast<std::size_t>(std::min<std::uint64_t>(kWriteBytes, size - begin)));
      MPI_Recv(chunk.data(), static_cast<int>(chunk.size()), MPI_CHAR, r, 1, comm.comm,
               MPI_STATUS_IGNORE);
      write(chunk);
    }
  }
  run_phase(comm, [&] {
    if (failure)
      std::rethrow_exception(failure);
    if (!out) // nothing to write: the target is still opened, as for any output
      out = std::make_unique<io::OutputFile>(path, false);
    out->commit();
  });
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
  if (special_target(comm, path)) {
    write_through_rank0(comm, text, path);
    return;
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
