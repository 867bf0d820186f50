#include "cost/neighbor_sampling.h"

#include <algorithm>

#include "core/random.h"

namespace gnnpart::cost {

namespace {
constexpr std::uint64_t kFetchBatchStream = 0x6665746368; // "fetch"
} // namespace

std::uint64_t batch_stream(std::uint64_t seed, std::uint64_t epoch, std::uint64_t batch,
                           std::uint64_t rank) {
  return derive_seed(derive_seed(seed, kFetchBatchStream, epoch), batch, rank);
}

std::vector<NodeID> draw_seeds(std::span<const NodeID> train, NodeID batch_size,
                               std::uint64_t stream) {
  std::vector<NodeID> pool(train.begin(), train.end());
  const std::size_t take = std::min<std::size_t>(batch_size, pool.size());
  Rng rng(derive_seed(stream, 0));
  for (std::size_t i = 0; i < take; ++i)
    std::swap(pool[i], pool[i + rng.below(pool.size() - i)]);
  pool.resize(take);
  std::sort(pool.begin(), pool.end());
  return pool;
}

void sample_neighbors(std::span<const NodeID> neighbors, std::uint32_t fanout, std::uint64_t stream,
                      std::size_t layer, NodeID v, std::vector<NodeID>& out) {
  if (neighbors.size() <= fanout) {
    out.insert(out.end(), neighbors.begin(), neighbors.end());
    return;
  }
  // Floyd's algorithm: fanout distinct positions in O(fanout^2), no copy of a long list.
  Rng rng(derive_seed(stream, layer + 1, v));
  const std::size_t first = out.size();
  std::vector<std::size_t> picked;
  picked.reserve(fanout);
  for (std::size_t i = neighbors.size() - fanout; i < neighbors.size(); ++i) {
    const std::size_t pick = rng.below(i + 1);
    const bool seen = std::find(picked.begin(), picked.end(), pick) != picked.end();
    picked.push_back(seen ? i : pick);
  }
  for (std::size_t p : picked)
    out.push_back(neighbors[p]);
  std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end());
}

} // namespace gnnpart::cost

namespace gnnpart::cost {

std::uint64_t fetch_batches_per_epoch(std::uint64_t train_total, std::uint64_t ranks,
                                      NodeID batch_size) {
  const std::uint64_t per_step = std::max<std::uint64_t>(1, ranks * batch_size);
  return std::max<std::uint64_t>(1, (train_total + per_step - 1) / per_step);
}

} // namespace gnnpart::cost
