#include "distributed/multilevel.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string_view>

#include <fmt/format.h>

#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "core/errors.h"
#include "core/partition.h"
#include "distributed/clustering.h"
#include "distributed/contraction.h"
#include "distributed/fetch.h"
#include "distributed/gathered_refinement.h"
#include "distributed/initial_partition.h"
#include "distributed/jet_refinement.h"
#include "distributed/memory_trace.h"
#include "distributed/refinement.h"
#include "distributed/replicate.h"
#include "distributed/volume_refinement.h"

namespace gnnpart::distributed {

namespace {

struct Level {
  DistGraph graph;               // the coarser graph
  std::vector<NodeID> coarse_of; // per owned vertex of the finer graph: its coarse vertex
  // The level's scratch file once it has been freed (spill_level), kept until the level is
  // done: the graph does not change after its contraction, so a level freed again (after the
  // initial partitioning, around a coarser level refined as a copy) is not written again.
  std::optional<SpilledLevel> disk;
  bool on_disk = false; // graph freed, to be read back from disk
};

// KaMinPar's bound: clusters stay below epsilon * W / k', k' = clamp(n / C, 2, k), so that the
// coarsest graph can still be balanced.
Weight max_cluster_weight(const DistGraph& graph, const DistContext& ctx) {
  const std::uint64_t k_prime = std::clamp<std::uint64_t>(
      graph.global_n / ctx.coarse_per_block, 2, std::max<std::uint64_t>(2, ctx.partition.k));
  return std::max<Weight>(
      1, static_cast<Weight>(ctx.partition.epsilon * static_cast<double>(graph.total_weight) /
                             static_cast<double>(k_prime)));
}

void check_vertex_weights(const Comm& comm, const DistGraph& graph, const DistContext& ctx) {
  const Weight bound = max_block_weight(graph.total_weight, ctx.partition.k, ctx.partition.epsilon);
  std::uint64_t heaviest = kInvalidNodeID;
  for (NodeID u = 0; u < graph.n_local && heaviest == kInvalidNodeID; ++u)
    if (graph.vertex_weight(u) > bound)
      heaviest = graph.first() + u;
  MPI_Allreduce(MPI_IN_PLACE, &heaviest, 1, MPI_UINT64_T, MPI_MIN, comm.comm);
  if (heaviest != kInvalidNodeID)
    throw InfeasibleBalance("vertex " + std::to_string(heaviest) +
                            " is heavier than a block may be (" + std::to_string(bound) +
                            "); raise epsilon or lower k");
}

// Gives the heap's free pages back to the system (the shared-memory engine's many small
// allocations leave free pages between live ones, which the levels read back would sit on top
// of).
void release_free_heap() {
#ifdef __GLIBC__
  malloc_trim(0);
#endif
}

// The finest graph, and its offsets and ghost ids in a scratch file while they wait there
// (spilled_adjacency.h: the ghost ids from its first clustering on, the offsets from its first
// contraction on; both taken back for the projection onto it).
struct Finest {
  DistGraph& graph;
  std::optional<ParkedIndex> parked;
  void unpark(const Comm& comm) {
    if (parked)
      run_phase(comm, [&] { parked->unpark(graph); });
  }
  void park() {
    if (parked)
      parked->park(graph);
  }
  void park_ghosts() {
    if (parked)
      parked->park_ghosts(graph);
  }
};

// Frees a coarse level into a scratch file in ctx.temp_dir (spilled_adjacency.h), written the
// first time only.
void spill_level(const Comm& comm, Level& level, const DistContext& ctx) {
  if (level.on_disk)
    return;
  run_phase(comm, [&] {
    if (level.disk)
      level.graph = DistGraph{};
    else
      level.disk.emplace(level.graph, ctx.temp_dir);
  });
  level.on_disk = true;
}

// Reads the levels on disk back from their scratch files, from the finest up (the files stay
// until the level is done). Each read is the level as it was spilled, so the partition is that
// of --keep-levels.
void restore_levels(const Comm& comm, std::vector<Level>& levels) {
  for (Level& level : levels) {
    if (!level.on_disk)
      continue;
    level.graph = run_phase(comm, [&] { return level.disk->take(); });
    level.on_disk = false;
    mark_memory_phase("restore");
  }
}

// The initial partition of the coarsest level (the blocks of its owned vertices): the level is
// copied onto every rank for the shared-memory engine. Meanwhile the contracted levels wait in
// scratch files (the finer ones from before the copy is made, the coarsest once it is made) and
// are read back afterwards, so the engine's memory comes on top of the finest level only. With
// keep_coarsest (the coarsest level is refined as a copy next, which frees the finer levels
// again) the coarsest level stays and the finer ones stay on disk (Level::on_disk) until that
// refinement is done.
std::vector<BlockID> partition_coarsest(const Comm& comm, const DistGraph& finest,
                                        std::vector<Level>& levels, const DistContext& ctx,
                                        bool keep_coarsest) {
  const auto current = [&]() -> const DistGraph& {
    return levels.empty() ? finest : levels.back().graph;
  };
  std::vector<BlockID> owned;
  {
    const bool free_levels = !ctx.keep_levels && !levels.empty();
    for (std::size_t i = 0; free_levels && i + 1 < levels.size(); ++i)
      spill_level(comm, levels[i], ctx);
    const std::uint64_t first = current().first();
    const NodeID n_local = current().n_local;
    const CsrGraph copy = replicate(comm, current());
    if (free_levels && !keep_coarsest)
      spill_level(comm, levels.back(), ctx);
    mark_memory_phase("replicate");
    owned = initial_partition(comm, copy, first, n_local, ctx);
  }
  release_free_heap();
  mark_memory_phase("initial");
  if (!keep_coarsest)
    restore_levels(comm, levels);
  return owned;
}

// Whether the finest graph's adjacency and the refinement's arrays (Jet: 8 B moves per owned
// and ghost vertex, the best partition, locks and lists of owned vertices, about 16 B per
// owned vertex more; measured at most 24 B per owned vertex and 8 per ghost with the
// balancer's candidates) fit below this rank's peak so far.
bool restoring_keeps_peak(const DistGraph& graph) {
  const ResidentSet rss = resident_set();
  const std::uint64_t need = graph.spilled->entries() * sizeof(NodeID) +
                             24 * std::uint64_t{graph.n_local} + 8 * std::uint64_t{graph.n_ghost()};
  return static_cast<std::uint64_t>(rss.now_kb) * 1024 + need <=
         static_cast<std::uint64_t>(rss.peak_kb) * 1024;
}

// Frees a refined coarse level but for its ranges, which it returns: the projection asks
// only them and the owned vertices' blocks.
std::vector<std::uint64_t> free_but_ranges(DistGraph& coarse) {
  std::vector<std::uint64_t> ranges = std::move(coarse.vtxdist);
  coarse = DistGraph{};
  return ranges;
}

// --log-levels: the weighted cut of blocks (owned and ghost, ghosts current) on a level,
// printed by rank 0 with what was just done. Collective.
void log_cut(const Comm& comm, const DistGraph& graph, const DistContext& ctx, std::size_t level,
             std::string_view stage, const std::vector<BlockID>& blocks) {
  if (!ctx.log_levels)
    return;
  std::int64_t cut = 0;
  RowReader row(graph, true);
  for (NodeID u = 0; u < graph.n_local; ++u) {
    const std::span<const NodeID> neighbours = row(u);
    for (std::size_t j = 0; j < neighbours.size(); ++j)
      if (blocks[neighbours[j]] != blocks[u])
        cut += graph.edge_weight(graph.first_edge(u) + j);
  }
  cut = sum_all(comm, cut) / 2;
  if (comm.rank == 0)
    fmt::print(stderr, "level {} ({} vertices, {} edges): {} cut {}\n", level, graph.global_n,
               graph.global_m, stage, cut);
}

} // namespace

DistPartition partition_distributed(const Comm& comm, DistGraph& graph, const DistContext& ctx) {
  check_vertex_weights(comm, graph, ctx);
  const std::uint64_t limit = std::max<std::uint64_t>(
      std::uint64_t{ctx.coarse_per_block} * ctx.partition.k, ctx.coarse_min);
  std::vector<Level> levels;
  const auto current = [&]() -> const DistGraph& {
    return levels.empty() ? graph : levels.back().graph;
  };
  // From here through its refinement the finest graph is only read row by row, in order or
  // nearly (its clustering, the contractions of the first coarse level, ghost updates, its
  // label propagation, Jet and balancer): its adjacency waits in a scratch file, so that it
  // does not sit under the clustering, the coarse levels, the copy of the coarsest, the engine
  // and the refinement's state; its offsets and ghost ids wait there too while they are not
  // read (Finest).
  Finest finest{graph, std::nullopt};
  if (graph.global_n > limit && !ctx.keep_levels)
    run_phase(comm, [&] {
      spill_adjacency(graph, ctx.temp_dir);
      finest.parked.emplace(graph, ctx.temp_dir);
    });
  while (current().global_n > limit) {
    const DistGraph& fine = current();
    Clustering clustering =
        cluster(comm, fine, ctx, static_cast<int>(levels.size()), max_cluster_weight(fine, ctx));
    if (levels.empty())
      finest.park_ghosts(); // the contraction reads the rows and the ghosts' labels
    Contraction contraction = contract(comm, fine, std::move(clustering), ctx.chunk_items);
    const bool stalled = contraction.coarse.global_n * 20 > fine.global_n * 19;
    if (contraction.coarse.global_n < ctx.partition.k)
      break;
    if (ctx.log_levels) {
      // The coarse level's edge weight: the weight its clustering leaves cut.
      const DistGraph& coarse = contraction.coarse;
      std::int64_t weight = 0;
      for (EdgeID e = 0; e < coarse.local_entries(); ++e)
        weight += coarse.edge_weight(e);
      weight = sum_all(comm, weight) / 2;
      if (comm.rank == 0)
        fmt::print(stderr, "level {}: {} vertices, {} edges, edge weight {} (max cluster {})\n",
                   levels.size() + 1, coarse.global_n, coarse.global_m, weight,
                   max_cluster_weight(fine, ctx));
    }
    levels.push_back({std::move(contraction.coarse), std::move(contraction.coarse_of)});
    if (levels.size() == 1)
      finest.park();
    if (stalled)
      break;
  }

  if (levels.empty()) { // the finest graph is the coarsest
    finest.unpark(comm);
    finest.parked.reset();
    run_phase(comm, [&] { restore_adjacency(graph); });
  }

  // Coarse levels up to this many entries are refined as copies by the shared-memory engine.
  const auto gather_limit = static_cast<std::uint64_t>(
      ctx.gather_fraction * 2.0 * static_cast<double>(graph.global_m) / comm.size);
  // (When the coarsest level is gathered, the finer ones stay on disk after the initial
  // partitioning, until its refinement is done.)
  const bool gather_coarsest = !levels.empty() && gathers(levels.back().graph, ctx, gather_limit);
  const std::vector<BlockID> owned = partition_coarsest(comm, graph, levels, ctx, gather_coarsest);
  const DistGraph& coarsest = current();
  std::vector<BlockID> blocks(coarsest.n_total());
  std::copy(owned.begin(), owned.end(), blocks.begin());
  std::uint64_t balance_moves = 0, gathered_levels = 0;
  update_all_ghosts<BlockID>(comm, coarsest, blocks);
  log_cut(comm, coarsest, ctx, levels.size(), "initial", blocks);
  for (std::size_t level = levels.size(); level-- > 0;) {
    const DistGraph& coarse = levels[level].graph;
    const DistGraph& fine = level == 0 ? graph : levels[level - 1].graph;
    // What the projection asks of the coarse level: its ranges and its owned blocks.
    std::vector<std::uint64_t> coarse_ranges;
    if (gathers(coarse, ctx, gather_limit)) {
      // The copy and the engine's refiners would come on top of every finer level: those wait
      // on disk meanwhile and are read back afterwards, as around the initial partitioning.
      for (std::size_t i = 0; !ctx.keep_levels && i < level; ++i)
        spill_level(comm, levels[i], ctx);
      const bool below_on_disk = level > 0 && levels[level - 1].on_disk;
      gathered_refine(comm, coarse, ctx, static_cast<int>(level + 1), gather_limit, blocks);
      balance_moves += rebalance(comm, coarse, ctx, blocks).moves;
      log_cut(comm, coarse, ctx, level + 1, "gathered", blocks);
      release_free_heap();
      mark_memory_phase("gathered");
      // The level is done before the finer levels come back: it goes but for what the
      // projection asks, so that they do not come back on top of it (with the coarsest level
      // refined as a copy, its rows and ghosts were under the first coarse level's
      // recontraction, the peak of R-MAT 10^7 at P = 4 with --gather-fraction 0.5, until the
      // levels were read back instead of contracted again).
      if (below_on_disk) {
        blocks = std::vector<BlockID>(blocks.begin(), blocks.begin() + coarse.n_local);
        coarse_ranges = free_but_ranges(levels[level].graph);
      }
      restore_levels(comm, levels);
      ++gathered_levels;
    } else {
      log_cut(comm, coarse, ctx, level + 1, "projected", blocks);
      refine(comm, coarse, ctx, static_cast<int>(level + 1), blocks);
      log_cut(comm, coarse, ctx, level + 1, "lp", blocks);
      balance_moves +=
          jet_refine(comm, coarse, ctx, static_cast<int>(level + 1), blocks).balance_moves;
      log_cut(comm, coarse, ctx, level + 1, "jet", blocks);
      // Balancing the coarse levels too leaves the finer refinement a balanced start to
      // improve on; heavy coarse vertices may keep a block over the bound here, the finest
      // level decides.
      balance_moves += rebalance(comm, coarse, ctx, blocks).moves;
      log_cut(comm, coarse, ctx, level + 1, "balanced", blocks);
    }
    mark_memory_phase("refine");
    // Projection: every fine vertex asks the owner of its coarse vertex for the block. Only the
    // coarse ranges and the owned coarse blocks are asked: the coarse graph is freed before the
    // fine blocks grow, and the level's coarse_of once they are known.
    if (coarse_ranges.empty())
      coarse_ranges = free_but_ranges(levels[level].graph);
    std::vector<BlockID> fine_blocks = fetch<BlockID>(comm, coarse_ranges, levels[level].coarse_of,
                                                      [&](NodeID local) { return blocks[local]; });
    std::vector<BlockID>().swap(blocks);
    std::vector<NodeID>().swap(levels[level].coarse_of);
    levels[level].disk.reset();
    if (level == 0) {
      finest.unpark(comm);
      finest.parked.reset();
      // Its ghost updates (label propagation, Jet, balancer) take the ranks of a vertex's ghost
      // copies from a byte per owned vertex, found in one pass over its rows, instead of
      // reading its row from the scratch file twice per update (kept to the end). Not in its
      // clustering: there it saved little and its n_l bytes raised the clustering's peak and
      // the first contraction's, the run's (R-MAT 10^7, P = 4).
      find_ghost_ranks(graph);
    }
    fine_blocks.resize(fine.n_total());
    update_all_ghosts<BlockID>(comm, fine, fine_blocks);
    blocks = std::move(fine_blocks);
    mark_memory_phase("project");
  }
  // The finest level's label propagation, Jet and balancer read its rows in increasing vertex
  // order (RowReader), so its adjacency may stay on disk through them (restored, it was the
  // peak of R-MAT 10^7 at P = 4 under Jet's per-vertex state); but they read every row some 80
  // times, each a copy out of the page cache (R-MAT 10^7 at P = 1: +6.5 s of system time),
  // so a rank takes it back where that leaves its peak as it is (the first contraction's, or
  // the engine's). The result is the same either way.
  run_phase(comm, [&] {
    if (graph.spilled && restoring_keeps_peak(graph))
      restore_adjacency(graph);
  });
  log_cut(comm, graph, ctx, 0, "projected", blocks);
  refine(comm, graph, ctx, 0, blocks);
  log_cut(comm, graph, ctx, 0, "lp", blocks);
  const JetResult jet = jet_refine(comm, graph, ctx, 0, blocks);
  log_cut(comm, graph, ctx, 0, "jet", blocks);
  // As in the shared-memory engine, the volume objective acts on the finest level only.
  std::uint64_t volume_gain = 0;
  if (ctx.partition.objective == Objective::kVolume) {
    run_phase(comm, [&] { restore_adjacency(graph); });
    volume_gain = volume_refine(comm, graph, ctx, blocks);
  }
  const RebalanceResult balance = rebalance(comm, graph, ctx, blocks);
  std::vector<std::uint8_t>().swap(graph.ghost_ranks);
  if (!balance.balanced)
    throw InfeasibleBalance("the distributed balancer could not bring every block within the "
                            "bound");
  return {std::move(blocks), balance_moves + jet.balance_moves + balance.moves, jet.cut_gain,
          volume_gain, gathered_levels};
}

} // namespace gnnpart::distributed
