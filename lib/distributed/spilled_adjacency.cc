#include "distributed/spilled_adjacency.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>

#include "core/errors.h"
#include "distributed/dist_graph.h"
#include "streaming/temp_file.h"

namespace gnnpart::distributed {

namespace {

std::string errno_message(const std::string& path, const char* what) {
  return path + ": " + what + ": " + std::strerror(errno);
}

} // namespace

SpilledAdjacency::SpilledAdjacency(std::vector<NodeID>& adjacency, const std::string& dir)
    : entries_(adjacency.size()) {
  const std::string directory = streaming::resolve_temp_dir(dir);
  path_ = directory + "/gnnpart-mpi-adjacency-XXXXXX";
  fd_ = ::mkstemp(path_.data());
  if (fd_ < 0)
    throw SystemError(errno_message(directory, "cannot create a scratch file (--temp-dir)"));
  ::unlink(path_.c_str());
  const auto* bytes = reinterpret_cast<const char*>(adjacency.data());
  std::size_t left = adjacency.size() * sizeof(NodeID);
  while (left > 0) {
    const ssize_t wrote = ::write(fd_, bytes, std::min<std::size_t>(left, std::size_t{1} << 26));
    if (wrote < 0 && errno == EINTR)
      continue;
    if (wrote <= 0) {
      const std::string message = errno_message(path_, "cannot write the scratch file");
      ::close(fd_);
      throw SystemError(message);
    }
    bytes += wrote;
    left -= static_cast<std::size_t>(wrote);
  }
  std::vector<NodeID>().swap(adjacency);
}

SpilledAdjacency::~SpilledAdjacency() {
  if (fd_ >= 0)
    ::close(fd_);
}

void SpilledAdjacency::read(EdgeID begin, EdgeID end, NodeID* out) const {
  auto* bytes = reinterpret_cast<char*>(out);
  std::size_t left = static_cast<std::size_t>(end - begin) * sizeof(NodeID);
  auto offset = static_cast<off_t>(begin * sizeof(NodeID));
  while (left > 0) {
    const ssize_t got =
        ::pread(fd_, bytes, std::min<std::size_t>(left, std::size_t{1} << 26), offset);
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0)
      throw SystemError(errno_message(path_, "cannot read the scratch file back"));
    bytes += got;
    offset += got;
    left -= static_cast<std::size_t>(got);
  }
}

void spill_adjacency(DistGraph& graph, const std::string& dir) {
  graph.spilled = std::make_shared<const SpilledAdjacency>(graph.adjacency, dir);
}

void restore_adjacency(DistGraph& graph) {
  if (!graph.spilled)
    return;
  graph.adjacency.resize(graph.spilled->entries());
  graph.spilled->read(0, graph.adjacency.size(), graph.adjacency.data());
  graph.spilled.reset();
}

RowReader::RowReader(const DistGraph& graph, bool ahead) : graph_(graph), ahead_(ahead) {}

std::span<const NodeID> RowReader::operator()(NodeID u) {
  const EdgeID begin = graph_.first_edge(u), end = graph_.last_edge(u);
  if (!graph_.spilled)
    return {graph_.adjacency.data() + begin, static_cast<std::size_t>(end - begin)};
  if (begin < low_ || end > high_) {
    const EdgeID last =
        ahead_ ? std::max(end, std::min(graph_.spilled->entries(), begin + kWindow)) : end;
    buffer_.resize(static_cast<std::size_t>(last - begin));
    graph_.spilled->read(begin, last, buffer_.data());
    low_ = begin;
    high_ = last;
  }
  return {buffer_.data() + (begin - low_), static_cast<std::size_t>(end - begin)};
}

} // namespace gnnpart::distributed
