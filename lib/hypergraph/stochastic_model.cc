#include "hypergraph/stochastic_model.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <fmt/format.h>
#include <tbb/parallel_for.h>

#include "core/errors.h"
#include "core/random.h"
#include "core/sample_mean.h"
#include "cost/minibatch_rows.h"
#include "hypergraph/net_dedup.h"

namespace gnnpart {

using hg::merge_identical_nets;
using hg::NetList;

namespace {

constexpr std::uint64_t kEpochStream = 1;
constexpr std::uint64_t kSamplingStream = 2;
constexpr std::uint64_t kEstimateStream = 0x65737469; // "esti"

std::vector<NodeID> training_vertices(const CsrGraph& graph, const StochasticOptions& options) {
  return cost::training_vertices(graph.num_nodes(), options.training_set);
}

void check_stochastic_options(const StochasticOptions& options) {
  if (options.batch_size == 0)
    throw InvalidParameter("batch size must be at least 1");
  if (options.num_batches == 0)
    throw InvalidParameter("number of batches must be at least 1");
  for (int f : options.fanouts)
    if (f == 0)
      throw InvalidParameter("a fanout of 0 samples nothing; use -1 for all");
}

// Slice of an epoch permutation: batch j of seed s depends only on (s, j).
std::vector<NodeID> batch_vertices(std::span<const NodeID> train, NodeID batch_size,
                                   std::uint64_t seed, std::uint64_t j) {
  const std::uint64_t t = train.size();
  const std::uint64_t per_epoch = std::max<std::uint64_t>(1, (t + batch_size - 1) / batch_size);
  const std::uint64_t epoch = j / per_epoch;
  const std::uint64_t slot = j % per_epoch;
  std::vector<NodeID> perm(train.begin(), train.end());
  Rng rng(derive_seed(seed, kEpochStream, epoch));
  std::shuffle(perm.begin(), perm.end(), rng);
  const std::uint64_t begin = std::min(t, slot * batch_size);
  const std::uint64_t end = std::min(t, begin + batch_size);
  return std::vector<NodeID>(perm.begin() + begin, perm.begin() + end);
}

// Vertices of v's sampled computation tree, without v, sorted and unique.
void sample_tree(const CsrGraph& graph, NodeID v, std::span<const int> fanouts, Rng& rng,
                 std::vector<NodeID>& frontier, std::vector<NodeID>& next,
                 std::vector<NodeID>& out) {
  out.clear();
  frontier.assign(1, v);
  const std::size_t layers = fanouts.empty() ? 1 : fanouts.size();
  for (std::size_t l = 0; l < layers; ++l) {
    const int f = fanouts.empty() ? -1 : fanouts[l];
    next.clear();
    for (NodeID x : frontier) {
      const auto nb = graph.neighbors(x);
      if (f < 0 || nb.size() <= static_cast<std::size_t>(f)) {
        next.insert(next.end(), nb.begin(), nb.end());
      } else {
        // Floyd's sampling of f distinct positions without replacement.
        const std::size_t first = next.size();
        for (std::size_t i = nb.size() - f; i < nb.size(); ++i) {
          const std::size_t pick = rng.below(i + 1);
          const NodeID cand = nb[pick];
          const bool seen = std::find(next.begin() + first, next.end(), cand) != next.end();
          next.push_back(seen ? nb[i] : cand);
        }
      }
    }
    out.insert(out.end(), next.begin(), next.end());
    std::sort(next.begin(), next.end());
    next.erase(std::unique(next.begin(), next.end()), next.end());
    frontier.swap(next);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  const auto it = std::lower_bound(out.begin(), out.end(), v);
  if (it != out.end() && *it == v)
    out.erase(it);
}

MinibatchSample sample_from(const CsrGraph& graph, std::span<const NodeID> train,
                            const StochasticOptions& options, std::uint64_t seed, std::uint64_t j) {
  MinibatchSample s;
  s.batch = batch_vertices(train, options.batch_size, seed, j);
  s.need_offsets.assign(1, 0);
  std::vector<NodeID> frontier, next, tree;
  for (std::size_t i = 0; i < s.batch.size(); ++i) {
    Rng rng(derive_seed(seed, kSamplingStream, j, s.batch[i]));
    sample_tree(graph, s.batch[i], options.fanouts, rng, frontier, next, tree);
    s.needs.insert(s.needs.end(), tree.begin(), tree.end());
    s.need_offsets.push_back(s.needs.size());
  }
  return s;
}

// Nets of one batch: for every needed u, {u} and its needers, sorted.
void batch_nets(const MinibatchSample& s, NetList& out) {
  std::vector<std::pair<NodeID, NodeID>> pairs; // (needed u, needer v)
  pairs.reserve(s.needs.size());
  for (std::size_t i = 0; i < s.batch.size(); ++i)
    for (std::uint64_t p = s.need_offsets[i]; p < s.need_offsets[i + 1]; ++p)
      pairs.emplace_back(s.needs[p], s.batch[i]);
  std::sort(pairs.begin(), pairs.end());
  std::size_t i = 0;
  while (i < pairs.size()) {
    const NodeID u = pairs[i].first;
    const std::size_t start = out.pins.size();
    out.pins.push_back(u);
    for (; i < pairs.size() && pairs[i].first == u; ++i)
      out.pins.push_back(pairs[i].second);
    std::sort(out.pins.begin() + start, out.pins.end());
    out.offsets.push_back(out.pins.size());
    out.weights.push_back(1);
  }
}

} // namespace

MinibatchSample sample_minibatch(const CsrGraph& graph, const StochasticOptions& options,
                                 std::uint64_t batch_index) {
  check_stochastic_options(options);
  const auto train = training_vertices(graph, options);
  return sample_from(graph, train, options, options.seed, batch_index);
}

Weight minibatch_volume(const MinibatchSample& sample, const Partition& partition) {
  const BlockID k = partition.k;
  std::vector<std::uint64_t> keys; // u * k + block of a needer outside block(u)
  for (std::size_t i = 0; i < sample.batch.size(); ++i) {
    const BlockID bv = partition.blocks[sample.batch[i]];
    for (std::uint64_t p = sample.need_offsets[i]; p < sample.need_offsets[i + 1]; ++p) {
      const NodeID u = sample.needs[p];
      if (partition.blocks[u] != bv)
        keys.push_back(std::uint64_t{u} * k + bv);
    }
  }
  std::sort(keys.begin(), keys.end());
  return static_cast<Weight>(std::unique(keys.begin(), keys.end()) - keys.begin());
}

Hypergraph build_stochastic_hypergraph(const CsrGraph& graph, const StochasticOptions& options) {
  check_stochastic_options(options);
  const auto train = training_vertices(graph, options);
  const std::uint32_t h = options.num_batches;
  std::vector<NetList> per_batch(h);
  tbb::parallel_for(std::uint32_t{0}, h, [&](std::uint32_t j) {
    batch_nets(sample_from(graph, train, options, options.seed, j), per_batch[j]);
  });
  NetList all;
  for (const NetList& b : per_batch) {
    const EdgeID base = all.pins.size();
    all.pins.insert(all.pins.end(), b.pins.begin(), b.pins.end());
    for (std::size_t e = 1; e < b.offsets.size(); ++e)
      all.offsets.push_back(base + b.offsets[e]);
    all.weights.insert(all.weights.end(), b.weights.begin(), b.weights.end());
  }
  per_batch.clear();
  NetList merged = merge_identical_nets(std::move(all), 2);
  int ncon = 1;
  std::vector<Weight> vw = column_net_vertex_weights(graph, options.vertex_weights, &ncon);
  return Hypergraph(graph.num_nodes(), std::move(merged.offsets), std::move(merged.pins),
                    std::move(merged.weights), ncon, std::move(vw));
}

MinibatchEstimate estimate_minibatch_volume(const CsrGraph& graph, const Partition& partition,
                                            const StochasticOptions& options,
                                            std::uint32_t samples) {
  check_stochastic_options(options);
  check_partition(partition, graph.num_nodes());
  if (samples == 0)
    throw InvalidParameter("need at least one sample");
  const auto train = training_vertices(graph, options);
  const std::uint64_t seed = derive_seed(options.seed, kEstimateStream);
  std::vector<double> volume(samples);
  tbb::parallel_for(std::uint32_t{0}, samples, [&](std::uint32_t j) {
    volume[j] = static_cast<double>(
        minibatch_volume(sample_from(graph, train, options, seed, j), partition));
  });
  MinibatchEstimate est;
  est.samples = samples;
  const SampleMean mean = sample_mean(volume);
  est.mean = mean.mean;
  est.standard_error = mean.standard_error;
  return est;
}

} // namespace gnnpart
