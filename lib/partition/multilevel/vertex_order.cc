#include "partition/multilevel/vertex_order.h"

#include <algorithm>
#include <numeric>

#include "core/random.h"

namespace gnnpart::ml {

std::vector<NodeID> chunked_random_order(NodeID n, std::uint64_t seed, NodeID chunk) {
  std::vector<NodeID> order(n);
  const NodeID num_chunks = (n + chunk - 1) / chunk;
  std::vector<NodeID> chunks(num_chunks);
  std::iota(chunks.begin(), chunks.end(), NodeID{0});
  Rng rng(seed);
  std::shuffle(chunks.begin(), chunks.end(), rng);
  std::size_t pos = 0;
  for (NodeID c : chunks) {
    const NodeID begin = c * chunk;
    const NodeID end = std::min<NodeID>(n, begin + chunk);
    const std::size_t start = pos;
    for (NodeID u = begin; u < end; ++u)
      order[pos++] = u;
    std::shuffle(order.begin() + static_cast<std::ptrdiff_t>(start),
                 order.begin() + static_cast<std::ptrdiff_t>(pos), rng);
  }
  return order;
}

} // namespace gnnpart::ml
