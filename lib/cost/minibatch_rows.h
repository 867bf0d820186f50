#pragma once
// The feature rows gnnpart-train's fetch mini-batches move, computed on the whole graph in one
// process (independently of the trainer's distributed sampler, with the same draws:
// lib/cost/neighbor_sampling.h). Per step every rank r draws its seeds from its own training
// vertices, samples their L-hop computation graph top-down (F_L = seeds, F_l = F_{l+1} and the
// layer-l neighbours sampled for every vertex of F_{l+1}) and fetches the input rows of
// F_0 \ block r once. Rows per step = sum over ranks of |F_0 \ block r|.
// This is the stochastic hypergraph model's volume (lib/hypergraph/stochastic_model.h: a needed
// u counted once per distinct block of its needers other than its own) for DistDGL's sampling:
// one batch per rank and one neighbour sample per frontier vertex and rank, shared by the seeds
// that reach it, instead of one independent tree per seed.
#include <cstdint>
#include <span>
#include <vector>

#include "core/graph.h"
#include "core/partition.h"

namespace gnnpart::cost {

struct FetchBatchOptions {
  NodeID batch_size = 0;              // seeds per rank and step
  std::vector<std::uint32_t> fanouts; // per layer, input layer first
  std::uint64_t seed = 1;
};

// F_0 of `seeds` (sorted). The graph's adjacency lists must be sorted.
std::vector<NodeID> input_frontier(const CsrGraph& graph, std::span<const NodeID> seeds,
                                   std::span<const std::uint32_t> fanouts, std::uint64_t stream);

// F_0 without the vertices of `block`: the rows that rank fetches.
std::vector<NodeID> remote_inputs(const CsrGraph& graph, const Partition& partition, BlockID block,
                                  std::span<const NodeID> seeds,
                                  std::span<const std::uint32_t> fanouts, std::uint64_t stream);

// The training vertices, sorted and distinct: `set` (any order, repeats allowed), or every
// vertex when it is empty. Throws InvalidParameter for an id >= n.
std::vector<NodeID> training_vertices(NodeID n, std::span<const NodeID> set);

// Fanouts hop 1 first (the stochastic model's order, and PyG's num_neighbors) in the trainer's
// order, input layer first (DGL's sampler, gnnpart-train --fanouts). Throws InvalidParameter for
// no fanouts or a count below 1 (-1, all neighbours: the trainer samples a fixed number).
std::vector<std::uint32_t> input_layer_first(std::span<const int> hop_first);

// The training vertices of every block, sorted (train: global ids, any order).
std::vector<std::vector<NodeID>> train_by_block(const Partition& partition,
                                                std::span<const NodeID> train);

// Rows of step (epoch, batch) per rank, as the trainer with options.seed samples them.
std::vector<std::uint64_t> fetched_rows(const CsrGraph& graph, const Partition& partition,
                                        const std::vector<std::vector<NodeID>>& train,
                                        const FetchBatchOptions& options, std::uint64_t epoch,
                                        std::uint64_t batch);

struct FetchRowsEstimate {
  double mean = 0;           // expected rows per step, all ranks together
  double standard_error = 0; // sample standard deviation / sqrt(samples)
  std::uint32_t samples = 0;
  std::vector<double> per_block; // expected rows per step fetched by each rank
};

// Throws InvalidParameter on a partition that does not fit the graph, unsorted adjacency, a batch
// size of 0, no fanouts or a fanout of 0.
void check_fetch_options(const CsrGraph& graph, const Partition& partition,
                         const FetchBatchOptions& options);

// The options of the fresh steps every expectation is taken over: a seed derived from
// options.seed that the trainer never uses.
FetchBatchOptions fresh_options(const FetchBatchOptions& options);

// The expectation over `samples` steps drawn with a seed derived from options.seed that the
// trainer never uses (fresh samples, not the training run's own). Parallel over samples inside
// the caller's task_arena; the result does not depend on the thread count. Throws
// InvalidParameter on a partition that does not fit, unsorted adjacency, a batch size of 0 or a
// fanout of 0.
FetchRowsEstimate expected_fetched_rows(const CsrGraph& graph, const Partition& partition,
                                        std::span<const NodeID> train,
                                        const FetchBatchOptions& options, std::uint32_t samples);

} // namespace gnnpart::cost
