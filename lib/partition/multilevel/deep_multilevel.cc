#include "partition/multilevel/deep_multilevel.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include <tbb/parallel_for.h>

#include "core/multilevel_steps.h"
#include "core/random.h"
#include "core/timer.h"
#include "partition/multilevel/coarsening/coarsener.h"
#include "partition/multilevel/initial/recursive_bisection.h"
#include "partition/multilevel/partitioned_graph.h"
#include "partition/multilevel/refinement/refiners.h"
#include "partition/multilevel/subgraph.h"

namespace gnnpart::ml {

namespace {

// Block b of a partition being extended stands for the final blocks [first[b], first[b] +
// count[b]). Splitting keeps the order, so once every count is 1, first[b] == b.
struct BlockRanges {
  std::vector<BlockID> first{0};
  std::vector<BlockID> count;
  BlockID size() const { return static_cast<BlockID>(first.size()); }
  bool complete() const {
    return std::all_of(count.begin(), count.end(), [](BlockID c) { return c == 1; });
  }
};

// The blocks a level should hold: those its finer level needs (n_finer vertices, 0 on the input
// level: all k), the largest power of two with at least C vertices per block there, at least 2.
// Blocks are split on the coarser of two levels, so a split bisects about C to 2 C vertices
// (fewer when a level needs two splits) and needs no coarsening of its own, where a split on a
// level that label propagation shrank several fold would coarsen its subgraph again (21 shared
// graphs x 2 seeds at k = 128: 1.11x the CPU time of this rule for 0.991x its cut).
BlockID blocks_for_level(NodeID n_finer, BlockID k, NodeID contraction_limit) {
  if (n_finer == 0)
    return k;
  const NodeID per_c = n_finer / std::max<NodeID>(contraction_limit, 1);
  const BlockID pow2 = per_c < 2 ? 2 : std::bit_floor(per_c);
  return std::min(pow2, k);
}

// Limits of the blocks of `ranges`: a block standing for c of the k final blocks may exceed its
// share W c / k by the slack of the bisection levels above it, (1 + eps')^d with
// (1 + eps')^depth = the final ratio, as recursive bisection's sides may; never more than the
// sum of its final limits.
BlockLimits level_limits(const CsrGraph& graph, const BlockRanges& ranges, BlockID k,
                         std::span<const Weight> final_max) {
  const int ncon = graph.ncon();
  BlockLimits l;
  l.k = ranges.size();
  l.ncon = ncon;
  l.max_weight.assign(static_cast<std::size_t>(l.k) * ncon, 0);
  const double depth = std::ceil(std::log2(static_cast<double>(k)));
  for (int c = 0; c < ncon; ++c) {
    const auto total = static_cast<double>(graph.total_vertex_weight(c));
    const double ratio = total > 0 ? static_cast<double>(final_max[c]) * k / total : 1.0;
    for (BlockID b = 0; b < l.k; ++b) {
      const BlockID count = ranges.count[b];
      const double above = depth - std::ceil(std::log2(static_cast<double>(count)));
      const double perfect = total * count / k;
      const double slack = ratio > 1.0 ? std::pow(ratio, above / depth) : 1.0;
      Weight bound = static_cast<Weight>(std::floor(slack * perfect + 1e-9));
      bound = std::min(bound, final_max[c] * static_cast<Weight>(count));
      bound = std::max(bound, static_cast<Weight>(std::ceil(perfect - 1e-9)));
      l.max_weight[static_cast<std::size_t>(b) * ncon + c] = bound;
    }
  }
  return l;
}

// Bisects every block that stands for more than one final block (in parallel; each from its
// own seed) and renumbers the blocks in order.
void split_blocks(const CsrGraph& graph, std::vector<BlockID>& blocks, BlockRanges& ranges,
                  std::span<const Weight> final_max, const MultilevelContext& ctx,
                  std::uint64_t seed) {
  const BlockID nb = ranges.size();
  std::vector<Subgraph> parts = extract_block_subgraphs(graph, blocks, nb);
  std::vector<std::vector<BlockID>> sides(nb);
  tbb::parallel_for(BlockID{0}, nb, [&](BlockID b) {
    if (ranges.count[b] > 1)
      sides[b] = bisect_for_blocks(parts[b].graph, ranges.count[b], final_max, ctx,
                                   derive_seed(seed, ranges.first[b], ranges.count[b]));
  });
  BlockRanges next;
  next.first.clear();
  for (BlockID b = 0; b < nb; ++b) {
    const BlockID id = next.size();
    const BlockID count = ranges.count[b];
    const BlockID count0 = (count + 1) / 2;
    next.first.push_back(ranges.first[b]);
    next.count.push_back(count > 1 ? count0 : 1);
    if (count > 1) {
      next.first.push_back(ranges.first[b] + count0);
      next.count.push_back(count / 2);
    }
    const std::vector<NodeID>& nodes = parts[b].nodes;
    for (std::size_t i = 0; i < nodes.size(); ++i)
      blocks[nodes[i]] = count > 1 ? id + sides[b][i] : id;
  }
  ranges = std::move(next);
}

} // namespace

std::vector<BlockID> deep_multilevel_partition(const CsrGraph& graph, const BlockLimits& limits,
                                               double epsilon, const MultilevelContext& ctx,
                                               std::uint64_t seed) {
  const BlockID k = limits.k;
  std::vector<Weight> final_max(graph.ncon());
  for (int c = 0; c < graph.ncon(); ++c)
    final_max[c] = limits.max(0, c);
  Hierarchy h = [&] {
    const auto phase = scoped_phase(ctx.timer, "coarsen");
    return coarsen(graph, k, epsilon, ctx.coarsening, seed, {}, {}, 2);
  }();
  const auto phase = scoped_phase(ctx.timer, "uncoarsen");
  BlockRanges ranges;
  ranges.count = {k};
  const std::size_t levels = h.coarsest() + 1; // for the progress line (levels are freed)
  std::vector<BlockID> start(h.graph(h.coarsest()).num_nodes(), 0);
  return uncoarsen_levels(
      h.coarsest(), std::move(start),
      [&](std::size_t level, std::vector<BlockID> blocks) {
        const CsrGraph& g = h.graph(level);
        report_level(ctx.timer, levels - level, levels, g.num_nodes());
        const NodeID n_finer = level == 0 ? 0 : h.graph(level - 1).num_nodes();
        const BlockID target = blocks_for_level(n_finer, k, ctx.coarsening.contraction_limit);
        while (ranges.size() < target && !ranges.complete())
          split_blocks(g, blocks, ranges, final_max, ctx,
                       derive_seed(seed, 52, level, ranges.size()));
        const BlockLimits level_max =
            ranges.complete() ? limits : level_limits(g, ranges, k, final_max);
        PartitionedGraph p(g, ranges.size(), std::move(blocks));
        refine_level(p, level_max, ctx, derive_seed(seed, 60, level));
        return p.take_blocks();
      },
      [&](std::size_t level, std::vector<BlockID> blocks) {
        return project_and_free(h, level, blocks);
      });
}

} // namespace gnnpart::ml
