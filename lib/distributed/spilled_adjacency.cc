#include "distributed/spilled_adjacency.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

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

ScratchFile::ScratchFile(const std::string& dir) {
  const std::string directory = streaming::resolve_temp_dir(dir);
  path_ = directory + "/gnnpart-mpi-scratch-XXXXXX";
  fd_ = ::mkstemp(path_.data());
  if (fd_ < 0)
    throw SystemError(errno_message(directory, "cannot create a scratch file (--temp-dir)"));
  ::unlink(path_.c_str());
}

ScratchFile::~ScratchFile() {
  if (fd_ >= 0)
    ::close(fd_);
}

void ScratchFile::append(const void* data, std::size_t size) {
  const auto* bytes = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t wrote = ::pwrite(fd_, bytes, std::min<std::size_t>(size, std::size_t{1} << 26),
                                   static_cast<off_t>(size_));
    if (wrote < 0 && errno == EINTR)
      continue;
    if (wrote <= 0)
      throw SystemError(errno_message(path_, "cannot write the scratch file"));
    bytes += wrote;
    size_ += static_cast<std::uint64_t>(wrote);
    size -= static_cast<std::size_t>(wrote);
  }
}

void ScratchFile::read(std::uint64_t offset, void* out, std::size_t size) const {
  auto* bytes = static_cast<char*>(out);
  while (size > 0) {
    const ssize_t got = ::pread(fd_, bytes, std::min<std::size_t>(size, std::size_t{1} << 26),
                                static_cast<off_t>(offset));
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0)
      throw SystemError(errno_message(path_, "cannot read the scratch file back"));
    bytes += got;
    offset += static_cast<std::uint64_t>(got);
    size -= static_cast<std::size_t>(got);
  }
}

SpilledAdjacency::SpilledAdjacency(std::vector<NodeID>& adjacency, const std::string& dir)
    : file_(dir), entries_(adjacency.size()) {
  file_.append(adjacency.data(), adjacency.size() * sizeof(NodeID));
  std::vector<NodeID>().swap(adjacency);
}

void SpilledAdjacency::read(EdgeID begin, EdgeID end, NodeID* out) const {
  file_.read(begin * sizeof(NodeID), out, static_cast<std::size_t>(end - begin) * sizeof(NodeID));
}

ParkedIndex::ParkedIndex(const DistGraph& graph, const std::string& dir)
    : file_(dir), offsets_(graph.offsets.size()), ghosts_(graph.ghost_global.size()) {
  file_.append(graph.offsets.data(), offsets_ * sizeof(EdgeID));
  file_.append(graph.ghost_global.data(), ghosts_ * sizeof(NodeID));
}

void ParkedIndex::park(DistGraph& graph) const {
  std::vector<EdgeID>().swap(graph.offsets);
  park_ghosts(graph);
}

void ParkedIndex::park_ghosts(DistGraph& graph) const {
  std::vector<NodeID>().swap(graph.ghost_global);
}

void ParkedIndex::unpark(DistGraph& graph) const {
  if (graph.offsets.size() != offsets_) {
    graph.offsets.resize(offsets_);
    file_.read(0, graph.offsets.data(), offsets_ * sizeof(EdgeID));
  }
  if (graph.ghost_global.size() != ghosts_) {
    graph.ghost_global.resize(ghosts_);
    file_.read(offsets_ * sizeof(EdgeID), graph.ghost_global.data(), ghosts_ * sizeof(NodeID));
  }
}

namespace {

// Appends values to file and frees them; returns their count.
template <typename T> std::size_t append_array(ScratchFile& file, std::vector<T>& values) {
  const std::size_t size = values.size();
  file.append(values.data(), size * sizeof(T));
  std::vector<T>().swap(values);
  return size;
}

// Reads the next size values of file from offset (advanced past them) into values.
template <typename T>
void read_array(const ScratchFile& file, std::uint64_t& offset, std::size_t size,
                std::vector<T>& values) {
  values.resize(size);
  file.read(offset, values.data(), size * sizeof(T));
  offset += size * sizeof(T);
}

} // namespace

SpilledLevel::SpilledLevel(DistGraph& graph, const std::string& dir) : file_(dir) {
  if (graph.spilled)
    throw std::logic_error("SpilledLevel: the graph's adjacency is spilled already");
  offsets_ = append_array(file_, graph.offsets);
  adjacency_ = append_array(file_, graph.adjacency);
  edge_weights_ = append_array(file_, graph.edge_weights);
  edge_weights32_ = append_array(file_, graph.edge_weights32);
  vertex_weights_ = append_array(file_, graph.vertex_weights);
  ghosts_ = append_array(file_, graph.ghost_global);
  shape_ = std::make_unique<DistGraph>(std::move(graph));
  graph = DistGraph{};
}

SpilledLevel::SpilledLevel(SpilledLevel&&) noexcept = default;
SpilledLevel::~SpilledLevel() = default;

DistGraph SpilledLevel::take() const {
  DistGraph graph = *shape_;
  std::uint64_t offset = 0;
  read_array(file_, offset, offsets_, graph.offsets);
  read_array(file_, offset, adjacency_, graph.adjacency);
  read_array(file_, offset, edge_weights_, graph.edge_weights);
  read_array(file_, offset, edge_weights32_, graph.edge_weights32);
  read_array(file_, offset, vertex_weights_, graph.vertex_weights);
  read_array(file_, offset, ghosts_, graph.ghost_global);
  return graph;
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
