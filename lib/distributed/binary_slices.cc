#include "distributed/binary_slices.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

#include "core/errors.h"
#include "streaming/binary_format.h"

namespace gnnpart::distributed {

namespace {

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

EdgeStreamSlice::EdgeStreamSlice(const std::string& path, const BinaryInput& input, int rank,
                                 int ranks, std::uint64_t records_per_block)
    : path_(path), input_(input), fd_(::open(path.c_str(), O_RDONLY)),
      per_block_(std::max<std::uint64_t>(1, records_per_block)) {
  if (fd_ < 0)
    throw InputError(path, 0, std::string("cannot open: ") + std::strerror(errno));
  const auto share = [&](int r) {
    return static_cast<std::uint64_t>(static_cast<unsigned __int128>(input.m) *
                                      static_cast<unsigned>(r) / static_cast<unsigned>(ranks));
  };
  begin_ = share(rank);
  end_ = share(rank + 1);
}

EdgeStreamSlice::~EdgeStreamSlice() {
  ::close(fd_);
}

std::uint64_t EdgeStreamSlice::blocks() const {
  return (end_ - begin_ + per_block_ - 1) / per_block_;
}

void EdgeStreamSlice::load(std::uint64_t b) {
  if (b == loaded_)
    return;
  loaded_ = ~std::uint64_t{0};
  const std::uint64_t at = begin_ + b * per_block_;
  const std::uint64_t count = std::min(per_block_, end_ - at);
  block_.resize(2 * count);
  if (!read_at(fd_, reinterpret_cast<char*>(block_.data()), block_.size() * sizeof(NodeID),
               streaming::kBinaryHeaderBytes + at * 2 * sizeof(NodeID)))
    throw InputError(path_, 0,
                     "truncated edge stream: the header declares " + std::to_string(input_.m) +
                         " edges");
  for (std::uint64_t i = 0; i < 2 * count; ++i)
    if (block_[i] >= input_.n)
      throw InputError(path_, 0,
                       "edge " + std::to_string(at + i / 2) +
                           " has a vertex id >= n = " + std::to_string(input_.n));
  loaded_ = b;
}

} // namespace gnnpart::distributed
