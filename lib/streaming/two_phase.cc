#include "streaming/two_phase.h"

#include <bit>

#include <fmt/core.h>

#include "streaming/edge_assignment.h"
#include "streaming/edge_pass.h"
#include "streaming/progress.h"
#include "streaming/scoring.h"

namespace gnnpart::streaming {
namespace {

constexpr std::uint64_t kMapped = std::uint64_t{1} << 63;

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

} // namespace

EdgePartitionMetrics run_two_phase(EdgeStream& stream, const StreamOptions& options,
                                   const EdgeBlockSink& sink, ProgressMeter* progress) {
  const BlockID k = options.k;
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
  const std::vector<BlockID>& preferred = cluster;

  EdgeAssignment state(n, k, m, options.epsilon);
  std::vector<BlockID> blocks;
  const std::uint64_t done =
      for_each_edge_batch(stream, progress, "2ps assign", [&](const EdgeBatch& batch) {
        blocks.resize(batch.size());
        for (std::size_t i = 0; i < batch.size(); ++i) {
          const NodeID u = batch.sources[i], v = batch.targets[i];
          const BlockID pu = preferred[u], pv = preferred[v];
          BlockID best = kInvalidBlockID;
          if (pu == pv) {
            if (state.has_room(pu))
              best = pu;
          } else {
            const double du = degree[u], dv = degree[v];
            const double max_size = static_cast<double>(state.max_load());
            const double min_size = static_cast<double>(state.loads().min_weight());
            double best_score = 0;
            for (const BlockID b : {pu, pv}) {
              if (!state.has_room(b))
                continue;
              const double s = hdrf_replication(state.replicas().contains(u, b),
                                                state.replicas().contains(v, b), du, dv) +
                               hdrf_balance(static_cast<double>(state.loads()[b]), max_size,
                                            min_size, options.hdrf_lambda);
              if (best == kInvalidBlockID || s > best_score) {
                best = b;
                best_score = s;
              }
            }
          }
          if (best == kInvalidBlockID)
            best = state.loads().lightest();
          state.assign(u, v, best);
          blocks[i] = best;
        }
        sink(batch, blocks);
      });
  return state.metrics(n, done);
}

} // namespace gnnpart::streaming
