#include "cost/minibatch_rows.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <fmt/format.h>
#include <tbb/parallel_for.h>

#include "core/errors.h"
#include "core/random.h"
#include "core/sample_mean.h"
#include "cost/neighbor_sampling.h"

namespace gnnpart::cost {

std::vector<NodeID> training_vertices(NodeID n, std::span<const NodeID> set) {
  if (set.empty()) {
    std::vector<NodeID> all(n);
    std::iota(all.begin(), all.end(), NodeID{0});
    return all;
  }
  std::vector<NodeID> sorted(set.begin(), set.end());
  for (NodeID u : sorted)
    if (u >= n)
      throw InvalidParameter(fmt::format("training vertex {} out of range (n = {})", u, n));
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  return sorted;
}

std::vector<std::uint32_t> input_layer_first(std::span<const int> hop_first) {
  if (hop_first.empty())
    throw InvalidParameter("the mini-batch step needs fanouts (one per layer, hop 1 first)");
  std::vector<std::uint32_t> input_first;
  for (auto it = hop_first.rbegin(); it != hop_first.rend(); ++it) {
    if (*it <= 0)
      throw InvalidParameter(fmt::format("fanout {} is not a count: gnnpart-train samples a "
                                         "fixed number of neighbours per layer",
                                         *it));
    input_first.push_back(static_cast<std::uint32_t>(*it));
  }
  return input_first;
}

namespace {

constexpr std::uint64_t kFreshStream = 0x7072656469; // "predi"

} // namespace

void check_fetch_options(const CsrGraph& graph, const Partition& partition,
                         const FetchBatchOptions& options) {
  check_partition(partition, graph.num_nodes());
  if (options.batch_size == 0)
    throw InvalidParameter("batch size must be at least 1");
  if (options.fanouts.empty())
    throw InvalidParameter("need one fanout per layer");
  for (std::uint32_t f : options.fanouts)
    if (f == 0)
      throw InvalidParameter("a fanout of 0 samples nothing");
  for (NodeID u = 0; u < graph.num_nodes(); ++u) {
    const auto nb = graph.neighbors(u);
    if (!std::is_sorted(nb.begin(), nb.end()))
      throw InvalidParameter(fmt::format("adjacency of vertex {} is not sorted", u));
  }
}

FetchBatchOptions fresh_options(const FetchBatchOptions& options) {
  FetchBatchOptions fresh = options;
  fresh.seed = derive_seed(options.seed, kFreshStream);
  return fresh;
}

std::vector<NodeID> input_frontier(const CsrGraph& graph, std::span<const NodeID> seeds,
                                   std::span<const std::uint32_t> fanouts, std::uint64_t stream) {
  std::vector<NodeID> frontier(seeds.begin(), seeds.end());
  std::sort(frontier.begin(), frontier.end());
  for (std::size_t l = fanouts.size(); l-- > 0;) {
    std::vector<NodeID> next = frontier;
    for (NodeID v : frontier)
      sample_neighbors(graph.neighbors(v), fanouts[l], stream, l, v, next);
    std::sort(next.begin(), next.end());
    next.erase(std::unique(next.begin(), next.end()), next.end());
    frontier.swap(next);
  }
  return frontier;
}

std::vector<NodeID> remote_inputs(const CsrGraph& graph, const Partition& partition, BlockID block,
                                  std::span<const NodeID> seeds,
                                  std::span<const std::uint32_t> fanouts, std::uint64_t stream) {
  std::vector<NodeID> frontier = input_frontier(graph, seeds, fanouts, stream);
  std::erase_if(frontier, [&](NodeID u) { return partition.blocks[u] == block; });
  return frontier;
}

std::vector<std::vector<NodeID>> train_by_block(const Partition& partition,
                                                std::span<const NodeID> train) {
  std::vector<std::vector<NodeID>> out(partition.k);
  for (NodeID u : train) {
    if (u >= partition.blocks.size())
      throw InvalidParameter(fmt::format("training vertex {} out of range", u));
    out[partition.blocks[u]].push_back(u);
  }
  for (auto& set : out) {
    std::sort(set.begin(), set.end());
    set.erase(std::unique(set.begin(), set.end()), set.end());
  }
  return out;
}

std::vector<std::uint64_t> fetched_rows(const CsrGraph& graph, const Partition& partition,
                                        const std::vector<std::vector<NodeID>>& train,
                                        const FetchBatchOptions& options, std::uint64_t epoch,
                                        std::uint64_t batch) {
  std::vector<std::uint64_t> rows(partition.k);
  for (BlockID r = 0; r < partition.k; ++r) {
    const std::uint64_t stream = batch_stream(options.seed, epoch, batch, r);
    const std::vector<NodeID> seeds = draw_seeds(train[r], options.batch_size, stream);
    rows[r] = remote_inputs(graph, partition, r, seeds, options.fanouts, stream).size();
  }
  return rows;
}

FetchRowsEstimate expected_fetched_rows(const CsrGraph& graph, const Partition& partition,
                                        std::span<const NodeID> train,
                                        const FetchBatchOptions& options, std::uint32_t samples) {
  check_fetch_options(graph, partition, options);
  if (samples == 0)
    throw InvalidParameter("need at least one sample");
  const auto by_block = train_by_block(partition, train);
  const FetchBatchOptions fresh = fresh_options(options);
  std::vector<std::vector<std::uint64_t>> rows(samples);
  tbb::parallel_for(std::uint32_t{0}, samples, [&](std::uint32_t s) {
    rows[s] = fetched_rows(graph, partition, by_block, fresh, 0, s);
  });
  FetchRowsEstimate est;
  est.samples = samples;
  est.per_block.assign(partition.k, 0.0);
  std::vector<double> totals(samples, 0.0);
  for (std::uint32_t s = 0; s < samples; ++s) {
    for (BlockID r = 0; r < partition.k; ++r) {
      totals[s] += static_cast<double>(rows[s][r]);
      est.per_block[r] += static_cast<double>(rows[s][r]) / samples;
    }
  }
  const SampleMean mean = sample_mean(totals);
  est.mean = mean.mean;
  est.standard_error = mean.standard_error;
  return est;
}

} // namespace gnnpart::cost
