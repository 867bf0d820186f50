#pragma once
// A k-way vertex partition and the balance bound it must respect.
#include <span>
#include <vector>

#include "core/types.h"

namespace gnnpart {

class CsrGraph;
class Hypergraph;

struct Partition {
  BlockID k = 0;
  std::vector<BlockID> blocks;  // blocks[u] in [0, k)
};

// Largest weight a block may carry for a constraint of total weight `total`:
// floor((1 + epsilon) * ceil(total / k)), the bound evalpart and KaHyPar check.
Weight max_block_weight(Weight total, BlockID k, double epsilon);

// Per-block weights, k * ncon entries, block b's constraint c at b * ncon + c.
std::vector<Weight> block_weights(const CsrGraph& graph, const Partition& partition);
std::vector<Weight> block_weights(const Hypergraph& hypergraph, const Partition& partition);

// Throws InvalidParameter unless the partition has n entries, all < k, and k >= 1.
void check_partition(const Partition& partition, NodeID n);

}  // namespace gnnpart
