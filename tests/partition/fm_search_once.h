#pragma once
// One localized FM search over a PlainView of a given partition, and what the search tests read
// back from it: its gain, the length of its best prefix and every move it tried.
#include <cstdint>
#include <utility>
#include <vector>

#include "core/block_limits.h"
#include "partition/multilevel/context.h"
#include "partition/multilevel/partitioned_graph.h"
#include "partition/multilevel/refinement/fm_search.h"
#include "plain_fm_view.h"

namespace gnnpart::ml_test {

struct Searched {
  Weight gain;
  std::size_t best_len;
  std::vector<ml::FmMove> moves;
};

// Block limits (1 + epsilon) x the average block weight; `cheap` as PlainView's.
inline Searched search_once(const CsrGraph& g, BlockID k, std::vector<BlockID> blocks,
                            double epsilon, const std::vector<NodeID>& seeds,
                            const ml::RefinementContext& ctx, bool cheap = false) {
  ml::PartitionedGraph p(g, k, std::move(blocks));
  const BlockLimits limits = uniform_limits(g, k, epsilon);
  PlainView view(p, limits, cheap);
  ml::FmSearch<PlainView> search(view, g, ctx);
  const std::vector<std::uint8_t> locked(g.num_nodes(), 0);
  const Weight gain = search.run(seeds, locked);
  return {gain, search.best_len(), search.moves()};
}

} // namespace gnnpart::ml_test
