#include "partition/multilevel/refinement/rebalancer.h"

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <optional>
#include <span>
#include <tuple>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include "core/errors.h"
#include "core/multilevel_steps.h"
#include "partition/multilevel/rating_map.h"
#include "partition/multilevel/refinement/gain_cache.h"

namespace gnnpart::ml {
namespace {

// Weight of u in the constraints where its block is overloaded.
Weight relief(const PartitionedGraph& p, const BlockLimits& limits, NodeID u) {
  const BlockID b = p.block(u);
  Weight sum = 0;
  for (int c = 0; c < p.ncon(); ++c)
    if (p.block_weight(b, c) > limits.max(b, c))
      sum += p.graph().vertex_weight(u, c);
  return sum;
}

// Best block for u other than its own: most connected among those with room, else the block
// with room that has the lowest weight in constraint 0.
struct Target {
  Weight conn;     // u's connection to `block`
  BlockID block;   // kInvalidBlockID: no other block has room
  Weight internal; // u's connection to its own block (read in the same scan of its row)
};

// `lightest`, when given, lists every block by (weight in constraint 0, id) for the partition as
// it is: the fallback is then its first block with room, the block the scan over all k would
// pick (the lightest, the lowest id among equals). An interior vertex (no other block among its
// neighbours) and one whose neighbouring blocks are full all take the fallback, so the scan
// over k blocks per vertex was most of the rating of an overloaded block's vertices.
Target best_target(const PartitionedGraph& p, const BlockLimits& limits, NodeID u,
                   RatingMap<BlockID>& map, std::span<const BlockID> lightest = {}) {
  const CsrGraph& g = p.graph();
  const BlockID own = p.block(u);
  for (EdgeID e = g.first_edge(u); e < g.last_edge(u); ++e)
    map.add(p.block(g.edge_target(e)), g.edge_weight(e));
  BlockID best = kInvalidBlockID;
  Weight best_conn = -1;
  for (BlockID b : map.keys()) {
    if (b == own)
      continue;
    const Weight conn = map.get(b);
    if (conn > best_conn && p.fits(u, b, limits)) {
      best = b;
      best_conn = conn;
    }
  }
  const Weight internal = map.get(own);
  map.clear();
  if (best != kInvalidBlockID)
    return {best_conn, best, internal};
  if (!lightest.empty()) {
    for (const BlockID b : lightest)
      if (b != own && p.fits(u, b, limits))
        return {0, b, internal};
    return {0, kInvalidBlockID, internal};
  }
  for (BlockID b = 0; b < p.k(); ++b) {
    if (b == own || !p.fits(u, b, limits))
      continue;
    if (best == kInvalidBlockID || p.block_weight(b) < p.block_weight(best))
      best = b;
  }
  return {0, best, internal};
}

// best_target with `lightest`, read from u's gain cache row instead of its adjacency, where that
// gives the same answer: with every edge weight positive the row holds exactly the other blocks
// the neighbours show, with their connections, so an interior vertex (most of an overloaded
// block) costs one entry. Ties between most connected blocks with room go to the first found
// among the neighbours, which only the adjacency tells: nullopt then.
std::optional<Target> target_from_row(const PartitionedGraph& p, const BlockLimits& limits,
                                      NodeID u, const GainCache& cache,
                                      std::span<const BlockID> lightest) {
  const BlockID own = p.block(u);
  Weight internal = 0, best_conn = -1;
  BlockID best = kInvalidBlockID;
  bool tied = false;
  cache.for_each(u, [&](BlockID b, Weight conn) {
    if (b == own) {
      internal = conn;
      return;
    }
    if (conn < best_conn || !p.fits(u, b, limits))
      return;
    tied = conn == best_conn;
    best = tied ? best : b;
    best_conn = conn;
  });
  if (tied)
    return std::nullopt;
  if (best != kInvalidBlockID)
    return Target{best_conn, best, internal};
  for (const BlockID b : lightest)
    if (b != own && p.fits(u, b, limits))
      return Target{0, b, internal};
  return Target{0, kInvalidBlockID, internal};
}

// Whether every edge weight is positive (unit weights are).
bool positive_edge_weights(const CsrGraph& g) {
  if (!g.has_edge_weights())
    return true;
  const std::span<const Weight> weights = g.edge_weights();
  return tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, weights.size(), 1 << 14), true,
      [&](const auto& r, bool positive) {
        Weight low = 1;
        for (std::size_t e = r.begin(); e != r.end(); ++e)
          low = std::min(low, weights[e]);
        return positive && low > 0;
      },
      [](bool a, bool b) { return a && b; });
}

// How much moving u to `to` would raise the cut: its edges into its own block minus those into
// `to`.
Weight cut_increase_of(const PartitionedGraph& p, NodeID u, BlockID to) {
  const CsrGraph& g = p.graph();
  const BlockID own = p.block(u);
  Weight delta = 0;
  for (EdgeID e = g.first_edge(u); e < g.last_edge(u); ++e) {
    const BlockID b = p.block(g.edge_target(e));
    if (b == own)
      delta += g.edge_weight(e);
    else if (b == to)
      delta -= g.edge_weight(e);
  }
  return delta;
}

// Edge weight from u into its own block.
Weight internal_weight(const PartitionedGraph& p, NodeID u) {
  const CsrGraph& g = p.graph();
  Weight sum = 0;
  for (EdgeID e = g.first_edge(u); e < g.last_edge(u); ++e)
    if (p.block(g.edge_target(e)) == p.block(u))
      sum += g.edge_weight(e);
  return sum;
}

} // namespace

bool rebalance(PartitionedGraph& p, const BlockLimits& limits, Weight* cut_increase,
               GainCache* cache, std::optional<bool> positive_weights) {
  const CsrGraph& g = p.graph();
  const NodeID n = g.num_nodes();
  if (p.balanced(limits))
    return true; // most calls: nothing to allocate
  RatingMap<BlockID> map(p.k());
  tbb::enumerable_thread_specific<RatingMap<BlockID>> maps(
      [&p] { return RatingMap<BlockID>(p.k()); });
  const bool positive =
      cache != nullptr && (positive_weights ? *positive_weights : positive_edge_weights(g));
  const GainCache* const rows = positive ? cache : nullptr;
  for (int round = 0; round < 16; ++round) {
    std::vector<char> over(p.k(), 0);
    BlockID overloaded = 0;
    for (BlockID b = 0; b < p.k(); ++b) {
      over[b] = p.overloaded(b, limits);
      overloaded += over[b];
    }
    if (overloaded == 0)
      return true;
    // (score, vertex, target): score = loss per unit of relieved weight, smallest first. Rated
    // in parallel; the vertex makes every candidate distinct, so the heap below pops them in
    // one order whatever order they were collected in.
    using Candidate = std::tuple<double, NodeID, BlockID>;
    // The rating below reads the partition only; nothing moves until it is done.
    std::vector<BlockID> lightest(p.k());
    std::iota(lightest.begin(), lightest.end(), BlockID{0});
    std::sort(lightest.begin(), lightest.end(), [&p](BlockID a, BlockID b) {
      return std::pair(p.block_weight(a), a) < std::pair(p.block_weight(b), b);
    });
    tbb::enumerable_thread_specific<std::vector<Candidate>> found;
    tbb::parallel_for(tbb::blocked_range<NodeID>(0, n, 1024), [&](const auto& range) {
      auto& mine = found.local();
      auto& rating = maps.local();
      for (NodeID u = range.begin(); u != range.end(); ++u) {
        if (!over[p.block(u)])
          continue;
        const Weight r = relief(p, limits, u);
        if (r <= 0)
          continue;
        const std::optional<Target> from_row =
            rows ? target_from_row(p, limits, u, *rows, lightest) : std::nullopt;
        const auto [conn, to, internal] =
            from_row ? *from_row : best_target(p, limits, u, rating, lightest);
        if (to == kInvalidBlockID)
          continue;
        const double loss = static_cast<double>(internal - conn);
        mine.emplace_back(loss >= 0 ? loss / r : loss * r, u, to);
      }
    });
    std::vector<Candidate> candidates;
    for (const auto& part : found)
      candidates.insert(candidates.end(), part.begin(), part.end());
    if (candidates.empty())
      return false;
    // A min-heap, not a sort: the overload is usually relieved by a small share of them.
    const auto later = [](const auto& a, const auto& b) { return a > b; };
    std::make_heap(candidates.begin(), candidates.end(), later);
    bool moved = false;
    while (!candidates.empty() && overloaded > 0) {
      std::pop_heap(candidates.begin(), candidates.end(), later);
      const auto [score, u, to] = candidates.back();
      candidates.pop_back();
      const BlockID from = p.block(u);
      if (relief(p, limits, u) <= 0)
        continue; // its block is fine by now
      // The move's cut change, counted before it is made (only when asked for).
      auto try_move = [&](BlockID target) {
        const Weight delta = cut_increase != nullptr ? cut_increase_of(p, u, target) : 0;
        if (!p.try_move(u, target, limits))
          return false;
        if (cache != nullptr)
          cache->moved(g, u, from, target);
        if (cut_increase != nullptr)
          *cut_increase += delta;
        return true;
      };
      bool done = try_move(to);
      if (!done) {
        const BlockID other = best_target(p, limits, u, map).block;
        done = other != kInvalidBlockID && try_move(other);
      }
      if (done) {
        moved = true;
        if (!p.overloaded(from, limits))
          --overloaded;
      }
    }
    if (!moved)
      return p.balanced(limits);
  }
  return p.balanced(limits);
}

void fill_empty_blocks(PartitionedGraph& p, const BlockLimits& limits) {
  const CsrGraph& g = p.graph();
  if (g.num_nodes() < p.k())
    return;
  // The vertex with the least internal connection from a block with >= 2 vertices.
  gnnpart::fill_empty_blocks(
      g.num_nodes(), p.k(), [&](NodeID u) { return p.block(u); },
      [&](NodeID u, BlockID b, std::span<const NodeID> sizes) {
        return sizes[p.block(u)] >= 2 && p.fits(u, b, limits);
      },
      [&](NodeID u, BlockID) { return internal_weight(p, u); },
      [&](NodeID u, BlockID b) { p.move(u, b); });
}

std::size_t repair_overload(PartitionedGraph& p, const BlockLimits& limits) {
  const CsrGraph& graph = p.graph();
  const NodeID n = graph.num_nodes();
  const BlockID k = p.k();
  const int ncon = p.ncon();
  std::vector<NodeID> sizes(k, 0);
  for (NodeID u = 0; u < n; ++u)
    ++sizes[p.block(u)];
  auto w = [&](BlockID b, int c) { return p.block_weight(b, c); };
  auto bound = [&](BlockID b, int c) { return limits.max(b, c); };
  // Unlike p.fits, a vertex with no weight in a constraint does not fit into a block that is
  // already over it.
  auto fits = [&](NodeID u, BlockID t) {
    for (int c = 0; c < ncon; ++c) {
      if (w(t, c) + graph.vertex_weight(u, c) > bound(t, c))
        return false;
    }
    return true;
  };
  auto move = [&](NodeID u, BlockID t) {
    --sizes[p.block(u)];
    ++sizes[t];
    p.move(u, t);
  };
  std::size_t moves = 0;

  // 1. Fill empty blocks (n >= k) with the cheapest vertex of the most populated block.
  if (n >= k) {
    BlockID filling = kInvalidBlockID, source = 0;
    const std::vector<BlockID> empty = gnnpart::fill_empty_blocks(
        n, k, [&](NodeID u) { return p.block(u); },
        [&](NodeID u, BlockID t, std::span<const NodeID> counts) {
          if (t != filling) {
            filling = t;
            source = static_cast<BlockID>(std::max_element(counts.begin(), counts.end()) -
                                          counts.begin());
          }
          return p.block(u) == source && fits(u, t);
        },
        [&](NodeID u, BlockID) { return internal_weight(p, u); },
        [&](NodeID u, BlockID t) {
          move(u, t);
          ++moves;
        });
    if (!empty.empty())
      throw InfeasibleBalance(
          fmt::format("block {} is empty and no vertex fits into it", empty.front()));
  }

  // 2. Move vertices out of overloaded blocks until every bound holds. A move is taken only if
  // it lowers the total overload, each constraint's overload counted relative to its bound;
  // moves into blocks with room come first, then by edge gain. A move may overload the target
  // in a looser constraint when that relieves a tighter one (a training vertex into a block
  // that is full of plain vertices), which a later move then fixes. The total strictly
  // decreases, so this ends; a cap on the rounds guards against rounding.
  std::vector<double> scale(ncon, 1.0);
  for (int c = 0; c < ncon; ++c)
    scale[c] = 1.0 / static_cast<double>(std::max<Weight>(bound(0, c), 1));
  auto excess = [&](BlockID b, int c, Weight change) {
    return std::max<Weight>(0, w(b, c) + change - bound(b, c));
  };
  // Change of the relative total overload if u moved from its block to t.
  auto overload_delta = [&](NodeID u, BlockID t) {
    const BlockID b = p.block(u);
    double delta = 0;
    for (int c = 0; c < ncon; ++c) {
      const Weight x = graph.vertex_weight(u, c);
      if (x == 0)
        continue;
      const Weight change =
          (excess(b, c, -x) - excess(b, c, 0)) + (excess(t, c, x) - excess(t, c, 0));
      delta += static_cast<double>(change) * scale[c];
    }
    return delta;
  };
  constexpr double kTolerance = 1e-12;
  std::vector<Weight> conn(k, 0);
  std::vector<BlockID> touched;
  struct Candidate {
    int fits; // 1: the target keeps every bound
    Weight gain;
    NodeID u;
    BlockID target;
  };
  std::vector<Candidate> candidates;
  auto relevant = [&](NodeID u) {
    const BlockID b = p.block(u);
    if (n >= k && sizes[b] <= 1)
      return false;
    for (int c = 0; c < ncon; ++c)
      if (w(b, c) > bound(b, c) && graph.vertex_weight(u, c) > 0)
        return true;
    return false;
  };
  const std::size_t max_rounds = 4 * static_cast<std::size_t>(n) + 16;
  for (std::size_t round = 0;; ++round) {
    std::vector<char> overloaded(k, 0);
    bool any = false;
    for (BlockID b = 0; b < k; ++b) {
      for (int c = 0; c < ncon; ++c) {
        if (w(b, c) > bound(b, c))
          overloaded[b] = 1;
      }
      any = any || overloaded[b];
    }
    if (!any)
      break;
    if (round == max_rounds)
      throw InfeasibleBalance("could not bring every block within the balance bound; raise "
                              "--epsilon");
    // Fallback targets: for each constraint, the block carrying least of it.
    std::vector<BlockID> lightest(ncon, 0);
    for (int c = 0; c < ncon; ++c) {
      for (BlockID b = 1; b < k; ++b)
        if (w(b, c) < w(lightest[c], c))
          lightest[c] = b;
    }
    candidates.clear();
    for (NodeID u = 0; u < n; ++u) {
      const BlockID b = p.block(u);
      if (!overloaded[b] || !relevant(u))
        continue;
      for (EdgeID e = graph.first_edge(u); e < graph.last_edge(u); ++e) {
        const BlockID q = p.block(graph.edge_target(e));
        if (conn[q] == 0)
          touched.push_back(q);
        conn[q] += graph.edge_weight(e);
      }
      const Weight own = conn[b];
      Candidate best{-1, 0, u, kInvalidBlockID};
      auto consider = [&](BlockID t) {
        if (t == b || overload_delta(u, t) >= -kTolerance)
          return;
        const Candidate cand{fits(u, t) ? 1 : 0, conn[t] - own, u, t};
        if (std::tie(cand.fits, cand.gain, best.target) > std::tie(best.fits, best.gain, t))
          best = cand;
      };
      for (const BlockID t : touched)
        consider(t);
      for (const BlockID t : lightest)
        consider(t);
      for (const BlockID t : touched)
        conn[t] = 0;
      touched.clear();
      if (best.target != kInvalidBlockID)
        candidates.push_back(best);
    }
    std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
      return std::tie(b.fits, b.gain, a.u) < std::tie(a.fits, a.gain, b.u);
    });
    std::size_t applied = 0;
    for (const Candidate& cand : candidates) {
      if (!relevant(cand.u) || overload_delta(cand.u, cand.target) >= -kTolerance)
        continue;
      move(cand.u, cand.target);
      ++applied;
    }
    if (applied == 0)
      throw InfeasibleBalance(
          "could not bring every block within the balance bound (no move of a vertex out of an "
          "overloaded block helps); raise --epsilon");
    moves += applied;
  }
  return moves;
}

} // namespace gnnpart::ml
