#include "core/metrics.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <utility>

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include "core/errors.h"

namespace gnnpart {

namespace {

constexpr std::size_t kGrain = 2048;
// Ordered block pairs are tracked in a shared k x k bitset up to this k (8 MiB), above it in
// per-thread lists of pair ids that are sorted and deduplicated.
constexpr BlockID kDensePairLimit = 8192;
// Edge-partition metrics keep one k-bit set per vertex; when n * k bits exceed this budget the
// blocks are processed in several passes of 64-block words.
constexpr std::size_t kEdgeMaskBudgetBytes = std::size_t{128} << 20;

double ratio_minus_one(Weight max_weight, Weight total, BlockID k) {
  if (k == 0 || total <= 0)
    return 0.0;
  const Weight perfect = (total + static_cast<Weight>(k) - 1) / static_cast<Weight>(k);
  return static_cast<double>(max_weight) / static_cast<double>(perfect) - 1.0;
}

// Per-constraint imbalance from block weights laid out as b * ncon + c.
std::vector<double> imbalance_per_constraint(std::span<const Weight> weights, int ncon,
                                             std::span<const Weight> totals, BlockID k) {
  std::vector<double> result(ncon, 0.0);
  for (int c = 0; c < ncon; ++c) {
    Weight max_weight = 0;
    for (BlockID b = 0; b < k; ++b)
      max_weight = std::max(max_weight, weights[static_cast<std::size_t>(b) * ncon + c]);
    result[c] = ratio_minus_one(max_weight, totals[c], k);
  }
  return result;
}

void sort_unique(std::vector<std::uint64_t>& ids) {
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
}

// A GraphMetrics with n, m and k set and the per-block send, receive and size arrays zeroed.
GraphMetrics zeroed_graph_metrics(const CsrGraph& graph, BlockID k) {
  GraphMetrics metrics;
  metrics.n = graph.num_nodes();
  metrics.m = graph.num_edges();
  metrics.k = k;
  metrics.send_volume.assign(k, 0);
  metrics.recv_volume.assign(k, 0);
  metrics.block_sizes.assign(k, 0);
  return metrics;
}

// Fills the fields derived from per-block arrays and scalar sums.
void finish_graph_metrics(const CsrGraph& graph, GraphMetrics& metrics,
                          std::span<const Weight> block_weight_array) {
  const BlockID k = metrics.k;
  const int ncon = graph.ncon();
  metrics.max_send_volume = 0;
  metrics.max_recv_volume = 0;
  metrics.max_block_volume = 0;
  Weight halo = 0;
  Weight max_size = 0;
  metrics.empty_blocks = 0;
  for (BlockID b = 0; b < k; ++b) {
    metrics.max_send_volume = std::max(metrics.max_send_volume, metrics.send_volume[b]);
    metrics.max_recv_volume = std::max(metrics.max_recv_volume, metrics.recv_volume[b]);
    metrics.max_block_volume =
        std::max(metrics.max_block_volume, metrics.send_volume[b] + metrics.recv_volume[b]);
    halo += metrics.recv_volume[b];
    max_size = std::max(max_size, metrics.block_sizes[b]);
    if (metrics.block_sizes[b] == 0)
      ++metrics.empty_blocks;
  }
  metrics.halo_ratio = metrics.n == 0 ? 0.0 : static_cast<double>(halo) / metrics.n;
  metrics.imbalance_vertices = ratio_minus_one(max_size, metrics.n, k);
  std::vector<Weight> totals(ncon);
  for (int c = 0; c < ncon; ++c)
    totals[c] = graph.total_vertex_weight(c);
  metrics.imbalance = imbalance_per_constraint(block_weight_array, ncon, totals, k);
}

struct GraphLocal {
  explicit GraphLocal(BlockID k, int ncon)
      : mark(k, kInvalidNodeID), send(k, 0), recv(k, 0), sizes(k, 0),
        weights(static_cast<std::size_t>(k) * ncon, 0) {}
  std::vector<NodeID> mark;
  std::vector<Weight> send;
  std::vector<Weight> recv;
  std::vector<Weight> sizes;
  std::vector<Weight> weights;
  std::vector<std::uint64_t> pairs; // sparse pair mode only
  std::size_t pairs_unique = 0;
  EdgeID cut = 0;
  Weight weighted_cut = 0;
  Weight volume = 0;
  NodeID boundary = 0;
};

} // namespace

double imbalance(std::span<const Weight> block_weights_of_constraint, Weight total, BlockID k) {
  Weight max_weight = 0;
  for (Weight w : block_weights_of_constraint)
    max_weight = std::max(max_weight, w);
  return ratio_minus_one(max_weight, total, k);
}

GraphMetrics compute_graph_metrics(const CsrGraph& graph, const Partition& partition) {
  const NodeID n = graph.num_nodes();
  check_partition(partition, n);
  const BlockID k = partition.k;
  const int ncon = graph.ncon();
  const auto& part = partition.blocks;
  const bool dense_pairs = k <= kDensePairLimit;
  const std::size_t pair_words =
      dense_pairs ? (static_cast<std::size_t>(k) * k + 63) / 64 : std::size_t{0};
  std::vector<std::uint64_t> pair_bits(pair_words, 0);

  tbb::enumerable_thread_specific<GraphLocal> locals([&] { return GraphLocal(k, ncon); });
  // The arc loop reads raw arrays held in the task's own variables and sums into locals:
  // through the vectors, the captured references and the GraphLocal fields, every store of a
  // sum or a mark (which may alias them, as far as the compiler knows) made it load the arrays'
  // addresses again on the next arc. Most arcs are internal and cost a target, its block and a
  // comparison.
  tbb::parallel_for(
      tbb::blocked_range<NodeID>(0, n, kGrain), [&](const tbb::blocked_range<NodeID>& r) {
        const EdgeID* offsets = graph.offsets().data();
        const NodeID* targets = graph.adjacency().data();
        const Weight* edge_weights =
            graph.has_edge_weights() ? graph.edge_weights().data() : nullptr;
        const BlockID* blocks = part.data();
        GraphLocal& local = locals.local();
        NodeID* mark = local.mark.data();
        Weight* recv = local.recv.data();
        EdgeID cut = 0;
        Weight weighted_cut = 0, volume = 0;
        NodeID boundary = 0;
        for (NodeID u = r.begin(); u != r.end(); ++u) {
          const BlockID p = blocks[u];
          ++local.sizes[p];
          for (int c = 0; c < ncon; ++c)
            local.weights[static_cast<std::size_t>(p) * ncon + c] += graph.vertex_weight(u, c);
          mark[p] = u;
          Weight lambda_minus_one = 0;
          const EdgeID last = offsets[u + 1];
          for (EdgeID e = offsets[u]; e < last; ++e) {
            const NodeID v = targets[e];
            const BlockID q = blocks[v];
            if (q == p)
              continue;
            if (v > u) {
              ++cut;
              weighted_cut += edge_weights == nullptr ? 1 : edge_weights[e];
            }
            if (mark[q] == u)
              continue;
            mark[q] = u;
            ++lambda_minus_one;
            ++recv[q];
            const std::uint64_t id = static_cast<std::uint64_t>(p) * k + q;
            if (dense_pairs) {
              std::atomic_ref<std::uint64_t> word(pair_bits[id >> 6]);
              const std::uint64_t bit = std::uint64_t{1} << (id & 63);
              if ((word.load(std::memory_order_relaxed) & bit) == 0)
                word.fetch_or(bit, std::memory_order_relaxed);
            } else {
              local.pairs.push_back(id);
              if (local.pairs.size() > 2 * local.pairs_unique + (std::size_t{1} << 20)) {
                sort_unique(local.pairs);
                local.pairs_unique = local.pairs.size();
              }
            }
          }
          local.send[p] += lambda_minus_one;
          volume += lambda_minus_one;
          if (lambda_minus_one > 0)
            ++boundary;
        }
        local.cut += cut;
        local.weighted_cut += weighted_cut;
        local.volume += volume;
        local.boundary += boundary;
      });

  GraphMetrics metrics = zeroed_graph_metrics(graph, k);
  std::vector<Weight> weights(static_cast<std::size_t>(k) * ncon, 0);
  std::vector<std::uint64_t> all_pairs;
  for (GraphLocal& local : locals) {
    metrics.edge_cut += local.cut;
    metrics.weighted_edge_cut += local.weighted_cut;
    metrics.comm_volume += local.volume;
    metrics.boundary_vertices += local.boundary;
    for (BlockID b = 0; b < k; ++b) {
      metrics.send_volume[b] += local.send[b];
      metrics.recv_volume[b] += local.recv[b];
      metrics.block_sizes[b] += local.sizes[b];
    }
    for (std::size_t i = 0; i < weights.size(); ++i)
      weights[i] += local.weights[i];
    all_pairs.insert(all_pairs.end(), local.pairs.begin(), local.pairs.end());
  }
  if (dense_pairs) {
    for (std::uint64_t word : pair_bits)
      metrics.num_comm_pairs += std::popcount(word);
  } else {
    sort_unique(all_pairs);
    metrics.num_comm_pairs = all_pairs.size();
  }
  finish_graph_metrics(graph, metrics, weights);
  return metrics;
}

GraphMetrics compute_graph_metrics_sequential(const CsrGraph& graph, const Partition& partition) {
  const NodeID n = graph.num_nodes();
  check_partition(partition, n);
  const BlockID k = partition.k;
  const auto& part = partition.blocks;
  GraphMetrics metrics = zeroed_graph_metrics(graph, k);
  std::vector<NodeID> mark(k, kInvalidNodeID);
  const bool dense_pairs = k <= kDensePairLimit;
  std::vector<bool> pair_seen(dense_pairs ? static_cast<std::size_t>(k) * k : 0, false);
  std::vector<std::uint64_t> pairs;
  for (NodeID u = 0; u < n; ++u) {
    const BlockID p = part[u];
    ++metrics.block_sizes[p];
    mark[p] = u;
    Weight lambda_minus_one = 0;
    for (EdgeID e = graph.first_edge(u); e < graph.last_edge(u); ++e) {
      const NodeID v = graph.edge_target(e);
      const BlockID q = part[v];
      if (q == p)
        continue;
      if (v > u) {
        ++metrics.edge_cut;
        metrics.weighted_edge_cut += graph.edge_weight(e);
      }
      if (mark[q] == u)
        continue;
      mark[q] = u;
      ++lambda_minus_one;
      ++metrics.recv_volume[q];
      const std::uint64_t id = static_cast<std::uint64_t>(p) * k + q;
      if (!dense_pairs) {
        pairs.push_back(id);
      } else if (!pair_seen[id]) {
        pair_seen[id] = true;
        ++metrics.num_comm_pairs;
      }
    }
    metrics.send_volume[p] += lambda_minus_one;
    metrics.comm_volume += lambda_minus_one;
    if (lambda_minus_one > 0)
      ++metrics.boundary_vertices;
  }
  if (!dense_pairs) {
    sort_unique(pairs);
    metrics.num_comm_pairs = pairs.size();
  }
  finish_graph_metrics(graph, metrics, block_weights(graph, partition));
  return metrics;
}

namespace {

void check_edge_partition(NodeID n, std::span<const NodeID> sources,
                          std::span<const NodeID> targets, std::span<const BlockID> edge_blocks,
                          BlockID k) {
  if (k < 1)
    throw InvalidParameter("an edge partition needs k >= 1");
  if (targets.size() != sources.size() || edge_blocks.size() != sources.size())
    throw InvalidParameter(fmt::format("edge partition has {} sources, {} targets, {} blocks",
                                       sources.size(), targets.size(), edge_blocks.size()));
  for (std::size_t i = 0; i < sources.size(); ++i) {
    if (sources[i] >= n || targets[i] >= n)
      throw InvalidParameter(fmt::format("edge {} has a vertex id >= n = {}", i, n));
    if (edge_blocks[i] >= k)
      throw InvalidParameter(
          fmt::format("edge {} is in block {}, but k = {}", i, edge_blocks[i], k));
  }
}

void finish_edge_metrics(EdgePartitionMetrics& metrics) {
  EdgeID max_edges = 0;
  for (EdgeID count : metrics.edges_per_block)
    max_edges = std::max(max_edges, count);
  metrics.replication_factor =
      metrics.covered_vertices == 0
          ? 0.0
          : static_cast<double>(metrics.vertex_copies) / metrics.covered_vertices;
  metrics.edge_imbalance =
      ratio_minus_one(static_cast<Weight>(max_edges), static_cast<Weight>(metrics.m), metrics.k);
}

struct EdgeLocal {
  explicit EdgeLocal(BlockID k) : edges(k, 0), copies(k, 0) {}
  std::vector<EdgeID> edges;
  std::vector<NodeID> copies;
  std::uint64_t total_copies = 0;
  NodeID covered = 0;
};

} // namespace

EdgePartitionMetrics compute_edge_partition_metrics(NodeID n, std::span<const NodeID> sources,
                                                    std::span<const NodeID> targets,
                                                    std::span<const BlockID> edge_blocks,
                                                    BlockID k) {
  check_edge_partition(n, sources, targets, edge_blocks, k);
  const std::size_t m = sources.size();
  const std::size_t total_words = (static_cast<std::size_t>(k) + 63) / 64;
  const std::size_t budget_words =
      kEdgeMaskBudgetBytes / (sizeof(std::uint64_t) * std::max<std::size_t>(n, 1));
  const std::size_t words_per_pass = std::clamp<std::size_t>(budget_words, 1, total_words);

  tbb::enumerable_thread_specific<EdgeLocal> locals([&] { return EdgeLocal(k); });
  std::vector<std::uint64_t> masks;
  for (std::size_t first_word = 0; first_word < total_words; first_word += words_per_pass) {
    const std::size_t words = std::min(words_per_pass, total_words - first_word);
    const BlockID first_block = static_cast<BlockID>(first_word * 64);
    const BlockID end_block =
        static_cast<BlockID>(std::min<std::size_t>(k, (first_word + words) * 64));
    const bool first_pass = first_word == 0;
    masks.assign(static_cast<std::size_t>(n) * words, 0);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, m, kGrain),
                      [&](const tbb::blocked_range<std::size_t>& r) {
                        EdgeLocal& local = locals.local();
                        for (std::size_t i = r.begin(); i != r.end(); ++i) {
                          const BlockID b = edge_blocks[i];
                          if (first_pass)
                            ++local.edges[b];
                          if (b < first_block || b >= end_block)
                            continue;
                          const std::size_t word = (b - first_block) >> 6;
                          const std::uint64_t bit = std::uint64_t{1} << (b & 63);
                          for (NodeID u : {sources[i], targets[i]}) {
                            std::atomic_ref<std::uint64_t> mask(masks[u * words + word]);
                            if ((mask.load(std::memory_order_relaxed) & bit) == 0)
                              mask.fetch_or(bit, std::memory_order_relaxed);
                          }
                        }
                      });
    tbb::parallel_for(tbb::blocked_range<NodeID>(0, n, kGrain),
                      [&](const tbb::blocked_range<NodeID>& r) {
                        EdgeLocal& local = locals.local();
                        for (NodeID u = r.begin(); u != r.end(); ++u) {
                          for (std::size_t w = 0; w < words; ++w) {
                            std::uint64_t bits = masks[static_cast<std::size_t>(u) * words + w];
                            local.total_copies += std::popcount(bits);
                            while (bits != 0) {
                              const int bit = std::countr_zero(bits);
                              bits &= bits - 1;
                              ++local.copies[first_block + w * 64 + bit];
                            }
                          }
                        }
                      });
  }
  // A vertex is covered when it has an edge, whatever its block: count endpoints once each.
  masks.assign((static_cast<std::size_t>(n) + 63) / 64, 0);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, m, kGrain),
                    [&](const tbb::blocked_range<std::size_t>& r) {
                      for (std::size_t i = r.begin(); i != r.end(); ++i) {
                        for (NodeID u : {sources[i], targets[i]}) {
                          std::atomic_ref<std::uint64_t> word(masks[u >> 6]);
                          const std::uint64_t bit = std::uint64_t{1} << (u & 63);
                          if ((word.load(std::memory_order_relaxed) & bit) == 0)
                            word.fetch_or(bit, std::memory_order_relaxed);
                        }
                      }
                    });
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, masks.size(), kGrain),
                    [&](const tbb::blocked_range<std::size_t>& r) {
                      EdgeLocal& local = locals.local();
                      for (std::size_t w = r.begin(); w != r.end(); ++w)
                        local.covered += std::popcount(masks[w]);
                    });

  EdgePartitionMetrics metrics;
  metrics.n = n;
  metrics.m = m;
  metrics.k = k;
  metrics.edges_per_block.assign(k, 0);
  metrics.copies_per_block.assign(k, 0);
  for (const EdgeLocal& local : locals) {
    metrics.vertex_copies += local.total_copies;
    metrics.covered_vertices += local.covered;
    for (BlockID b = 0; b < k; ++b) {
      metrics.edges_per_block[b] += local.edges[b];
      metrics.copies_per_block[b] += local.copies[b];
    }
  }
  finish_edge_metrics(metrics);
  return metrics;
}

EdgePartitionMetrics compute_edge_partition_metrics_sequential(NodeID n,
                                                               std::span<const NodeID> sources,
                                                               std::span<const NodeID> targets,
                                                               std::span<const BlockID> edge_blocks,
                                                               BlockID k) {
  check_edge_partition(n, sources, targets, edge_blocks, k);
  EdgePartitionMetrics metrics;
  metrics.n = n;
  metrics.m = sources.size();
  metrics.k = k;
  metrics.edges_per_block.assign(k, 0);
  metrics.copies_per_block.assign(k, 0);
  // Reference version: every (vertex, block) incidence, sorted and deduplicated.
  std::vector<std::pair<NodeID, BlockID>> incidences;
  incidences.reserve(2 * sources.size());
  for (std::size_t i = 0; i < sources.size(); ++i) {
    ++metrics.edges_per_block[edge_blocks[i]];
    incidences.emplace_back(sources[i], edge_blocks[i]);
    incidences.emplace_back(targets[i], edge_blocks[i]);
  }
  std::sort(incidences.begin(), incidences.end());
  incidences.erase(std::unique(incidences.begin(), incidences.end()), incidences.end());
  for (std::size_t i = 0; i < incidences.size(); ++i) {
    ++metrics.copies_per_block[incidences[i].second];
    if (i == 0 || incidences[i - 1].first != incidences[i].first)
      ++metrics.covered_vertices;
  }
  metrics.vertex_copies = incidences.size();
  finish_edge_metrics(metrics);
  return metrics;
}

namespace {

struct HyperLocal {
  HyperLocal(BlockID k, int ncon)
      : mark(k, kInvalidNodeID), sizes(k, 0), weights(static_cast<std::size_t>(k) * ncon, 0) {}
  std::vector<NetID> mark;
  std::vector<NodeID> sizes;
  std::vector<Weight> weights;
  Weight km1 = 0;
  Weight cut = 0;
  Weight soed = 0;
};

void finish_hypergraph_metrics(const Hypergraph& hypergraph, HypergraphMetrics& metrics,
                               std::span<const NodeID> sizes, std::span<const Weight> weights) {
  const int ncon = hypergraph.ncon();
  std::vector<Weight> totals(ncon);
  for (int c = 0; c < ncon; ++c)
    totals[c] = hypergraph.total_vertex_weight(c);
  metrics.imbalance = imbalance_per_constraint(weights, ncon, totals, metrics.k);
  metrics.empty_blocks = static_cast<BlockID>(std::count(sizes.begin(), sizes.end(), NodeID{0}));
}

} // namespace

HypergraphMetrics compute_hypergraph_metrics(const Hypergraph& hypergraph,
                                             const Partition& partition) {
  const NodeID n = hypergraph.num_nodes();
  check_partition(partition, n);
  const BlockID k = partition.k;
  const int ncon = hypergraph.ncon();
  const auto& part = partition.blocks;
  tbb::enumerable_thread_specific<HyperLocal> locals([&] { return HyperLocal(k, ncon); });
  tbb::parallel_for(tbb::blocked_range<NetID>(0, hypergraph.num_nets(), kGrain),
                    [&](const tbb::blocked_range<NetID>& r) {
                      HyperLocal& local = locals.local();
                      for (NetID e = r.begin(); e != r.end(); ++e) {
                        Weight lambda = 0;
                        for (NodeID pin : hypergraph.pins(e)) {
                          const BlockID b = part[pin];
                          if (local.mark[b] == e)
                            continue;
                          local.mark[b] = e;
                          ++lambda;
                        }
                        if (lambda <= 1)
                          continue;
                        const Weight w = hypergraph.net_weight(e);
                        local.km1 += (lambda - 1) * w;
                        local.cut += w;
                        local.soed += lambda * w;
                      }
                    });
  tbb::parallel_for(
      tbb::blocked_range<NodeID>(0, n, kGrain), [&](const tbb::blocked_range<NodeID>& r) {
        HyperLocal& local = locals.local();
        for (NodeID u = r.begin(); u != r.end(); ++u) {
          const BlockID b = part[u];
          ++local.sizes[b];
          for (int c = 0; c < ncon; ++c)
            local.weights[static_cast<std::size_t>(b) * ncon + c] += hypergraph.vertex_weight(u, c);
        }
      });
  HypergraphMetrics metrics;
  metrics.n = n;
  metrics.num_nets = hypergraph.num_nets();
  metrics.num_pins = hypergraph.num_pins();
  metrics.k = k;
  std::vector<NodeID> sizes(k, 0);
  std::vector<Weight> weights(static_cast<std::size_t>(k) * ncon, 0);
  for (const HyperLocal& local : locals) {
    metrics.km1 += local.km1;
    metrics.cut += local.cut;
    metrics.soed += local.soed;
    for (BlockID b = 0; b < k; ++b)
      sizes[b] += local.sizes[b];
    for (std::size_t i = 0; i < weights.size(); ++i)
      weights[i] += local.weights[i];
  }
  finish_hypergraph_metrics(hypergraph, metrics, sizes, weights);
  return metrics;
}

HypergraphMetrics compute_hypergraph_metrics_sequential(const Hypergraph& hypergraph,
                                                        const Partition& partition) {
  const NodeID n = hypergraph.num_nodes();
  check_partition(partition, n);
  const BlockID k = partition.k;
  const auto& part = partition.blocks;
  HypergraphMetrics metrics;
  metrics.n = n;
  metrics.num_nets = hypergraph.num_nets();
  metrics.num_pins = hypergraph.num_pins();
  metrics.k = k;
  std::vector<NetID> mark(k, kInvalidNodeID);
  for (NetID e = 0; e < hypergraph.num_nets(); ++e) {
    Weight lambda = 0;
    for (NodeID pin : hypergraph.pins(e)) {
      if (mark[part[pin]] != e) {
        mark[part[pin]] = e;
        ++lambda;
      }
    }
    if (lambda > 1) {
      metrics.km1 += (lambda - 1) * hypergraph.net_weight(e);
      metrics.cut += hypergraph.net_weight(e);
      metrics.soed += lambda * hypergraph.net_weight(e);
    }
  }
  std::vector<NodeID> sizes(k, 0);
  for (NodeID u = 0; u < n; ++u)
    ++sizes[part[u]];
  finish_hypergraph_metrics(hypergraph, metrics, sizes, block_weights(hypergraph, partition));
  return metrics;
}

} // namespace gnnpart
