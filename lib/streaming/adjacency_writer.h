#pragma once
// Writes a binary adjacency stream (binary_format.h) vertex by vertex, atomically.
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "core/types.h"
#include "streaming/temp_file.h"

namespace gnnpart::streaming {

class AdjacencyWriter {
public:
  explicit AdjacencyWriter(const std::string& path);
  // Appends u's neighbour list; u must exceed every vertex given before (gaps become isolated
  // vertices). Throws InvalidParameter otherwise.
  void add(NodeID u, std::span<const NodeID> neighbors);
  // Pads isolated vertices up to n (at least max id + 1), writes the header, renames into place.
  // Returns the final vertex count.
  NodeID finish(NodeID n);

private:
  void pad_to(NodeID u);

  io::OutputFile file_;
  NodeID next_ = 0;
  std::uint64_t entries_ = 0;
  std::uint64_t max_neighbor_plus_one_ = 0;
};

} // namespace gnnpart::streaming
