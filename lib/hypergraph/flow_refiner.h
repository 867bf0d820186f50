#pragma once
// Flow-based refinement of a k-way partition (KaHyPar-MF / Mt-KaHyPar style): for pairs of
// blocks joined by cut nets (the edges of the quotient graph), a FlowProblem around the pair's
// cut, FlowCutter for a balanced cut below the current one, and the new assignment of the
// region kept only if the objective of the whole partition really decreased and both blocks
// stay within their limits. Rounds repeat over the pairs whose cut nets the previous round's
// moves touched. A round splits its pairs into batches of pairs that share no block and solves
// a batch's pairs in parallel; the batches come from the seed alone, so the partition is the
// same for any thread count.
#include <cstdint>

#include "hypergraph/block_limits.h"
#include "hypergraph/context.h"
#include "hypergraph/partitioned_hypergraph.h"

namespace gnnpart::hg {

struct FlowRefinementStats {
  Weight gain = 0;               // objective decrease, measured by the moves
  Weight expected_gain = 0;      // the same, predicted by the flow problems' cuts
  std::int64_t problems = 0;     // flow problems solved
  std::int64_t improvements = 0; // of them, applied
  int rounds = 0;
};

// Needs a partition within limits.max_weight (else it does nothing). Any objective: the pair's
// network prices each net by what a cut of the pair costs in that objective.
FlowRefinementStats flow_refine(PartitionedHypergraph& phg, const HgContext& ctx,
                                const BlockLimits& limits, std::uint64_t seed);

} // namespace gnnpart::hg
