#include "hypergraph/community_detection.h"

#include <algorithm>
#include <limits>
#include <numeric>

#include "core/random.h"

namespace gnnpart::hg {

namespace {

// Level 0, never built: vertex u is node u, net e is node n + e (no edges below 2 pins).
class StarExpansion {
public:
  explicit StarExpansion(const Hypergraph& hg) : hg_(hg), volume_(num_nodes(), 0.0) {
    const NodeID n = hg.num_nodes();
    for (NetID e = 0; e < hg.num_nets(); ++e) {
      const NodeID size = hg.net_size(e);
      if (size < 2)
        continue;
      const double w = static_cast<double>(hg.net_weight(e));
      volume_[n + e] = w * size;
      for (NodeID u : hg.pins(e))
        volume_[u] += w;
    }
  }
  NodeID num_nodes() const { return hg_.num_nodes() + hg_.num_nets(); }
  double volume(NodeID v) const { return volume_[v]; }
  template <typename F> void for_each_neighbor(NodeID v, F&& f) const {
    const NodeID n = hg_.num_nodes();
    if (v < n) {
      for (NetID e : hg_.incident_nets(v))
        if (hg_.net_size(e) >= 2)
          f(n + e, static_cast<double>(hg_.net_weight(e)));
      return;
    }
    const NetID e = v - n;
    if (hg_.net_size(e) < 2)
      return;
    const double w = static_cast<double>(hg_.net_weight(e));
    for (NodeID u : hg_.pins(e))
      f(u, w);
  }

private:
  const Hypergraph& hg_;
  std::vector<double> volume_;
};

// A contracted level: weighted CSR without self loops; a node's volume is the sum of its
// members' volumes (its internal edges included).
struct WeightedGraph {
  std::vector<EdgeID> offsets{0};
  std::vector<NodeID> adjacency;
  std::vector<double> weights;
  std::vector<double> volumes;

  NodeID num_nodes() const { return static_cast<NodeID>(volumes.size()); }
  double volume(NodeID v) const { return volumes[v]; }
  template <typename F> void for_each_neighbor(NodeID v, F&& f) const {
    for (EdgeID i = offsets[v]; i < offsets[v + 1]; ++i)
      f(adjacency[i], weights[i]);
  }
};

// Sums weights by target: add(), then drain() hands each target and its sum once.
class Accumulator {
public:
  explicit Accumulator(NodeID size) : sum_(size, 0.0) {}
  void add(NodeID c, double w) {
    if (w <= 0)
      return;
    if (sum_[c] == 0.0)
      touched_.push_back(c);
    sum_[c] += w;
  }
  double at(NodeID c) const { return sum_[c]; }
  template <typename F> void drain(F&& f) {
    for (NodeID c : touched_) {
      f(c, sum_[c]);
      sum_[c] = 0.0;
    }
    touched_.clear();
  }

private:
  std::vector<double> sum_;
  std::vector<NodeID> touched_;
};

// Renumbers `ids` to 0 .. count - 1 in order of first appearance; returns count.
NodeID compact(std::vector<NodeID>& ids, NodeID bound) {
  std::vector<NodeID> id(bound, kInvalidNodeID);
  NodeID next = 0;
  for (NodeID& x : ids) {
    if (id[x] == kInvalidNodeID)
      id[x] = next++;
    x = id[x];
  }
  return next;
}

// Louvain's local moving: every node, in a seeded order, joins the neighbouring community with
// the largest modularity gain k(v, C) - vol(v) vol(C) / vol(G) (staying wins ties), until a
// round moves fewer than min_moved_fraction of the nodes. Returns the compacted communities;
// *moved says whether any node moved.
template <typename Graph>
std::vector<NodeID> local_moving(const Graph& g, const CommunityContext& ctx, std::uint64_t seed,
                                 NodeID* count, bool* moved) {
  const NodeID size = g.num_nodes();
  std::vector<NodeID> community(size);
  std::iota(community.begin(), community.end(), NodeID{0});
  std::vector<double> community_volume(size);
  double total = 0;
  for (NodeID v = 0; v < size; ++v)
    total += community_volume[v] = g.volume(v);
  *moved = false;
  *count = size;
  if (total <= 0)
    return community;
  std::vector<NodeID> order(size);
  std::iota(order.begin(), order.end(), NodeID{0});
  Rng rng(seed);
  std::shuffle(order.begin(), order.end(), rng);
  Accumulator to(size);
  for (int round = 0; round < ctx.max_rounds; ++round) {
    std::uint64_t moves = 0;
    for (NodeID v : order) {
      const double vol = g.volume(v);
      if (vol <= 0)
        continue;
      g.for_each_neighbor(v, [&](NodeID x, double w) { to.add(community[x], w); });
      const NodeID own = community[v];
      community_volume[own] -= vol;
      NodeID best = own;
      double best_gain = to.at(own) - vol * community_volume[own] / total;
      to.drain([&](NodeID c, double w) {
        const double gain = w - vol * community_volume[c] / total;
        if (c != own && gain > best_gain) {
          best = c;
          best_gain = gain;
        }
      });
      community_volume[best] += vol;
      if (best != own) {
        community[v] = best;
        ++moves;
      }
    }
    *moved = *moved || moves > 0;
    if (static_cast<double>(moves) < ctx.min_moved_fraction * size || moves == 0)
      break;
  }
  *count = compact(community, size);
  return community;
}

// The graph of the communities (`community` compacted, `count` of them).
template <typename Graph>
WeightedGraph contract(const Graph& g, const std::vector<NodeID>& community, NodeID count) {
  const NodeID size = g.num_nodes();
  std::vector<EdgeID> first(static_cast<std::size_t>(count) + 1, 0);
  for (NodeID v = 0; v < size; ++v)
    ++first[community[v] + 1];
  std::partial_sum(first.begin(), first.end(), first.begin());
  std::vector<NodeID> members(size);
  {
    std::vector<EdgeID> next(first.begin(), first.end() - 1);
    for (NodeID v = 0; v < size; ++v)
      members[next[community[v]]++] = v;
  }
  WeightedGraph coarse;
  coarse.volumes.assign(count, 0.0);
  coarse.offsets.reserve(static_cast<std::size_t>(count) + 1);
  Accumulator to(count);
  for (NodeID c = 0; c < count; ++c) {
    for (EdgeID i = first[c]; i < first[c + 1]; ++i) {
      const NodeID v = members[i];
      coarse.volumes[c] += g.volume(v);
      g.for_each_neighbor(v, [&](NodeID x, double w) {
        if (community[x] != c)
          to.add(community[x], w);
      });
    }
    to.drain([&](NodeID d, double w) {
      coarse.adjacency.push_back(d);
      coarse.weights.push_back(w);
    });
    coarse.offsets.push_back(coarse.adjacency.size());
  }
  return coarse;
}

} // namespace

std::vector<BlockID> detect_communities(const Hypergraph& hg, const CommunityContext& ctx,
                                        std::uint64_t seed, BlockID* num_communities) {
  const NodeID n = hg.num_nodes();
  const std::uint64_t star_nodes = std::uint64_t{n} + hg.num_nets();
  if (star_nodes >= std::numeric_limits<NodeID>::max()) { // node ids would not fit: no communities
    *num_communities = n == 0 ? 0 : 1;
    return std::vector<BlockID>(n, 0);
  }
  const StarExpansion star(hg);
  NodeID count = 0;
  bool moved = false;
  std::vector<NodeID> of = local_moving(star, ctx, derive_seed(seed, 0xC0DE, 0), &count, &moved);
  if (moved) {
    WeightedGraph level = contract(star, of, count);
    for (int l = 1; l < ctx.max_levels; ++l) {
      const std::vector<NodeID> community =
          local_moving(level, ctx, derive_seed(seed, 0xC0DE, l), &count, &moved);
      if (!moved)
        break;
      for (NodeID& x : of)
        x = community[x];
      level = contract(level, community, count);
    }
  }
  // The vertices' communities (some hold only nets), numbered again.
  std::vector<NodeID> vertex_of(of.begin(), of.begin() + n);
  *num_communities = compact(vertex_of, count);
  return vertex_of;
}

} // namespace gnnpart::hg
