#pragma once
// Binary edge streams (`gnnpart generate ... -o x.bin`, lib/streaming/binary_format.h) read by
// record offset: rank r reads records [r * m / P, (r + 1) * m / P).
#include <cstdint>
#include <string>
#include <vector>

#include "core/types.h"

namespace gnnpart::distributed {

struct BinaryInput {
  bool edge_stream = false;
  std::uint64_t n = 0;
  std::uint64_t m = 0;
};

// Reads the first bytes of path; edge_stream false when it is not a binary edge stream.
BinaryInput probe_binary_input(const std::string& path);

// This rank's share of an edge stream in blocks of records_per_block records, read on demand (the
// blocks are read more than once: a pass over the degrees, then the routing), one block held.
class EdgeStreamSlice {
public:
  EdgeStreamSlice(const std::string& path, const BinaryInput& input, int rank, int ranks,
                  std::uint64_t records_per_block);
  ~EdgeStreamSlice();
  EdgeStreamSlice(const EdgeStreamSlice&) = delete;
  EdgeStreamSlice& operator=(const EdgeStreamSlice&) = delete;

  std::uint64_t blocks() const;
  // Calls edge(u, v) for every record of block b (kept until another block is read). Throws
  // InputError for a truncated file or an id >= n.
  template <typename F> void for_each_edge(std::uint64_t b, F&& edge) {
    load(b);
    for (std::size_t i = 0; i + 1 < block_.size(); i += 2)
      edge(block_[i], block_[i + 1]);
  }

private:
  void load(std::uint64_t b);
  std::string path_;
  BinaryInput input_;
  int fd_ = -1;
  std::uint64_t begin_ = 0, end_ = 0, per_block_ = 1;
  std::uint64_t loaded_ = ~std::uint64_t{0};
  std::vector<NodeID> block_;
};

} // namespace gnnpart::distributed
