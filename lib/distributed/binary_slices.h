#pragma once
// Binary edge streams (`gnnpart generate ... -o x.bin`, lib/streaming/binary_format.h) read by
// record offset: rank r reads records [r * m / P, (r + 1) * m / P).
#include <cstdint>
#include <functional>
#include <string>

#include "core/types.h"

namespace gnnpart::distributed {

struct BinaryInput {
  bool edge_stream = false;
  std::uint64_t n = 0;
  std::uint64_t m = 0;
};

// Reads the first bytes of path; edge_stream false when it is not a binary edge stream.
BinaryInput probe_binary_input(const std::string& path);

// Calls edge(u, v) for every record of this rank's share, reading in bounded blocks. Throws
// InputError for a truncated file or an id >= n.
void read_edge_stream_slice(const std::string& path, const BinaryInput& input, int rank,
                            int ranks, const std::function<void(NodeID, NodeID)>& edge);

} // namespace gnnpart::distributed
