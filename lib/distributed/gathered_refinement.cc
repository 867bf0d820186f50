#include "distributed/gathered_refinement.h"

#include <algorithm>

#include <tbb/task_arena.h>

#include "core/block_limits.h"
#include "core/random.h"
#include "distributed/replicate.h"
#include "partition/multilevel/context.h"
#include "partition/multilevel/objectives.h"
#include "partition/multilevel/partitioned_graph.h"
#include "partition/multilevel/refinement/refiners.h"

namespace gnnpart::distributed {

bool gathers(const DistGraph& graph, const DistContext& ctx, std::uint64_t max_entries) {
  return 2 * graph.global_m <= max_entries && ctx.partition.k >= 2;
}

bool gathered_refine(const Comm& comm, const DistGraph& graph, const DistContext& ctx, int level,
                     std::uint64_t max_entries, std::vector<BlockID>& blocks) {
  if (!gathers(graph, ctx, max_entries))
    return false;
  const CsrGraph copy = replicate(comm, graph);
  std::vector<BlockID> all =
      all_gather(comm, std::vector<BlockID>(blocks.begin(), blocks.begin() + graph.n_local));
  PartitionOptions options = ctx.partition;
  options.seed = derive_seed(ctx.partition.seed, 0x9a, static_cast<std::uint64_t>(level),
                             static_cast<std::uint64_t>(comm.rank));
  const ml::MultilevelContext ml_ctx = ml::create_context(options);
  const BlockLimits limits = uniform_limits(copy, options.k, options.epsilon);
  ml::PartitionedGraph p(copy, options.k, std::move(all));
  tbb::task_arena arena(std::max(1, options.threads));
  arena.execute([&] { ml::refine_level(p, limits, ml_ctx, options.seed); });
  const int winner = best_rank(comm, !p.balanced(limits),
                               static_cast<std::uint64_t>(ml::edge_cut(copy, p.blocks())));
  all = p.take_blocks();
  MPI_Bcast(all.data(), static_cast<int>(all.size()), MPI_UINT32_T, winner, comm.comm);
  std::copy_n(all.begin() + static_cast<std::ptrdiff_t>(graph.first()), graph.n_local,
              blocks.begin());
  update_all_ghosts<BlockID>(comm, graph, blocks);
  return true;
}

} // namespace gnnpart::distributed
