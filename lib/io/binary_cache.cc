#include "io/binary_cache.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <vector>

#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include "core/errors.h"
#include "core/random.h"
#include "io/graph_io.h"
#include "io/output_file.h"

namespace gnnpart::io {

namespace {

constexpr char kMagic[8] = {'G', 'N', 'N', 'P', 'C', 'S', 'R', '\0'};
constexpr std::uint32_t kByteOrderMark = 0x01020304;
constexpr std::uint32_t kFlagEdgeWeights = 1;
constexpr std::uint32_t kFlagVertexWeights = 2;
constexpr std::size_t kHashBlock = std::size_t{4} << 20;

struct BinaryHeader {
  char magic[8];
  std::uint32_t version;
  std::uint32_t byte_order;
  std::uint32_t node_id_bytes;
  std::uint32_t edge_id_bytes;
  std::uint32_t weight_bytes;
  std::uint32_t ncon;
  std::uint64_t n;
  std::uint64_t directed_edges;
  std::uint32_t flags;
  std::uint32_t reserved;
  std::uint64_t checksum;
};
static_assert(sizeof(BinaryHeader) == 64);

std::uint64_t rotl(std::uint64_t x, int k) {
  return (x << k) | (x >> (64 - k));
}

// Eight independent multiply-rotate lanes over 64-byte strides (the compiler vectorises them),
// then the tail and the length, mixed into one 64-bit value.
std::uint64_t hash_block(const unsigned char* p, std::size_t size, std::uint64_t seed) {
  constexpr std::uint64_t kP1 = 0x9e3779b97f4a7c15ULL, kP2 = 0xc2b2ae3d27d4eb4fULL;
  constexpr int kLanes = 8;
  std::array<std::uint64_t, kLanes> lane;
  for (int l = 0; l < kLanes; ++l)
    lane[l] = splitmix64(seed + static_cast<std::uint64_t>(l));
  std::size_t i = 0;
  for (; i + 8 * kLanes <= size; i += 8 * kLanes) {
    std::array<std::uint64_t, kLanes> word;
    std::memcpy(word.data(), p + i, sizeof(word));
    for (int l = 0; l < kLanes; ++l)
      lane[l] = rotl((lane[l] ^ word[l]) * kP2, 31) * kP1;
  }
  std::uint64_t tail = 0, h = splitmix64(seed ^ size);
  for (int shift = 0; i < size; ++i, shift += 8) {
    if (shift == 64) {
      h = splitmix64(h ^ tail);
      tail = 0;
      shift = 0;
    }
    tail |= static_cast<std::uint64_t>(p[i]) << shift;
  }
  h = splitmix64(h ^ tail);
  for (int l = 0; l < kLanes; ++l)
    h = splitmix64(h ^ lane[l]);
  return h;
}

struct Piece {
  const void* bytes;
  std::size_t size;
};

std::uint64_t checksum(const std::vector<Piece>& pieces) {
  std::uint64_t h = 0x6a09e667f3bcc908ULL;
  for (std::size_t k = 0; k < pieces.size(); ++k)
    h = splitmix64(h ^ payload_hash(pieces[k].bytes, pieces[k].size, k));
  return h;
}

std::size_t padded(std::size_t bytes) {
  return (bytes + 7) / 8 * 8;
}

class InputFile {
public:
  explicit InputFile(const std::string& path) : path_(path) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0)
      throw InputError(path, 0, std::string("cannot open: ") + std::strerror(errno));
  }
  ~InputFile() { ::close(fd_); }
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;
  std::size_t size() const {
    struct stat st {};
    if (::fstat(fd_, &st) != 0)
      throw SystemError(path_ + ": cannot stat");
    return static_cast<std::size_t>(st.st_size);
  }
  // Reads exactly size bytes at offset; returns false on a short file.
  bool read_at(void* out, std::size_t size, std::size_t offset) const {
    auto* p = static_cast<char*>(out);
    while (size > 0) {
      const ssize_t got = ::pread(fd_, p, std::min<std::size_t>(size, std::size_t{1} << 30),
                                  static_cast<off_t>(offset));
      if (got < 0) {
        if (errno == EINTR)
          continue;
        throw InputError(path_, 0, std::string("cannot read: ") + std::strerror(errno));
      }
      if (got == 0)
        return false;
      p += got;
      offset += static_cast<std::size_t>(got);
      size -= static_cast<std::size_t>(got);
    }
    return true;
  }

private:
  std::string path_;
  int fd_ = -1;
};

} // namespace

std::uint64_t payload_hash(const void* bytes, std::size_t size, std::uint64_t seed) {
  const auto* p = static_cast<const unsigned char*>(bytes);
  const std::size_t blocks = (size + kHashBlock - 1) / kHashBlock;
  std::vector<std::uint64_t> hashes(blocks);
  tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t b) {
    const std::size_t begin = b * kHashBlock;
    hashes[b] = hash_block(p + begin, std::min(kHashBlock, size - begin), splitmix64(seed + b));
  });
  std::uint64_t h = splitmix64(seed ^ size);
  for (const std::uint64_t x : hashes)
    h = splitmix64(h ^ x);
  return h;
}

bool is_binary_graph_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return false;
  char magic[8] = {};
  const bool ok = ::pread(fd, magic, 8, 0) == 8 && std::memcmp(magic, kMagic, 8) == 0;
  ::close(fd);
  return ok;
}

void write_binary_graph(const CsrGraph& graph, const std::string& path) {
  BinaryHeader header{};
  std::memcpy(header.magic, kMagic, 8);
  header.version = kBinaryGraphVersion;
  header.byte_order = kByteOrderMark;
  header.node_id_bytes = sizeof(NodeID);
  header.edge_id_bytes = sizeof(EdgeID);
  header.weight_bytes = sizeof(Weight);
  header.ncon = static_cast<std::uint32_t>(graph.ncon());
  header.n = graph.num_nodes();
  header.directed_edges = graph.num_directed_edges();
  header.flags = (graph.has_edge_weights() ? kFlagEdgeWeights : 0) |
                 (graph.has_vertex_weights() ? kFlagVertexWeights : 0);
  const std::size_t adjacency_bytes = graph.adjacency().size_bytes();
  const std::vector<char> padding(padded(adjacency_bytes) - adjacency_bytes, 0);
  std::vector<Piece> pieces = {{graph.offsets().data(), graph.offsets().size_bytes()},
                               {graph.adjacency().data(), adjacency_bytes},
                               {padding.data(), padding.size()}};
  if (graph.has_edge_weights())
    pieces.push_back({graph.edge_weights().data(), graph.edge_weights().size_bytes()});
  if (graph.has_vertex_weights())
    pieces.push_back({graph.vertex_weights().data(), graph.vertex_weights().size_bytes()});
  header.checksum = checksum(pieces);

  OutputFile out(path);
  out.write(&header, sizeof(header));
  for (const Piece& piece : pieces)
    out.write(piece.bytes, piece.size);
  out.commit();
}

CsrGraph read_binary_graph(const std::string& path) {
  const InputFile file(path);
  const std::size_t file_size = file.size();
  BinaryHeader header{};
  if (!file.read_at(&header, sizeof(header), 0) || std::memcmp(header.magic, kMagic, 8) != 0)
    throw InputError(path, 0, "not a gnnpart binary graph (bad magic)");
  if (header.byte_order != kByteOrderMark)
    throw InputError(path, 0, "binary graph written on a machine of the other byte order");
  if (header.version != kBinaryGraphVersion)
    throw InputError(path, 0,
                     "binary graph version " + std::to_string(header.version) +
                         " is not supported (this build reads version " +
                         std::to_string(kBinaryGraphVersion) + "); rewrite the cache");
  if (header.node_id_bytes != sizeof(NodeID))
    throw InputError(path, 0,
                     "binary graph has " + std::to_string(header.node_id_bytes * 8) +
                         "-bit vertex ids but this build uses " +
                         std::to_string(sizeof(NodeID) * 8) + "-bit ids" +
                         (header.node_id_bytes > sizeof(NodeID) ? std::string("; ") + kWideIdHint
                                                                : std::string("; rewrite it")));
  if (header.edge_id_bytes != sizeof(EdgeID) || header.weight_bytes != sizeof(Weight) ||
      header.ncon < 1 || header.ncon > 1024 || (header.flags & ~(kFlagEdgeWeights | kFlagVertexWeights)) != 0 ||
      header.n > kMaxNodeID + 1 || ((header.flags & kFlagVertexWeights) == 0 && header.ncon != 1))
    throw InputError(path, 0, "corrupt binary graph header");

  const bool edge_weighted = (header.flags & kFlagEdgeWeights) != 0;
  const bool vertex_weighted = (header.flags & kFlagVertexWeights) != 0;
  const std::size_t n = header.n, m2 = header.directed_edges;
  const std::size_t adjacency_bytes = m2 * sizeof(NodeID);
  const std::size_t expected = sizeof(header) + (n + 1) * sizeof(EdgeID) + padded(adjacency_bytes) +
                               (edge_weighted ? m2 * sizeof(Weight) : 0) +
                               (vertex_weighted ? n * header.ncon * sizeof(Weight) : 0);
  if (m2 > (std::size_t{1} << 60) || file_size != expected)
    throw InputError(path, 0,
                     std::string(file_size < expected ? "truncated" : "oversized") +
                         " binary graph: expected " + std::to_string(expected) +
                         " bytes, the file has " + std::to_string(file_size));

  std::vector<EdgeID> offsets(n + 1);
  std::vector<NodeID> adjacency(m2);
  std::vector<char> padding(padded(adjacency_bytes) - adjacency_bytes);
  std::vector<Weight> edge_weights(edge_weighted ? m2 : 0);
  std::vector<Weight> vertex_weights(vertex_weighted ? n * header.ncon : 0);
  std::vector<Piece> pieces = {{offsets.data(), offsets.size() * sizeof(EdgeID)},
                               {adjacency.data(), adjacency_bytes},
                               {padding.data(), padding.size()}};
  if (edge_weighted)
    pieces.push_back({edge_weights.data(), edge_weights.size() * sizeof(Weight)});
  if (vertex_weighted)
    pieces.push_back({vertex_weights.data(), vertex_weights.size() * sizeof(Weight)});
  std::size_t at = sizeof(header);
  for (const Piece& piece : pieces) {
    if (!file.read_at(const_cast<void*>(piece.bytes), piece.size, at))
      throw InputError(path, 0, "truncated binary graph");
    at += piece.size;
  }
  if (checksum(pieces) != header.checksum)
    throw InputError(path, 0, "binary graph checksum mismatch (corrupt file); rewrite the cache");
  // The checksum catches corruption; these catch files written by something else.
  if (offsets.front() != 0 || offsets.back() != m2)
    throw InputError(path, 0, "corrupt binary graph: offsets do not match the adjacency");
  // Offsets non-decreasing and every target < n, as two vectorisable reductions.
  const bool monotone = tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, n), true,
      [&](const tbb::blocked_range<std::size_t>& r, bool ok) {
        bool here = true;
        for (std::size_t u = r.begin(); u != r.end(); ++u)
          here &= offsets[u] <= offsets[u + 1];
        return ok && here;
      },
      [](bool a, bool b) { return a && b; });
  const NodeID max_target = tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, m2, 1 << 16), NodeID{0},
      [&](const tbb::blocked_range<std::size_t>& r, NodeID found) {
        NodeID local = 0;
        for (std::size_t e = r.begin(); e != r.end(); ++e)
          local = std::max(local, adjacency[e]);
        return std::max(found, local);
      },
      [](NodeID a, NodeID b) { return std::max(a, b); });
  const bool valid = monotone && (m2 == 0 || max_target < n);
  if (!valid)
    throw InputError(path, 0, "corrupt binary graph: bad offsets or vertex ids");
  return CsrGraph(std::move(offsets), std::move(adjacency), std::move(edge_weights),
                  static_cast<int>(header.ncon), std::move(vertex_weights));
}

} // namespace gnnpart::io
