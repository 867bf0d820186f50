#include "streaming/adjacency_writer.h"

#include <algorithm>
#include <vector>

#include "core/errors.h"
#include "streaming/binary_format.h"

namespace gnnpart::streaming {

AdjacencyWriter::AdjacencyWriter(const std::string& path) : file_(path, false) {
  char header[kBinaryHeaderBytes] = {};
  file_.write(header, sizeof(header));
}

void AdjacencyWriter::pad_to(NodeID u) {
  static constexpr NodeID kZeros[256] = {};
  while (next_ < u) {
    const NodeID count = std::min<NodeID>(256, u - next_);
    file_.write(kZeros, count * sizeof(NodeID));
    next_ += count;
  }
}

void AdjacencyWriter::add(NodeID u, std::span<const NodeID> neighbors) {
  if (u < next_)
    throw InvalidParameter("AdjacencyWriter: vertices must come in increasing order");
  pad_to(u);
  const NodeID degree = static_cast<NodeID>(neighbors.size());
  file_.write(&degree, sizeof(degree));
  file_.write(neighbors.data(), neighbors.size_bytes());
  for (const NodeID v : neighbors) {
    max_neighbor_plus_one_ = std::max<std::uint64_t>(max_neighbor_plus_one_, v + 1ULL);
  }
  entries_ += neighbors.size();
  next_ = u + 1;
}

NodeID AdjacencyWriter::finish(NodeID n) {
  const NodeID final_n =
      static_cast<NodeID>(std::max<std::uint64_t>({n, next_, max_neighbor_plus_one_}));
  pad_to(final_n);
  BinaryHeader header;
  header.kind = BinaryKind::kAdjacencyStream;
  header.n = final_n;
  header.m = entries_ / 2;
  header.entries = entries_;
  char bytes[kBinaryHeaderBytes];
  encode_header(header, bytes);
  file_.write_at(0, bytes, sizeof(bytes));
  file_.commit();
  return final_n;
}

} // namespace gnnpart::streaming
