#pragma once
// Options of one distributed run, validated once at the entry point and passed down.
#include <cstdint>

#include "core/options.h"
#include "core/types.h"

namespace gnnpart::distributed {

struct DistContext {
  PartitionOptions partition;    // k, epsilon, seed, objective, threads per rank
  NodeID coarse_per_block = 400; // coarsen until at most max(C * k, coarse_min) vertices
  NodeID coarse_min = 20000;     // (a replicated graph of this size is cheap on any rank)
  int cluster_rounds = 5;        // label propagation rounds per level
  int refine_rounds = 6;
  int batches = 8; // per round: ghost labels and weights synchronised after each
  int balance_rounds = 64;
  // Items per round of the large exchanges (input edges, coarse edges) from all ranks
  // together: each rank sends chunks of chunk_items / P, one chunk's buffers held at a time
  // (text parsed in pieces of 16 bytes per item, binary read in blocks of that many records).
  // Results do not depend on it (--chunk-items, a test knob).
  std::uint64_t chunk_items = std::uint64_t{1} << 18;
  // Balance bound of the coarsest partition; < 0: partition.epsilon. A looser one leaves blocks
  // over the bound for the refinement and the balancer (--initial-epsilon, a test knob).
  double initial_epsilon = -1;
};

} // namespace gnnpart::distributed
