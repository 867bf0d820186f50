#pragma once
// Binary CSR cache (.gnnp), little-endian:
//   64-byte header: magic "GNNPCSR\0", version, byte-order mark, id/weight widths, ncon,
//   n, directed entries (2m), flags (edge weights, vertex weights), payload checksum;
//   payload: offsets (n+1) x u64, adjacency 2m x NodeID (zero-padded to 8 bytes),
//   [edge weights 2m x i64], [vertex weights n*ncon x i64].
// The checksum is a 64-bit multiply-rotate hash over 4 MiB blocks, hashed in parallel and
// combined in block order. Loading reads each array straight into its vector.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace gnnpart::io {

inline constexpr std::uint32_t kBinaryGraphVersion = 1;

// True when the file starts with the binary graph magic.
bool is_binary_graph_file(const std::string& path);

// 64-bit hash of bytes (deterministic, independent of the thread count).
std::uint64_t payload_hash(const void* bytes, std::size_t size, std::uint64_t seed);

} // namespace gnnpart::io
