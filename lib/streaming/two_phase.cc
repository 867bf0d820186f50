#include "streaming/two_phase.h"

#include <bit>

#include <fmt/core.h>

#include "core/errors.h"
#include "streaming/edge_assignment.h"
#include "streaming/edge_pass.h"
#include "streaming/progress.h"
#include "streaming/scoring.h"

namespace gnnpart::streaming {
namespace {

constexpr std::uint64_t kMapped = std::uint64_t{1} << 63;
// Top bit of a vertex's preferred block: the vertex may take part in pre-partitioning.
constexpr BlockID kEligible = BlockID{1} << 31;
// A vertex joins pre-partitioning when at least this share of its edges lead into its own
// preferred block: for hubs and loosely clustered vertices (few internal edges) fixing the
// block early costs replicas that the scoring phase avoids (wiki-vote, polblogs at k >= 32).
constexpr double kMinInternalShare = 0.35;
// Score bonus of the preferred block of each endpoint in the scoring phase: 2PS's cluster
// knowledge for edges not pre-partitioned, below the HDRF replication term of one replica.
constexpr double kClusterBonus = 0.5;

// Streaming clustering (Hollocou et al. 2017, as used by 2PS-L): for each edge whose two
// clusters are both below the volume cap, the endpoint in the smaller-volume cluster joins
// the other cluster if that keeps the target under the cap.
void cluster_pass(EdgeStream& stream, const std::vector<NodeID>& degree,
                  std::vector<NodeID>& cluster, std::vector<std::uint64_t>& volume,
                  std::uint64_t max_volume, ProgressMeter* progress, int pass) {
  for_each_edge_batch(stream, progress, fmt::format("2ps clustering {}", pass + 1),
                      [&](const EdgeBatch& batch) {
                        for (std::size_t i = 0; i < batch.size(); ++i) {
                          NodeID u = batch.sources[i], v = batch.targets[i];
                          NodeID cu = cluster[u], cv = cluster[v];
                          if (cu == cv || volume[cu] >= max_volume || volume[cv] >= max_volume)
                            continue;
                          if (volume[cu] > volume[cv]) {
                            std::swap(u, v);
                            std::swap(cu, cv);
                          }
                          // u sits in the smaller cluster: move it to v's.
                          if (volume[cv] + degree[u] > max_volume)
                            continue;
                          volume[cu] -= degree[u];
                          volume[cv] += degree[u];
                          cluster[u] = cv;
                        }
                      });
}

// Clusters by decreasing volume (power-of-two classes, ids ascending within a class) onto the
// block with the least volume. Afterwards volume[c] holds kMapped | block for every cluster c
// with volume > 0.
void map_clusters(std::vector<std::uint64_t>& volume, BlockID k) {
  BlockLoads loads(k);
  const std::size_t n = volume.size();
  for (int cls = 63; cls >= 0; --cls) {
    for (std::size_t c = 0; c < n; ++c) {
      const std::uint64_t vol = volume[c];
      if (vol == 0 || (vol & kMapped) != 0)
        continue;
      if (static_cast<int>(std::bit_width(vol)) - 1 != cls)
        continue;
      const BlockID b = loads.lightest();
      loads.add(b, static_cast<Weight>(vol));
      volume[c] = kMapped | b;
    }
  }
}

// Sets kEligible on preferred[u] when at least kMinInternalShare of u's edges have both ends
// preferring the same block. One pass; a transient n-entry counter.
void mark_eligible(EdgeStream& stream, const std::vector<NodeID>& degree,
                   std::vector<BlockID>& preferred, ProgressMeter* progress) {
  std::vector<NodeID> internal(preferred.size(), 0);
  for_each_edge_batch(stream, progress, "2ps cluster share", [&](const EdgeBatch& batch) {
    for (std::size_t i = 0; i < batch.size(); ++i) {
      const NodeID u = batch.sources[i], v = batch.targets[i];
      if (preferred[u] != preferred[v])
        continue;
      ++internal[u];
      if (u != v)
        ++internal[v];
    }
  });
  for (std::size_t u = 0; u < preferred.size(); ++u) {
    if (static_cast<double>(internal[u]) >= kMinInternalShare * degree[u])
      preferred[u] |= kEligible;
  }
}

// Pre-partitioning applies to (u, v) when both ends are eligible and prefer the same block.
BlockID shared_block(BlockID pu, BlockID pv) {
  return (pu & pv & kEligible) != 0 && pu == pv ? pu & ~kEligible : kInvalidBlockID;
}

} // namespace

EdgePartitionMetrics run_two_phase(EdgeStream& stream, const StreamOptions& options,
                                   const EdgeBlockSink& sink, ProgressMeter* progress) {
  const BlockID k = options.k;
  if (k >= kEligible)
    throw InvalidParameter("2ps: k must be below 2^31");
  const std::vector<NodeID> degree = count_degrees(stream, progress);
  const NodeID n = stream.num_nodes();
  const EdgeID m = stream.num_edges();
  std::vector<NodeID> cluster(n);
  std::vector<std::uint64_t> volume(n);
  for (NodeID u = 0; u < n; ++u) {
    cluster[u] = u;
    volume[u] = degree[u];
  }
  std::uint64_t total_volume = 0;
  for (NodeID u = 0; u < n; ++u)
    total_volume += degree[u];
  const std::uint64_t max_volume = std::max<std::uint64_t>(1, total_volume / k);
  for (int pass = 0; pass < options.clustering_passes; ++pass) {
    cluster_pass(stream, degree, cluster, volume, max_volume, progress, pass);
  }
  map_clusters(volume, k);
  // cluster[u] becomes u's preferred block.
  for (NodeID u = 0; u < n; ++u)
    cluster[u] = static_cast<BlockID>(volume[cluster[u]] & ~kMapped);
  std::vector<std::uint64_t>().swap(volume);
  std::vector<BlockID>& preferred = cluster;
  mark_eligible(stream, degree, preferred, progress);

  // Pre-partitioning: every edge that shared_block() places goes there while the block has
  // room. The stream order is the same in every pass, so the edges placed into block b are
  // exactly the first pre[b] such edges of b, which the scoring pass replays.
  EdgeAssignment state(n, k, m, options.epsilon);
  std::vector<Weight> pre(k, 0);
  for_each_edge_batch(stream, progress, "2ps pre-partition", [&](const EdgeBatch& batch) {
    for (std::size_t i = 0; i < batch.size(); ++i) {
      const NodeID u = batch.sources[i], v = batch.targets[i];
      const BlockID b = shared_block(preferred[u], preferred[v]);
      if (b != kInvalidBlockID && state.has_room(b)) {
        state.assign(u, v, b);
        ++pre[b];
      }
    }
  });

  // Scoring: the other edges go to the best block holding u or v or preferred by either
  // (HDRF replication term on full degrees + kClusterBonus per endpoint preferring the block
  // + balance), or to the lightest block when no candidate beats it. The balance term measures
  // the room left below the hard cap, so the uneven loads left by pre-partitioning do not
  // outweigh the replicas.
  std::vector<Weight> replayed(k, 0);
  std::vector<BlockID> blocks;
  const double cap = static_cast<double>(state.cap());
  const std::uint64_t done =
      for_each_edge_batch(stream, progress, "2ps assign", [&](const EdgeBatch& batch) {
        blocks.resize(batch.size());
        for (std::size_t i = 0; i < batch.size(); ++i) {
          const NodeID u = batch.sources[i], v = batch.targets[i];
          const BlockID shared = shared_block(preferred[u], preferred[v]);
          if (shared != kInvalidBlockID && replayed[shared] < pre[shared]) {
            ++replayed[shared];
            blocks[i] = shared;
            continue;
          }
          const BlockID pu = preferred[u] & ~kEligible, pv = preferred[v] & ~kEligible;
          const double du = degree[u], dv = degree[v];
          const double min_size = static_cast<double>(state.loads().min_weight());
          auto balance = [&](BlockID b) {
            return hdrf_balance(static_cast<double>(state.loads()[b]), cap, min_size,
                                options.hdrf_lambda);
          };
          BlockID best = state.loads().lightest();
          double best_score = balance(best);
          auto consider = [&](BlockID b) {
            if (!state.has_room(b))
              return;
            const double s = hdrf_replication(state.replicas().contains(u, b),
                                              state.replicas().contains(v, b), du, dv) +
                             kClusterBonus * ((b == pu ? 1.0 : 0.0) + (b == pv ? 1.0 : 0.0)) +
                             balance(b);
            if (s > best_score || (s == best_score && state.loads()[b] < state.loads()[best])) {
              best = b;
              best_score = s;
            }
          };
          state.replicas().for_each_union(u, v, consider);
          consider(pu);
          if (pv != pu)
            consider(pv);
          state.assign(u, v, best);
          blocks[i] = best;
        }
        sink(batch, blocks);
      });
  return state.metrics(n, done);
}

} // namespace gnnpart::streaming
