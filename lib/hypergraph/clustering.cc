#include "hypergraph/clustering.h"

#include <algorithm>
#include <numeric>

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include "core/multilevel_steps.h"
#include "core/random.h"

namespace gnnpart::hg {

namespace {

struct RatingScratch {
  std::vector<double> rating;
  std::vector<NodeID> touched;
};

} // namespace

std::vector<NodeID> compute_clustering(const Hypergraph& hg, const CoarseningContext& ctx,
                                       std::span<const Weight> max_cluster_weight,
                                       NodeID target_clusters, std::uint64_t seed,
                                       NodeID* num_clusters, std::span<const BlockID> communities) {
  const bool restricted = !communities.empty();
  const NodeID n = hg.num_nodes();
  const int ncon = hg.ncon();
  std::vector<NodeID> cluster(n);
  std::iota(cluster.begin(), cluster.end(), NodeID{0});
  std::vector<NodeID> cluster_size(n, 1);
  std::vector<Weight> cluster_weight(static_cast<std::size_t>(n) * ncon);
  for (NodeID u = 0; u < n; ++u)
    for (int c = 0; c < ncon; ++c)
      cluster_weight[static_cast<std::size_t>(u) * ncon + c] = hg.vertex_weight(u, c);
  auto fits = [&](NodeID c, NodeID u) {
    for (int i = 0; i < ncon; ++i)
      if (cluster_weight[static_cast<std::size_t>(c) * ncon + i] + hg.vertex_weight(u, i) >
          max_cluster_weight[i])
        return false;
    return true;
  };

  std::vector<NodeID> order(n);
  std::iota(order.begin(), order.end(), NodeID{0});
  Rng rng(derive_seed(seed, 0xC1));
  std::shuffle(order.begin(), order.end(), rng);
  const std::uint64_t tie_seed = derive_seed(seed, 0xC2);

  tbb::enumerable_thread_specific<RatingScratch> scratch([&] {
    RatingScratch s;
    s.rating.assign(n, 0.0);
    return s;
  });
  std::vector<NodeID> proposal(n, kInvalidNodeID);
  NodeID clusters = n;
  const int rounds = std::max(1, ctx.sub_rounds);
  for (int r = 0; r < rounds && clusters > target_clusters; ++r) {
    const SubRound sub = sub_round(n, r, rounds);
    parallel_over(sub, [&](const auto& range) {
      RatingScratch& s = scratch.local();
      for (std::size_t i = range.begin(); i != range.end(); ++i) {
        const NodeID u = order[i];
        proposal[i] = kInvalidNodeID;
        if (cluster[u] != u || cluster_size[u] != 1)
          continue;
        for (NetID e : hg.incident_nets(u)) {
          const NodeID size = hg.net_size(e);
          if (size < 2 || size > ctx.max_rating_net_size)
            continue;
          const double score = static_cast<double>(hg.net_weight(e)) / (size - 1);
          for (NodeID v : hg.pins(e)) {
            if (v == u || (restricted && communities[v] != communities[u]))
              continue;
            const NodeID c = cluster[v];
            if (s.rating[c] == 0.0)
              s.touched.push_back(c);
            s.rating[c] += score;
          }
        }
        NodeID best = kInvalidNodeID;
        double best_rating = 0;
        std::uint64_t best_tie = 0;
        for (NodeID c : s.touched) {
          const double rc = s.rating[c];
          s.rating[c] = 0.0;
          if (c == u || !fits(c, u))
            continue;
          const std::uint64_t tie = splitmix64(tie_seed ^ c);
          if (best == kInvalidNodeID || rc > best_rating || (rc == best_rating && tie < best_tie)) {
            best = c;
            best_rating = rc;
            best_tie = tie;
          }
        }
        s.touched.clear();
        proposal[i] = best;
      }
    });
    for (std::size_t i = sub.begin; i < sub.end && clusters > target_clusters; ++i) {
      const NodeID u = order[i];
      if (proposal[i] == kInvalidNodeID || cluster[u] != u || cluster_size[u] != 1)
        continue;
      const NodeID c = cluster[proposal[i]];
      if (c == u || !fits(c, u))
        continue;
      cluster[u] = c;
      ++cluster_size[c];
      for (int j = 0; j < ncon; ++j)
        cluster_weight[static_cast<std::size_t>(c) * ncon + j] += hg.vertex_weight(u, j);
      --clusters;
    }
  }
  // Compact: representatives numbered in increasing id order.
  std::vector<NodeID> id(n, kInvalidNodeID);
  NodeID next = 0;
  for (NodeID u = 0; u < n; ++u)
    if (cluster[u] == u)
      id[u] = next++;
  for (NodeID u = 0; u < n; ++u)
    cluster[u] = id[cluster[u]];
  *num_clusters = next;
  return cluster;
}

} // namespace gnnpart::hg
