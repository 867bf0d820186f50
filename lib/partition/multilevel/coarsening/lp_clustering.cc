#include "partition/multilevel/coarsening/lp_clustering.h"

#include <algorithm>
#include <atomic>

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>
#include <tbb/task_arena.h>

#include "core/multilevel_steps.h"
#include "core/random.h"
#include "partition/multilevel/rating_map.h"
#include "partition/multilevel/vertex_order.h"

namespace gnnpart::ml {
namespace {

// Running choice of the best cluster: a higher rating wins; an equal rating (not below the
// starting one) wins on a higher tie hash. Hashes are computed only when ratings tie.
struct BestCandidate {
  BestCandidate(Weight start_rating, std::uint64_t seed) : rating(start_rating), round_seed(seed) {}

  template <typename Fits> void offer(NodeID c, Weight r, Fits&& fits) {
    if (r < rating)
      return;
    std::uint64_t tie = 0;
    bool tie_known = false;
    if (r == rating) {
      if (cluster == kInvalidNodeID)
        return;
      if (!best_tie_known) {
        best_tie = tie_of(cluster);
        best_tie_known = true;
      }
      tie = tie_of(c);
      tie_known = true;
      if (tie <= best_tie)
        return;
    }
    if (!fits(c))
      return;
    cluster = c;
    rating = r;
    best_tie = tie;
    best_tie_known = tie_known;
  }
  std::uint64_t tie_of(NodeID c) const {
    return splitmix64(round_seed ^ (static_cast<std::uint64_t>(c) << 1));
  }

  NodeID cluster = kInvalidNodeID;
  Weight rating;
  std::uint64_t round_seed;
  std::uint64_t best_tie = 0;
  bool best_tie_known = false;
};

constexpr EdgeID kSmallDegree = 16;

class Clustering {
public:
  Clustering(const CsrGraph& graph, std::span<const Weight> max_weight,
             std::span<const BlockID> communities)
      : graph_(graph), offsets_(graph.offsets().data()), adjacency_(graph.adjacency().data()),
        edge_weights_(graph.has_edge_weights() ? graph.edge_weights().data() : nullptr),
        ncon_(graph.ncon()), max_weight_(max_weight), communities_(communities),
        cluster_(graph.num_nodes()), size_(graph.num_nodes(), 1),
        weight_(static_cast<std::size_t>(graph.num_nodes()) * graph.ncon()),
        plain_(graph.ncon() == 1 && communities.empty()) {
    for (NodeID u = 0; u < graph.num_nodes(); ++u) {
      cluster_[u] = u;
      for (int c = 0; c < ncon_; ++c)
        weight_[idx(u, c)] = graph.vertex_weight(u, c);
    }
  }

  // A cluster's label is one of its vertices, and every member shares that vertex's community.
  bool same_community(NodeID u, NodeID cluster) const {
    return communities_.empty() || communities_[u] == communities_[cluster];
  }

  bool fits(NodeID u, NodeID cluster) const {
    for (int c = 0; c < ncon_; ++c) {
      const Weight w = graph_.vertex_weight(u, c);
      if (w > 0 && weight_[idx(cluster, c)] + w > max_weight_[c])
        return false;
    }
    return true;
  }

  // Best cluster for u from the current state; kInvalidNodeID when u stays.
  // With ignore_weights, the favourite cluster regardless of the size limit (two-hop).
  // Candidates are rated in order of first appearance among u's neighbours; the highest rating
  // wins, equal ratings go to the higher hash of (round_seed, cluster).
  NodeID best_cluster(NodeID u, RatingMap<NodeID>& map, std::uint64_t round_seed,
                      bool ignore_weights) const {
    if (plain_ && !ignore_weights) {
      // One constraint, no communities: u's weight loaded once, the size check inline.
      const Weight wu = graph_.vertex_weight(u, 0);
      const Weight* const weight = weight_.data();
      const Weight limit = max_weight_[0];
      return rate_neighbours(u, map, round_seed, false,
                             [&](NodeID to) { return wu <= 0 || weight[to] + wu <= limit; });
    }
    return rate_neighbours(u, map, round_seed, ignore_weights, [&](NodeID to) {
      return same_community(u, to) && (ignore_weights || fits(u, to));
    });
  }

  // best_cluster's rating: the neighbours' clusters summed, then the best one that `eligible`
  // accepts (ignore_weights: the favourite, rated from -1 rather than u's own cluster).
  template <typename Eligible>
  NodeID rate_neighbours(NodeID u, RatingMap<NodeID>& map, std::uint64_t round_seed,
                         bool ignore_weights, Eligible&& eligible) const {
    // Raw arrays: the map's stores would otherwise make the compiler reload them on every arc.
    const NodeID* const cluster = cluster_.data();
    const NodeID* const adjacency = adjacency_;
    const Weight* const edge_weights = edge_weights_;
    const NodeID own = cluster[u];
    const EdgeID first = offsets_[u];
    const EdgeID end = offsets_[u + 1];
    if (!ignore_weights && end - first <= kSmallDegree) {
      // The same decision without the dense map: a short list on the stack.
      return edge_weights == nullptr ? rate_small<false>(first, end, own, round_seed, eligible)
                                     : rate_small<true>(first, end, own, round_seed, eligible);
    }
    const auto cluster_of = [cluster, adjacency](EdgeID e) { return cluster[adjacency[e]]; };
    if (edge_weights == nullptr)
      map.add_all(first, end, cluster_of, [](EdgeID) { return Weight{1}; });
    else
      map.add_all(first, end, cluster_of, [edge_weights](EdgeID e) { return edge_weights[e]; });
    BestCandidate best(ignore_weights ? -1 : map.get(own), round_seed);
    map.drain([&](NodeID c, Weight rating) {
      if (c != own)
        best.offer(c, rating, eligible);
    });
    return best.cluster;
  }

  // rate_neighbours for at most kSmallDegree arcs [first, end), instantiated with and without
  // edge weights so that the arc loop has no weight test.
  template <bool kWeighted, typename Eligible>
  NodeID rate_small(EdgeID first, EdgeID end, NodeID own, std::uint64_t round_seed,
                    Eligible& eligible) const {
    const NodeID* const cluster = cluster_.data();
    NodeID keys[kSmallDegree + 1]; // one more for the search's sentinel
    Weight ratings[kSmallDegree];
    int count = 0;
    Weight own_rating = 0;
    for (EdgeID e = first; e < end; ++e) {
      const NodeID c = cluster[adjacency_[e]];
      const Weight w = kWeighted ? edge_weights_[e] : 1;
      if (c == own) {
        own_rating += w;
        continue;
      }
      keys[count] = c; // a sentinel: the search stops at count at the latest, adding c
      int j = 0;
      while (keys[j] != c)
        ++j;
      if (j == count) {
        ratings[count++] = w;
      } else {
        ratings[j] += w;
      }
    }
    BestCandidate best(own_rating, round_seed);
    for (int j = 0; j < count; ++j)
      best.offer(keys[j], ratings[j], eligible);
    return best.cluster;
  }

  // Applies u -> cluster if the cluster still exists and has room.
  bool apply(NodeID u, NodeID target) {
    if (size_[target] == 0 || !fits(u, target))
      return false;
    const NodeID own = cluster_[u];
    for (int c = 0; c < ncon_; ++c) {
      const Weight w = graph_.vertex_weight(u, c);
      weight_[idx(own, c)] -= w;
      weight_[idx(target, c)] += w;
    }
    --size_[own];
    ++size_[target];
    cluster_[u] = target;
    return true;
  }

  std::vector<NodeID> take() { return std::move(cluster_); }
  NodeID cluster(NodeID u) const { return cluster_[u]; }
  NodeID size(NodeID cluster) const { return size_[cluster]; }

private:
  std::size_t idx(NodeID u, int c) const { return static_cast<std::size_t>(u) * ncon_ + c; }
  const CsrGraph& graph_;
  const EdgeID* offsets_; // the graph's arrays, loaded once
  const NodeID* adjacency_;
  const Weight* edge_weights_; // null: unit weights
  int ncon_;
  std::span<const Weight> max_weight_;
  std::span<const BlockID> communities_;
  std::vector<NodeID> cluster_;
  std::vector<NodeID> size_;
  std::vector<Weight> weight_;
  bool plain_; // one constraint, no communities: best_cluster's inline size check
};

} // namespace

std::vector<NodeID> lp_clustering(const CsrGraph& graph, std::span<const Weight> max_cluster_weight,
                                  const CoarseningContext& ctx, std::uint64_t seed,
                                  std::span<const BlockID> fixed,
                                  std::span<const BlockID> communities) {
  const NodeID n = graph.num_nodes();
  const bool has_fixed = !fixed.empty();
  auto is_fixed = [&](NodeID u) { return has_fixed && fixed[u] != kInvalidBlockID; };
  Clustering clustering(graph, max_cluster_weight, communities);
  tbb::enumerable_thread_specific<RatingMap<NodeID>> maps([n] { return RatingMap<NodeID>(n); });
  std::vector<NodeID> target(n);
  const int batches = std::max(1, ctx.batches_per_round);

  // Only vertices with a neighbour that moved in the previous round are visited again.
  std::vector<std::uint8_t> active(n, 1), next_active(n, 0);
  for (NodeID u = 0; u < n && !fixed.empty(); ++u)
    active[u] = is_fixed(u) ? 0 : 1;
  // Marks the neighbours of `movers` active for the next round (idempotent stores, so in any
  // order and beside anything that does not read next_active).
  auto mark_neighbours = [&](const std::vector<NodeID>& movers) {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, movers.size(), 256), [&](const auto& r) {
      // Plain pointers: a byte store may alias anything, so members read through references
      // (the graph's arrays, the vectors) would be loaded again after every store.
      std::uint8_t* const next = next_active.data();
      const NodeID* const mover = movers.data();
      const BlockID* const pinned = has_fixed ? fixed.data() : nullptr;
      for (std::size_t i = r.begin(); i != r.end(); ++i)
        for (NodeID v : graph.neighbors(mover[i]))
          if (pinned == nullptr || pinned[v] == kInvalidBlockID)
            std::atomic_ref<std::uint8_t>(next[v]).store(1, std::memory_order_relaxed);
    });
  };
  // The movers of the batch being applied and of the one before, whose neighbours are marked
  // while the batch is applied: the apply is sequential, so the marking runs beside it (the
  // rating of the next batch reads only `active` and the clusters, both settled by then). One
  // thread marks right after the apply, while the movers' lists are still in its caches
  // (uk-2007-05-100k k = 8 -t 1: 2% more CPU time when marking a batch later).
  const bool beside = tbb::this_task_arena::max_concurrency() > 1;
  std::vector<NodeID> movers, marking;
  for (int round = 0; round < ctx.lp_rounds; ++round) {
    const std::uint64_t round_seed = derive_seed(seed, 1, static_cast<std::uint64_t>(round));
    const std::vector<NodeID> order = chunked_random_order(n, round_seed);
    NodeID moved = 0;
    const bool last_round = round + 1 == ctx.lp_rounds;
    marking.clear();
    for (int batch = 0; batch < batches; ++batch) {
      const SubRound sub = sub_round(n, batch, batches);
      parallel_over(sub, [&](const auto& r) {
        auto& map = maps.local();
        for (std::size_t i = r.begin(); i != r.end(); ++i) {
          const NodeID u = order[i];
          target[i] = active[u] ? clustering.best_cluster(u, map, round_seed ^ splitmix64(u), false)
                                : kInvalidNodeID;
        }
      });
      movers.clear();
      auto apply = [&] {
        for (std::size_t i = sub.begin; i < sub.end; ++i) {
          if (target[i] != kInvalidNodeID && clustering.apply(order[i], target[i]))
            movers.push_back(order[i]);
        }
      };
      if (marking.empty())
        apply();
      else
        // The calling thread applies (parallel_invoke spawns its first functor and runs the
        // last): another thread that is descheduled then holds at most a chunk of the marking,
        // never the whole apply.
        tbb::parallel_invoke([&] { mark_neighbours(marking); }, apply);
      moved += static_cast<NodeID>(movers.size());
      // Nothing reads next_active after the last round.
      marking.clear();
      if (!last_round)
        marking.swap(movers);
      if (!beside) {
        mark_neighbours(marking);
        marking.clear();
      }
    }
    mark_neighbours(marking);
    if (last_round || moved <= n / 200)
      break;
    active.swap(next_active);
    std::fill(next_active.begin(), next_active.end(), 0);
  }

  if (ctx.two_hop) {
    // Singletons that share a favourite cluster (or have no neighbour at all) are clustered with
    // each other, so stars and hubs with many leaves still shrink.
    NodeID singletons = 0;
    for (NodeID u = 0; u < n; ++u)
      if (clustering.cluster(u) == u && clustering.size(u) == 1)
        ++singletons;
    if (singletons > n / 4) {
      const std::uint64_t fav_seed = derive_seed(seed, 2);
      std::vector<NodeID> favourite(n, kInvalidNodeID);
      tbb::parallel_for(tbb::blocked_range<NodeID>(0, n, 256), [&](const auto& r) {
        auto& map = maps.local();
        for (NodeID u = r.begin(); u != r.end(); ++u) {
          if (clustering.cluster(u) != u || clustering.size(u) != 1 || is_fixed(u))
            continue;
          // Isolated vertices share one favourite, which would mix communities.
          if (graph.degree(u) == 0)
            favourite[u] = communities.empty() ? n : kInvalidNodeID;
          else
            favourite[u] = clustering.best_cluster(u, map, fav_seed ^ splitmix64(u), true);
        }
      });
      std::vector<NodeID> leader(static_cast<std::size_t>(n) + 1, kInvalidNodeID);
      for (NodeID u = 0; u < n; ++u) {
        const NodeID f = favourite[u];
        if (f == kInvalidNodeID)
          continue;
        const NodeID l = leader[f];
        if (l == kInvalidNodeID || !clustering.apply(u, l))
          leader[f] = u;
      }
    }
  }
  return clustering.take();
}

} // namespace gnnpart::ml
