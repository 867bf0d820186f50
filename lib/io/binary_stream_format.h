#pragma once
// Binary stream formats written by `gnnpart generate` (.bin, .adj) and read by lib/streaming
// and by io::read_graph. Both start with the same 40-byte header:
//   magic[8] | id_bytes u32 | reserved u32 | n u64 | m u64 | entries u64   (little endian)
// Edge stream ("GNPEDGE1"): m records (u, v) of id_bytes each, in stream order; entries = m.
// Adjacency stream ("GNPADJ01"): for u = 0..n-1 one record: degree (u32), then degree neighbour
// ids; m = undirected edges, entries = directed entries (2m for a symmetric simple graph).
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "core/graph.h"
#include "core/types.h"

namespace gnnpart::io {

inline constexpr std::string_view kEdgeStreamMagic = "GNPEDGE1";
inline constexpr std::string_view kAdjacencyStreamMagic = "GNPADJ01";
inline constexpr std::size_t kBinaryHeaderBytes = 40;

enum class BinaryKind { kNone, kEdgeStream, kAdjacencyStream };

struct BinaryHeader {
  BinaryKind kind = BinaryKind::kNone;
  std::uint32_t id_bytes = sizeof(NodeID);
  std::uint64_t n = 0;
  std::uint64_t m = 0;
  std::uint64_t entries = 0;
};

// Serializes a header into exactly kBinaryHeaderBytes bytes.
void encode_header(const BinaryHeader& header, char* out);
// Parses the first kBinaryHeaderBytes bytes; kind kNone when the magic does not match.
// Throws InputError (path, line 0) for a known magic with unsupported id width.
BinaryHeader decode_header(const char* bytes, std::size_t size, const std::string& path);

// True when the file (plain or gzip) starts with one of the two magics.
bool is_binary_stream_file(const std::string& path);
// The whole graph of an edge or adjacency stream, symmetrized, deduplicated, without self
// loops (as the edge-list reader builds it). Throws InputError naming the file for a short
// file, a count that disagrees with the header or an id >= n.
CsrGraph read_binary_stream(const std::string& path);

} // namespace gnnpart::io
