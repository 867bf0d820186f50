#include "distributed/binary_slices.h"

#include <cerrno>
#include <cstring>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

#include "core/errors.h"
#include "streaming/binary_format.h"

namespace gnnpart::distributed {

namespace {

constexpr std::uint64_t kRecordsPerBlock = std::uint64_t{1} << 20;

class Fd {
public:
  explicit Fd(const std::string& path) : fd_(::open(path.c_str(), O_RDONLY)) {
    if (fd_ < 0)
      throw InputError(path, 0, std::string("cannot open: ") + std::strerror(errno));
  }
  ~Fd() { ::close(fd_); }
  int get() const { return fd_; }

private:
  int fd_;
};

// Reads exactly size bytes at offset; false when the file ends first.
bool read_at(int fd, char* out, std::size_t size, std::uint64_t offset) {
  std::size_t done = 0;
  while (done < size) {
    const ssize_t got = ::pread(fd, out + done, size - done, static_cast<off_t>(offset + done));
    if (got <= 0)
      return false;
    done += static_cast<std::size_t>(got);
  }
  return true;
}

} // namespace

BinaryInput probe_binary_input(const std::string& path) {
  const Fd fd(path);
  char bytes[streaming::kBinaryHeaderBytes];
  BinaryInput input;
  if (!read_at(fd.get(), bytes, sizeof bytes, 0))
    return input;
  const streaming::BinaryHeader header = streaming::decode_header(bytes, sizeof bytes, path);
  if (header.kind == streaming::BinaryKind::kAdjacencyStream)
    throw Unsupported(path + ": gnnpart-mpi reads binary edge streams, not adjacency streams");
  input.edge_stream = header.kind == streaming::BinaryKind::kEdgeStream;
  input.n = header.n;
  input.m = header.m;
  return input;
}

void read_edge_stream_slice(const std::string& path, const BinaryInput& input, int rank,
                            int ranks, const std::function<void(NodeID, NodeID)>& edge) {
  const Fd fd(path);
  const auto share = [&](int r) {
    return static_cast<std::uint64_t>(static_cast<unsigned __int128>(input.m) *
                                      static_cast<unsigned>(r) / static_cast<unsigned>(ranks));
  };
  const std::uint64_t begin = share(rank), end = share(rank + 1);
  std::vector<NodeID> block;
  for (std::uint64_t at = begin; at < end; at += kRecordsPerBlock) {
    const std::uint64_t count = std::min(kRecordsPerBlock, end - at);
    block.resize(2 * count);
    if (!read_at(fd.get(), reinterpret_cast<char*>(block.data()), block.size() * sizeof(NodeID),
                 streaming::kBinaryHeaderBytes + at * 2 * sizeof(NodeID)))
      throw InputError(path, 0,
                       "truncated edge stream: the header declares " + std::to_string(input.m) +
                           " edges");
    for (std::uint64_t i = 0; i < count; ++i) {
      const NodeID u = block[2 * i], v = block[2 * i + 1];
      if (u >= input.n || v >= input.n)
        throw InputError(path, 0,
                         "edge " + std::to_string(at + i) + " has a vertex id >= n = " +
                             std::to_string(input.n));
      edge(u, v);
    }
  }
}

} // namespace gnnpart::distributed
