#include "partition/multilevel/vertex_order.h"

#include <algorithm>
#include <numeric>

#include <tbb/parallel_for.h>

#include "core/random.h"

namespace gnnpart::ml {

std::vector<NodeID> chunked_random_order(NodeID n, std::uint64_t seed, NodeID chunk) {
  const NodeID num_chunks = (n + chunk - 1) / chunk;
  std::vector<NodeID> chunks(num_chunks);
  std::iota(chunks.begin(), chunks.end(), NodeID{0});
  Rng rng(seed);
  std::shuffle(chunks.begin(), chunks.end(), rng);
  // The i-th chunk of the order holds chunk chunks[i]; only the last chunk of the id range may be
  // short, so positions follow from a prefix count of one short chunk at most.
  const NodeID last = num_chunks == 0 ? 0 : num_chunks - 1;
  const NodeID last_size = n - last * chunk;
  std::vector<std::size_t> start(num_chunks);
  std::size_t pos = 0;
  for (NodeID i = 0; i < num_chunks; ++i) {
    start[i] = pos;
    pos += chunks[i] == last ? last_size : chunk;
  }
  // Each chunk is shuffled by its own stream (seed, chunk id), so chunks can go in parallel.
  std::vector<NodeID> order(n);
  auto shuffle_chunk = [&](NodeID i) {
    const NodeID begin = chunks[i] * chunk;
    const NodeID end = std::min<NodeID>(n, begin + chunk);
    const auto first = order.begin() + static_cast<std::ptrdiff_t>(start[i]);
    std::iota(first, first + (end - begin), begin);
    Rng local(derive_seed(seed, 7, chunks[i]));
    for (NodeID j = end - begin; j > 1; --j) // Fisher-Yates with the multiply-shift bound
      std::iter_swap(first + (j - 1), first + static_cast<std::ptrdiff_t>(local.below(j)));
  };
  if (num_chunks == 1)
    shuffle_chunk(0); // no task for a single chunk
  else
    tbb::parallel_for(NodeID{0}, num_chunks, shuffle_chunk);
  return order;
}

} // namespace gnnpart::ml
