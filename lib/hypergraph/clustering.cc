#include "hypergraph/clustering.h"

#include <algorithm>
#include <limits>
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

// The arrays the rating loop reads, loaded once per pass instead of through the hypergraph's
// accessors on every net and pin.
struct RatingInput {
  const EdgeID* node_offsets;
  const NetID* incident_nets;
  const EdgeID* net_offsets;
  const NodeID* pins;
  const Weight* net_weights; // null: unit net weights
  const NodeID* cluster;
  const BlockID* communities; // null: unrestricted
  NodeID max_net_size;
};

// Adds r(u, C) to s.rating for every cluster C sharing a rated net with u, listing each C once
// in s.touched. Same nets, pins and summation order as the plain loop, so the same doubles.
template <bool kNetWeights, bool kRestricted>
void rate_clusters(const RatingInput& in, NodeID u, RatingScratch& s) {
  double* rating = s.rating.data();
  const BlockID own = kRestricted ? in.communities[u] : BlockID{0};
  for (EdgeID j = in.node_offsets[u]; j != in.node_offsets[u + 1]; ++j) {
    const NetID e = in.incident_nets[j];
    const EdgeID first = in.net_offsets[e];
    const EdgeID last = in.net_offsets[e + 1];
    const auto size = static_cast<NodeID>(last - first);
    if (size < 2 || size > in.max_net_size)
      continue;
    const double weight = kNetWeights ? static_cast<double>(in.net_weights[e]) : 1.0;
    const double score = weight / (size - 1);
    for (EdgeID p = first; p != last; ++p) {
      const NodeID v = in.pins[p];
      if (v == u)
        continue;
      if constexpr (kRestricted)
        if (in.communities[v] != own)
          continue;
      const NodeID c = in.cluster[v];
      if (rating[c] == 0.0)
        s.touched.push_back(c);
      rating[c] += score;
    }
  }
}

using RateFn = void (*)(const RatingInput&, NodeID, RatingScratch&);

RateFn pick_rate_fn(bool net_weights, bool restricted) {
  if (net_weights)
    return restricted ? rate_clusters<true, true> : rate_clusters<true, false>;
  return restricted ? rate_clusters<false, true> : rate_clusters<false, false>;
}

} // namespace

std::vector<NodeID> compute_clustering(const Hypergraph& hg, const CoarseningContext& ctx,
                                       std::span<const Weight> max_cluster_weight,
                                       NodeID target_clusters, std::uint64_t seed,
                                       NodeID* num_clusters, std::span<const BlockID> communities) {
  const bool restricted = !communities.empty();
  // Runs from scratch rate per unit of the joint cluster's weight (CoarseningContext).
  const bool per_weight = ctx.rate_per_cluster_weight && !restricted;
  const NodeID n = hg.num_nodes();
  const int ncon = hg.ncon();
  std::vector<NodeID> cluster(n);
  std::iota(cluster.begin(), cluster.end(), NodeID{0});
  // Whether a representative has members besides itself: the clustering only joins singletons
  // to clusters, so a cluster's size is only ever compared with 1 (a byte a vertex, not four).
  std::vector<std::uint8_t> joined(n, 0);
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

  // A vertex whose weight plus the lightest vertex's exceeds the cluster limit fits no cluster,
  // so rating it would only find clusters that `fits` rejects: skipping it changes nothing. In
  // the late passes at large k most vertices are such (uk-2007-05-100k k = 128: 2/3 of the
  // incidences of the 45,881-vertex level).
  std::vector<Weight> lightest(ncon, std::numeric_limits<Weight>::max());
  for (NodeID u = 0; u < n; ++u)
    for (int c = 0; c < ncon; ++c)
      lightest[c] = std::min(lightest[c], hg.vertex_weight(u, c));
  auto fits_none = [&](NodeID u) {
    for (int i = 0; i < ncon; ++i)
      if (hg.vertex_weight(u, i) + lightest[i] > max_cluster_weight[i])
        return true;
    return false;
  };

  std::vector<NodeID> order(n);
  std::iota(order.begin(), order.end(), NodeID{0});
  Rng rng(derive_seed(seed, 0xC1));
  std::shuffle(order.begin(), order.end(), rng);
  const std::uint64_t tie_seed = derive_seed(seed, 0xC2);

  const RatingInput input{hg.node_offsets().data(),
                          hg.incident_net_array().data(),
                          hg.net_offsets().data(),
                          hg.pin_array().data(),
                          hg.has_net_weights() ? hg.net_weights().data() : nullptr,
                          cluster.data(),
                          restricted ? communities.data() : nullptr,
                          ctx.max_rating_net_size};
  const RateFn rate = pick_rate_fn(hg.has_net_weights(), restricted);

  tbb::enumerable_thread_specific<RatingScratch> scratch([&] {
    RatingScratch s;
    s.rating.assign(n, 0.0);
    return s;
  });
  NodeID clusters = n;
  const int rounds = std::max(1, ctx.sub_rounds);
  // The proposals of one sub-round, by position in it: a sub-round's share of the vertices,
  // not one a vertex.
  std::vector<NodeID> proposal(sub_round(n, 0, rounds).end + 1, kInvalidNodeID);
  for (int r = 0; r < rounds && clusters > target_clusters; ++r) {
    const SubRound sub = sub_round(n, r, rounds);
    parallel_over(sub, [&](const auto& range) {
      RatingScratch& s = scratch.local();
      for (std::size_t i = range.begin(); i != range.end(); ++i) {
        const NodeID u = order[i];
        proposal[i - sub.begin] = kInvalidNodeID;
        if (cluster[u] != u || joined[u] != 0 || fits_none(u))
          continue;
        rate(input, u, s);
        NodeID best = kInvalidNodeID;
        double best_rating = 0;
        std::uint64_t best_tie = 0;
        for (NodeID c : s.touched) {
          const double rc =
              per_weight ? s.rating[c] / static_cast<double>(std::max<Weight>(
                                             1, cluster_weight[static_cast<std::size_t>(c) * ncon] +
                                                    hg.vertex_weight(u, 0)))
                         : s.rating[c];
          s.rating[c] = 0.0;
          // The rating and tie tests come before the weight test: they are cheaper, have no
          // side effects, and reject most clusters, so the same cluster wins.
          if (c == u || (best != kInvalidNodeID && rc < best_rating))
            continue;
          const std::uint64_t tie = splitmix64(tie_seed ^ c);
          if (best != kInvalidNodeID && rc == best_rating && tie >= best_tie)
            continue;
          if (!fits(c, u))
            continue;
          best = c;
          best_rating = rc;
          best_tie = tie;
        }
        s.touched.clear();
        proposal[i - sub.begin] = best;
      }
    });
    for (std::size_t i = sub.begin; i < sub.end && clusters > target_clusters; ++i) {
      const NodeID u = order[i];
      const NodeID proposed = proposal[i - sub.begin];
      if (proposed == kInvalidNodeID || cluster[u] != u || joined[u] != 0)
        continue;
      const NodeID c = cluster[proposed];
      if (c == u || !fits(c, u))
        continue;
      cluster[u] = c;
      joined[c] = 1;
      for (int j = 0; j < ncon; ++j)
        cluster_weight[static_cast<std::size_t>(c) * ncon + j] += hg.vertex_weight(u, j);
      --clusters;
    }
  }
  // The rating state is done with before the compaction's ids are written.
  scratch.clear();
  std::vector<NodeID>().swap(proposal);
  std::vector<Weight>().swap(cluster_weight);
  std::vector<std::uint8_t>().swap(joined);
  // Compact: representatives numbered in increasing id order (their ids in `order`'s memory).
  std::vector<NodeID>& id = order;
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
