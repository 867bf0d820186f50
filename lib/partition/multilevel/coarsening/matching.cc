#include "partition/multilevel/coarsening/matching.h"

#include <algorithm>
#include <span>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "core/random.h"

namespace gnnpart::ml {
namespace {

// Proposal rounds before one sequential sweep over the vertices still unmatched makes the
// matching maximal. Random ties end in a few rounds; the sweep bounds pathological chains
// (strictly increasing weights along a path).
constexpr int kProposalRounds = 16;

// Rank of an edge {u, v}; identical from both ends, distinct for distinct pairs.
struct EdgeKey {
  Weight rating = -1;
  Weight pair_weight = 0;
  std::uint64_t tie = 0;
  NodeID low = kInvalidNodeID;
  NodeID high = kInvalidNodeID;

  // Heavier edge first, then the lighter pair (METIS's tie-break), then the hash, then the ids.
  bool beats(const EdgeKey& other) const {
    if (rating != other.rating)
      return rating > other.rating;
    if (pair_weight != other.pair_weight)
      return pair_weight < other.pair_weight;
    if (tie != other.tie)
      return tie > other.tie;
    return low != other.low ? low < other.low : high < other.high;
  }
};

class Matcher {
public:
  Matcher(const CsrGraph& graph, std::span<const Weight> max_weight, std::uint64_t seed,
          std::span<const BlockID> fixed, std::span<const BlockID> communities)
      : graph_(graph), max_weight_(max_weight), seed_(seed), fixed_(fixed),
        communities_(communities), mate_(graph.num_nodes(), kInvalidNodeID),
        plain_(graph.ncon() == 1 && fixed.empty() && communities.empty()) {}

  bool matched(NodeID u) const { return mate_[u] != kInvalidNodeID; }

  void match(NodeID u, NodeID v) {
    mate_[u] = v;
    mate_[v] = u;
  }

  // u and v may form a pair: distinct, not both fixed, one community, within the weight bound
  // (a constraint that one of them does not carry is no obstacle, as in lp_clustering).
  bool may_pair(NodeID u, NodeID v) const {
    if (u == v)
      return false;
    if (!fixed_.empty() && fixed_[u] != kInvalidBlockID && fixed_[v] != kInvalidBlockID)
      return false;
    if (!communities_.empty() && communities_[u] != communities_[v])
      return false;
    for (int c = 0; c < graph_.ncon(); ++c) {
      const Weight wu = graph_.vertex_weight(u, c);
      const Weight wv = graph_.vertex_weight(v, c);
      if (wu > 0 && wv > 0 && wu + wv > max_weight_[c])
        return false;
    }
    return true;
  }

  Weight pair_weight(NodeID u, NodeID v) const {
    Weight sum = 0;
    for (int c = 0; c < graph_.ncon(); ++c)
      sum += graph_.vertex_weight(u, c) + graph_.vertex_weight(v, c);
    return sum;
  }
  static std::uint64_t tie_of(std::uint64_t seed, NodeID low, NodeID high) {
    return splitmix64(seed ^ ((static_cast<std::uint64_t>(low) << 32) ^ high));
  }
  std::uint64_t tie(NodeID low, NodeID high) const { return tie_of(seed_, low, high); }

  // u's best unmatched neighbour it may pair with; kInvalidNodeID when there is none.
  NodeID best_partner(NodeID u) const {
    if (plain_)
      return best_plain_partner(u);
    return best_neighbour(u, [&](NodeID v) { return !matched(v) && may_pair(u, v); });
  }

  // u's neighbour over its heaviest edge, matched or not (two-hop); kInvalidNodeID if isolated.
  NodeID favourite(NodeID u) const {
    return best_neighbour(u, [&](NodeID v) { return v != u; });
  }

  // The neighbour v of u with accept(v) over the edge of the best key. The key's parts are
  // compared in order and each is computed only when the ones before it tie (the hash only
  // between edges of equal weight and equal pair weight).
  template <typename Accept> NodeID best_neighbour(NodeID u, Accept&& accept) const {
    NodeID best = kInvalidNodeID;
    EdgeKey best_key;
    bool best_tie_known = false;
    for (EdgeID e = graph_.first_edge(u); e < graph_.last_edge(u); ++e) {
      const NodeID v = graph_.edge_target(e);
      const Weight w = graph_.edge_weight(e);
      // Cheap rejection before the key: a lighter edge never wins.
      if ((best != kInvalidNodeID && w < best_key.rating) || !accept(v))
        continue;
      EdgeKey k;
      k.rating = w;
      k.pair_weight = pair_weight(u, v);
      k.low = std::min(u, v);
      k.high = std::max(u, v);
      bool tie_known = false;
      if (best != kInvalidNodeID && w == best_key.rating) {
        if (k.pair_weight > best_key.pair_weight)
          continue;
        if (k.pair_weight == best_key.pair_weight) {
          if (!best_tie_known) {
            best_key.tie = tie(best_key.low, best_key.high);
            best_tie_known = true;
          }
          k.tie = tie(k.low, k.high);
          tie_known = true;
          if (!k.beats(best_key))
            continue;
        }
      }
      best = v;
      best_key = k;
      best_tie_known = tie_known;
    }
    return best;
  }

  // The graph's arrays as scan_plain reads them, loaded once per batch of vertices: through the
  // members, every vertex's scan reloaded each array's address.
  struct PlainView {
    const EdgeID* offsets;
    const NodeID* adjacency;
    const Weight* edge_weights;
    const Weight* vertex_weights;
    const NodeID* mate;
    Weight max_weight;
    std::uint64_t seed;
  };
  PlainView plain_view() const {
    return {graph_.offsets().data(),
            graph_.adjacency().data(),
            graph_.edge_weights().data(),
            graph_.vertex_weights().data(),
            mate_.data(),
            max_weight_[0],
            seed_};
  }

  // Proposals of the vertices `active` (best_partner), but for a vertex whose partner of the
  // last round is still unmatched (not in the first round): it keeps it, since that partner was
  // the best of an eligible set that has since only lost vertices. On plain graphs the weight
  // variant is chosen once for all of them.
  void propose(std::span<const NodeID> active, NodeID* proposal, bool first_round) const {
    if (!plain_) {
      for (const NodeID u : active)
        if (first_round || proposal[u] == kInvalidNodeID || matched(proposal[u]))
          proposal[u] = best_partner(u);
      return;
    }
    const bool edge_weights = graph_.has_edge_weights();
    if (graph_.has_vertex_weights())
      edge_weights ? propose_plain<true, true>(active, proposal, first_round)
                   : propose_plain<false, true>(active, proposal, first_round);
    else
      edge_weights ? propose_plain<true, false>(active, proposal, first_round)
                   : propose_plain<false, false>(active, proposal, first_round);
  }

  template <bool kEdgeWeights, bool kVertexWeights>
  void propose_plain(std::span<const NodeID> active, NodeID* proposal, bool first_round) const {
    const PlainView view = plain_view();
    for (const NodeID u : active) {
      const NodeID last = proposal[u];
      if (!first_round && last != kInvalidNodeID && view.mate[last] == kInvalidNodeID)
        continue;
      proposal[u] = scan_plain<kEdgeWeights, kVertexWeights>(view, u);
    }
  }

  // best_partner for one constraint, no fixed vertices and no communities (every level of a
  // plain run): the same key and the same choice, read from the raw arrays with u's weight
  // loaded once, since the proposal rounds rate every arc at least once per level. The finest
  // level has no weights at all: its loop reads neither weight array.
  NodeID best_plain_partner(NodeID u) const {
    const bool edge_weights = graph_.has_edge_weights();
    const PlainView view = plain_view();
    if (graph_.has_vertex_weights())
      return edge_weights ? scan_plain<true, true>(view, u) : scan_plain<false, true>(view, u);
    return edge_weights ? scan_plain<true, false>(view, u) : scan_plain<false, false>(view, u);
  }

  template <bool kEdgeWeights, bool kVertexWeights>
  static NodeID scan_plain(const PlainView& view, NodeID u) {
    const EdgeID* const offsets = view.offsets;
    const NodeID* const adjacency = view.adjacency;
    const Weight* const edge_weights = view.edge_weights;
    const Weight* const vertex_weights = view.vertex_weights;
    const NodeID* const mate = view.mate;
    const std::uint64_t seed = view.seed;
    const Weight wu = kVertexWeights ? vertex_weights[u] : 1;
    const Weight max_weight = view.max_weight;
    // Unit vertex weights: every pair weighs 2, so the bound admits all partners or none.
    if (!kVertexWeights && 2 > max_weight)
      return kInvalidNodeID;
    NodeID best = kInvalidNodeID;
    Weight best_rating = 0;
    Weight best_pair = 0;
    std::uint64_t best_tie = 0;
    bool best_tie_known = false;
    for (EdgeID e = offsets[u]; e < offsets[u + 1]; ++e) {
      const NodeID v = adjacency[e];
      if (mate[v] != kInvalidNodeID || v == u)
        continue;
      const Weight w = kEdgeWeights ? edge_weights[e] : 1;
      if (best != kInvalidNodeID && w < best_rating)
        continue;
      const Weight wv = kVertexWeights ? vertex_weights[v] : 1;
      if (kVertexWeights && wu > 0 && wv > 0 && wu + wv > max_weight)
        continue;
      const Weight pair = wu + wv;
      std::uint64_t t = 0;
      bool tie_known = false;
      if (best != kInvalidNodeID && w == best_rating) {
        if (pair > best_pair)
          continue;
        if (pair == best_pair) {
          // Equal weight and pair weight: the hash decides, then the ids (EdgeKey::beats).
          if (!best_tie_known) {
            best_tie = tie_of(seed, std::min(u, best), std::max(u, best));
            best_tie_known = true;
          }
          t = tie_of(seed, std::min(u, v), std::max(u, v));
          tie_known = true;
          if (t != best_tie                         ? t < best_tie
              : std::min(u, v) == std::min(u, best) ? std::max(u, v) >= std::max(u, best)
                                                    : std::min(u, v) > std::min(u, best))
            continue;
        }
      }
      best = v;
      best_rating = w;
      best_pair = pair;
      best_tie = t;
      best_tie_known = tie_known;
    }
    return best;
  }

  std::vector<NodeID> labels() const {
    std::vector<NodeID> cluster(mate_.size());
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, mate_.size(), 4096), [&](const auto& r) {
      for (std::size_t u = r.begin(); u != r.end(); ++u) {
        const NodeID m = mate_[u];
        cluster[u] =
            m == kInvalidNodeID ? static_cast<NodeID>(u) : std::min(static_cast<NodeID>(u), m);
      }
    });
    return cluster;
  }

private:
  const CsrGraph& graph_;
  std::span<const Weight> max_weight_;
  std::uint64_t seed_;
  std::span<const BlockID> fixed_;
  std::span<const BlockID> communities_;
  std::vector<NodeID> mate_;
  bool plain_; // one constraint, no fixed vertices, no communities: best_plain_partner
};

// Pairs unmatched vertices that share their favourite neighbour, in id order (METIS's two-hop
// matching); isolated vertices share one favourite unless communities must stay apart.
void match_two_hop(const CsrGraph& graph, Matcher& matcher, bool has_communities) {
  const NodeID n = graph.num_nodes();
  std::vector<NodeID> favourite(n, kInvalidNodeID);
  tbb::parallel_for(tbb::blocked_range<NodeID>(0, n, 1024), [&](const auto& r) {
    for (NodeID u = r.begin(); u != r.end(); ++u) {
      if (matcher.matched(u))
        continue;
      if (graph.degree(u) == 0)
        favourite[u] = has_communities ? kInvalidNodeID : n;
      else
        favourite[u] = matcher.favourite(u);
    }
  });
  std::vector<NodeID> waiting(static_cast<std::size_t>(n) + 1, kInvalidNodeID);
  for (NodeID u = 0; u < n; ++u) {
    const NodeID f = favourite[u];
    if (f == kInvalidNodeID)
      continue;
    const NodeID w = waiting[f];
    if (w != kInvalidNodeID && matcher.may_pair(w, u)) {
      matcher.match(w, u);
      waiting[f] = kInvalidNodeID;
    } else {
      waiting[f] = u;
    }
  }
}

} // namespace

std::vector<NodeID> heavy_edge_matching(const CsrGraph& graph,
                                        std::span<const Weight> max_cluster_weight,
                                        const CoarseningContext& ctx, std::uint64_t seed,
                                        std::span<const BlockID> fixed,
                                        std::span<const BlockID> communities) {
  const NodeID n = graph.num_nodes();
  Matcher matcher(graph, max_cluster_weight, derive_seed(seed, 1), fixed, communities);
  // The vertices with neighbours, written without a branch or a capacity check per vertex.
  std::vector<NodeID> active(n);
  {
    const EdgeID* const offsets = graph.offsets().data();
    NodeID* const out = active.data();
    NodeID count = 0;
    for (NodeID u = 0; u < n; ++u) {
      out[count] = u;
      count += offsets[u + 1] != offsets[u] ? 1 : 0;
    }
    active.resize(count);
  }
  if (ctx.random_unit_matching && fixed.empty() && communities.empty() && graph.ncon() == 1 &&
      !graph.has_vertex_weights() && !graph.has_edge_weights() && max_cluster_weight[0] >= 2) {
    // METIS's random matching (Match_RM): every edge weighs the same and every pair too, so the
    // proposal rounds only rank ties by a hash. Instead the vertices are visited once, by
    // increasing degree (those with few partners first), in a seeded random order within a
    // degree, and each unmatched one takes its first unmatched neighbour. Sequential, so the
    // same for every thread count.
    Rng rng(derive_seed(seed, 2));
    std::shuffle(active.begin(), active.end(), rng);
    const EdgeID* const offsets = graph.offsets().data();
    const NodeID* const adjacency = graph.adjacency().data();
    NodeID max_degree = 0;
    for (const NodeID u : active)
      max_degree = std::max<NodeID>(max_degree, static_cast<NodeID>(offsets[u + 1] - offsets[u]));
    std::vector<NodeID> start(static_cast<std::size_t>(max_degree) + 2, 0);
    for (const NodeID u : active)
      ++start[offsets[u + 1] - offsets[u] + 1];
    for (std::size_t d = 1; d < start.size(); ++d)
      start[d] += start[d - 1];
    std::vector<NodeID> order(active.size());
    for (const NodeID u : active)
      order[start[offsets[u + 1] - offsets[u]]++] = u;
    for (const NodeID u : order) {
      if (matcher.matched(u))
        continue;
      NodeID best = kInvalidNodeID;
      EdgeID best_degree = 0;
      for (EdgeID e = offsets[u]; e < offsets[u + 1]; ++e) {
        const NodeID v = adjacency[e];
        const EdgeID d = offsets[v + 1] - offsets[v];
        if (v != u && !matcher.matched(v) && (best == kInvalidNodeID || d < best_degree)) {
          best = v;
          best_degree = d;
        }
      }
      if (best != kInvalidNodeID)
        matcher.match(u, best);
    }
    active.clear();
  }
  std::vector<NodeID> proposal(n, kInvalidNodeID);

  // Eligibility only shrinks, so a vertex without a partner never gets one later. The globally
  // best eligible edge is always a mutual proposal: every round matches at least one pair.
  for (int round = 0; round < kProposalRounds && !active.empty(); ++round) {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, active.size(), 512), [&](const auto& r) {
      matcher.propose(std::span<const NodeID>(active).subspan(r.begin(), r.size()), proposal.data(),
                      round == 0);
    });
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, active.size(), 512), [&](const auto& r) {
      for (std::size_t i = r.begin(); i != r.end(); ++i) {
        const NodeID u = active[i];
        const NodeID v = proposal[u];
        if (v != kInvalidNodeID && u < v && proposal[v] == u)
          matcher.match(u, v);
      }
    });
    std::erase_if(active,
                  [&](NodeID u) { return matcher.matched(u) || proposal[u] == kInvalidNodeID; });
  }
  for (const NodeID u : active) {
    if (matcher.matched(u))
      continue;
    const NodeID v = matcher.best_partner(u);
    if (v != kInvalidNodeID)
      matcher.match(u, v);
  }

  if (ctx.two_hop) {
    NodeID unmatched = 0;
    for (NodeID u = 0; u < n; ++u)
      unmatched += matcher.matched(u) ? 0 : 1;
    if (unmatched > n / 10)
      match_two_hop(graph, matcher, !communities.empty());
  }
  return matcher.labels();
}

} // namespace gnnpart::ml
