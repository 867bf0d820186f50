// io::read_graph for the binary streams of `gnnpart generate` (io/binary_stream_format.h), so
// that partition, info, convert, evaluate and layout read what generate writes.
#include <cstring>
#include <string>

#include <fmt/format.h>

#include "core/errors.h"
#include "core/graph_builder.h"
#include "io/binary_stream_format.h"
#include "io/input_buffer.h"

namespace gnnpart::io {
namespace {

NodeID get_id(const char* in) {
  NodeID id;
  std::memcpy(&id, in, sizeof(NodeID)); // little endian, as the writer stores it
  return id;
}

// Appends the m (u, v) records of an edge stream.
void read_edge_records(const std::string& path, std::string_view body, const BinaryHeader& header,
                       EdgeList& edges) {
  const std::uint64_t record = 2 * sizeof(NodeID);
  if (body.size() / record != header.m || body.size() % record != 0)
    throw InputError(path, 0,
                     fmt::format("edge stream header says {} edges, the file holds {} bytes of "
                                 "records ({} expected)",
                                 header.m, body.size(), header.m * record));
  edges.sources.resize(header.m);
  edges.targets.resize(header.m);
  for (std::uint64_t i = 0; i < header.m; ++i) {
    edges.sources[i] = get_id(body.data() + i * record);
    edges.targets[i] = get_id(body.data() + i * record + sizeof(NodeID));
  }
}

// Appends u -> v for every neighbour v of every u of an adjacency stream.
void read_adjacency_records(const std::string& path, std::string_view body,
                            const BinaryHeader& header, EdgeList& edges) {
  edges.sources.reserve(header.entries);
  edges.targets.reserve(header.entries);
  std::size_t at = 0;
  for (std::uint64_t u = 0; u < header.n; ++u) {
    if (body.size() - at < sizeof(std::uint32_t))
      throw InputError(path, 0, fmt::format("adjacency stream ends inside vertex {}", u));
    std::uint32_t degree;
    std::memcpy(&degree, body.data() + at, sizeof(degree));
    at += sizeof(degree);
    if ((body.size() - at) / sizeof(NodeID) < degree)
      throw InputError(path, 0, fmt::format("adjacency stream ends inside vertex {}", u));
    for (std::uint32_t i = 0; i < degree; ++i, at += sizeof(NodeID)) {
      edges.sources.push_back(static_cast<NodeID>(u));
      edges.targets.push_back(get_id(body.data() + at));
    }
  }
  if (at != body.size())
    throw InputError(path, 0, "adjacency stream has bytes after its last vertex");
  if (edges.sources.size() != header.entries)
    throw InputError(path, 0,
                     fmt::format("adjacency stream header says {} entries, the file holds {}",
                                 header.entries, edges.sources.size()));
}

} // namespace

bool is_binary_stream_file(const std::string& path) {
  const InputBuffer in(path, InputKind::kRaw); // binary: no text checks
  return decode_header(in.data().data(), in.size(), path).kind != BinaryKind::kNone;
}

CsrGraph read_binary_stream(const std::string& path) {
  const InputBuffer in(path, InputKind::kRaw); // binary: no text checks
  const BinaryHeader header = decode_header(in.data().data(), in.size(), path);
  if (header.kind == BinaryKind::kNone)
    throw InputError(path, 0,
                     fmt::format("not a gnnpart binary stream (no {} or {} header)",
                                 kEdgeStreamMagic, kAdjacencyStreamMagic));
  const std::string_view body = in.data().substr(kBinaryHeaderBytes);
  EdgeList edges;
  edges.n = static_cast<NodeID>(header.n);
  if (header.kind == BinaryKind::kEdgeStream)
    read_edge_records(path, body, header, edges);
  else
    read_adjacency_records(path, body, header, edges);
  for (std::size_t i = 0; i < edges.sources.size(); ++i) {
    if (edges.sources[i] >= header.n || edges.targets[i] >= header.n)
      throw InputError(path, 0,
                       fmt::format("record {} has vertex id {} >= n = {}", i,
                                   std::max(edges.sources[i], edges.targets[i]), header.n));
  }
  return build_csr(edges);
}

} // namespace gnnpart::io
