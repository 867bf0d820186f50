#include "partition/multilevel/initial/bisection.h"

#include <algorithm>
#include <numeric>
#include <queue>

#include <tbb/parallel_for.h>

#include "core/random.h"

namespace gnnpart::ml {
namespace {

// A queue entry: the vertex's gain when queued, a random tie-break, the vertex, ordered
// lexicographically. Entries go stale (lazy deletion); since the order is total, any max-heap
// pops the same sequence. The gain (sign bit flipped) and the tie-break form one unsigned
// 128-bit key, so comparisons compile without branches (with random tie-breaks a branch per
// comparison is mispredicted half the time).
struct QueueEntry {
  std::uint64_t gain_bits;
  std::uint64_t stamp;
  NodeID u;
  unsigned __int128 key() const {
    return (static_cast<unsigned __int128>(gain_bits) << 64) | stamp;
  }
  Weight gain() const { return static_cast<Weight>(gain_bits ^ kSignBit); }
  static constexpr std::uint64_t kSignBit = std::uint64_t{1} << 63;
};

inline bool entry_less(const QueueEntry& a, const QueueEntry& b) {
  const unsigned __int128 ka = a.key(), kb = b.key();
  return static_cast<bool>(static_cast<int>(ka < kb) |
                           (static_cast<int>(ka == kb) & static_cast<int>(a.u < b.u)));
}

// Binary max-heap of entries (the same pops as std::priority_queue with the same order).
class MaxQueue {
public:
  bool empty() const { return heap_.empty(); }
  const QueueEntry& top() const { return heap_.front(); }
  void push(Weight gain, std::uint64_t stamp, NodeID u) {
    const QueueEntry e{static_cast<std::uint64_t>(gain) ^ QueueEntry::kSignBit, stamp, u};
    heap_.push_back(e);
    sift_up(heap_.size() - 1, e);
  }
  // Removes the top: the hole goes down along the larger children to a leaf (the child picked
  // without a branch), then the last entry fills it and rises (Floyd's bottom-up deletion).
  void pop() {
    const QueueEntry last = heap_.back();
    heap_.pop_back();
    const std::size_t len = heap_.size();
    if (len == 0)
      return;
    QueueEntry* h = heap_.data();
    std::size_t hole = 0;
    for (std::size_t child = 1; child < len; child = 2 * hole + 1) {
      child += static_cast<std::size_t>(child + 1 < len && entry_less(h[child], h[child + 1]));
      h[hole] = h[child];
      hole = child;
    }
    sift_up(hole, last);
  }
  void clear() { heap_.clear(); } // keeps the capacity for the next pass
  void reserve(std::size_t capacity) { heap_.reserve(capacity); }

private:
  void sift_up(std::size_t hole, const QueueEntry& e) {
    QueueEntry* h = heap_.data();
    while (hole > 0) {
      const std::size_t parent = (hole - 1) / 2;
      if (!entry_less(h[parent], e))
        break;
      h[hole] = h[parent];
      hole = parent;
    }
    h[hole] = e;
  }

  std::vector<QueueEntry> heap_;
};

struct SideWeights {
  int ncon;
  std::vector<Weight> w; // 2 * ncon
  Weight& at(BlockID s, int c) { return w[static_cast<std::size_t>(s) * ncon + c]; }
  Weight get(BlockID s, int c) const { return w[static_cast<std::size_t>(s) * ncon + c]; }
};

SideWeights side_weights(const CsrGraph& g, const std::vector<BlockID>& side) {
  SideWeights sw{g.ncon(), std::vector<Weight>(2 * static_cast<std::size_t>(g.ncon()), 0)};
  for (NodeID u = 0; u < g.num_nodes(); ++u)
    for (int c = 0; c < g.ncon(); ++c)
      sw.at(side[u], c) += g.vertex_weight(u, c);
  return sw;
}

Weight overload(const SideWeights& sw, const BlockLimits& limits) {
  Weight total = 0;
  for (BlockID s = 0; s < 2; ++s)
    for (int c = 0; c < sw.ncon; ++c)
      total += std::max<Weight>(0, sw.get(s, c) - limits.max(s, c));
  return total;
}

bool fits_side(const CsrGraph& g, NodeID u, BlockID s, const SideWeights& sw,
               const BlockLimits& limits) {
  for (int c = 0; c < g.ncon(); ++c) {
    const Weight w = g.vertex_weight(u, c);
    if (w > 0 && sw.get(s, c) + w > limits.max(s, c))
      return false;
  }
  return true;
}

// The last vertex a breadth-first search from `start` reaches, `sweeps` times over (each from
// the last one's result): a vertex far from the others of its component (pseudo-peripheral).
NodeID pseudo_peripheral(const CsrGraph& g, NodeID start, int sweeps) {
  std::vector<NodeID> order;
  std::vector<char> seen(g.num_nodes(), 0);
  for (int s = 0; s < sweeps; ++s) {
    std::fill(seen.begin(), seen.end(), 0);
    order.assign(1, start);
    seen[start] = 1;
    for (std::size_t i = 0; i < order.size(); ++i)
      for (EdgeID e = g.first_edge(order[i]); e < g.last_edge(order[i]); ++e) {
        const NodeID v = g.edge_target(e);
        if (!seen[v]) {
          seen[v] = 1;
          order.push_back(v);
        }
      }
    start = order.back();
  }
  return start;
}

// Grows side 0 (everything else stays on side 1) until it carries its share of the weight.
// method 0: greedy by gain, 1: BFS, 2: random order. With peripheral_sweeps > 0 the first
// region of methods 0 and 1 grows from a pseudo-peripheral vertex, not a random one.
std::vector<BlockID> grow(const CsrGraph& g, const BlockLimits& limits, double fraction0,
                          int method, int peripheral_sweeps, Rng& rng) {
  const NodeID n = g.num_nodes();
  const int ncon = g.ncon();
  std::vector<BlockID> side(n, 1);
  SideWeights sw{ncon, std::vector<Weight>(2 * static_cast<std::size_t>(ncon), 0)};
  std::vector<double> target(ncon);
  for (int c = 0; c < ncon; ++c) {
    const Weight total = g.total_vertex_weight(c);
    sw.at(1, c) = total;
    target[c] = fraction0 * static_cast<double>(total);
  }
  auto load = [&] {
    double sum = 0;
    int count = 0;
    for (int c = 0; c < ncon; ++c) {
      if (target[c] <= 0)
        continue;
      sum += static_cast<double>(sw.get(0, c)) / target[c];
      ++count;
    }
    return count == 0 ? 1.0 : sum / count;
  };
  auto add = [&](NodeID u) {
    side[u] = 0;
    for (int c = 0; c < ncon; ++c) {
      sw.at(0, c) += g.vertex_weight(u, c);
      sw.at(1, c) -= g.vertex_weight(u, c);
    }
  };
  std::vector<NodeID> order(n);
  std::iota(order.begin(), order.end(), NodeID{0});
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<char> done(n, 0); // added or rejected
  std::size_t next_start = 0;
  auto next_unvisited = [&]() -> NodeID {
    while (next_start < n && done[order[next_start]])
      ++next_start;
    return next_start < n ? order[next_start] : kInvalidNodeID;
  };

  if (method == 2) {
    for (NodeID u : order) {
      if (load() >= 1.0)
        break;
      if (fits_side(g, u, 0, sw, limits))
        add(u);
    }
    return side;
  }
  std::vector<Weight> gain(n, 0); // conn to side 0 - conn to side 1
  for (NodeID u = 0; u < n; ++u)
    for (EdgeID e = g.first_edge(u); e < g.last_edge(u); ++e)
      gain[u] -= g.edge_weight(e);
  // Room for n entries up front: a heap grown by doubling from empty reallocates and copies
  // about log2(n) times per call, and small graphs make thousands of calls.
  MaxQueue heap;
  std::queue<NodeID> fifo;
  std::vector<char> queued(n, 0);
  if (method == 0)
    heap.reserve(n);
  std::uint64_t stamp = 0;
  bool started = false; // the first region's start is taken
  while (load() < 1.0) {
    NodeID u = kInvalidNodeID;
    if (method == 0) {
      while (!heap.empty()) {
        const QueueEntry top = heap.top();
        heap.pop();
        if (!done[top.u] && top.gain() == gain[top.u]) {
          u = top.u;
          break;
        }
      }
    } else {
      while (!fifo.empty()) {
        const NodeID v = fifo.front();
        fifo.pop();
        if (!done[v]) {
          u = v;
          break;
        }
      }
    }
    if (u == kInvalidNodeID) {
      u = next_unvisited();
      if (u != kInvalidNodeID && !started && peripheral_sweeps > 0)
        u = pseudo_peripheral(g, u, peripheral_sweeps);
    }
    started = true;
    if (u == kInvalidNodeID)
      break;
    done[u] = 1;
    if (!fits_side(g, u, 0, sw, limits))
      continue;
    add(u);
    for (EdgeID e = g.first_edge(u); e < g.last_edge(u); ++e) {
      const NodeID v = g.edge_target(e);
      if (done[v])
        continue;
      gain[v] += 2 * g.edge_weight(e);
      if (method == 0) {
        heap.push(gain[v], ~(++stamp), v);
      } else if (!queued[v]) {
        queued[v] = 1;
        fifo.push(v);
      }
    }
  }
  return side;
}

// 2-way FM state: sides, gains (connection to the other side minus to the own side) and the
// number of arcs to the other side, kept exact through moves and their rollback, so a pass
// starts without rescanning the edges.
struct BisectionState {
  const CsrGraph& g;
  std::vector<BlockID>& side;
  SideWeights sw;
  std::vector<Weight> gain;
  std::vector<NodeID> external;
  Weight cut = 0; // set by the constructor only

  BisectionState(const CsrGraph& graph, std::vector<BlockID>& sides)
      : g(graph), side(sides), sw(side_weights(graph, sides)), gain(graph.num_nodes(), 0),
        external(graph.num_nodes(), 0) {
    Weight cut_arcs = 0; // the cut's arcs, each edge twice
    for (NodeID u = 0; u < g.num_nodes(); ++u) {
      Weight gn = 0;
      NodeID ext = 0;
      for (EdgeID e = g.first_edge(u); e < g.last_edge(u); ++e) {
        const bool other = side[g.edge_target(e)] != side[u];
        gn += other ? g.edge_weight(e) : -g.edge_weight(e);
        cut_arcs += other ? g.edge_weight(e) : 0;
        ext += other ? 1 : 0;
      }
      gain[u] = gn;
      external[u] = ext;
    }
    cut = cut_arcs / 2;
  }

  bool boundary(NodeID u) const { return external[u] > 0 || g.degree(u) == 0; }

  // Moves u to the other side; visit(v) sees each neighbour after its gain changed.
  template <typename Visit> void flip(NodeID u, Visit&& visit) {
    const BlockID from = side[u];
    const BlockID to = 1 - from;
    for (int c = 0; c < g.ncon(); ++c) {
      sw.at(from, c) -= g.vertex_weight(u, c);
      sw.at(to, c) += g.vertex_weight(u, c);
    }
    side[u] = to;
    gain[u] = -gain[u];
    external[u] = static_cast<NodeID>(g.degree(u)) - external[u];
    for (EdgeID e = g.first_edge(u); e < g.last_edge(u); ++e) {
      const NodeID v = g.edge_target(e);
      if (side[v] == to) {
        gain[v] -= 2 * g.edge_weight(e);
        --external[v];
      } else {
        gain[v] += 2 * g.edge_weight(e);
        ++external[v];
      }
      visit(v);
    }
  }
};

Weight fm_bisection_with(const CsrGraph& g, std::vector<BlockID>& side, const BlockLimits& limits,
                         int passes, int max_bad_moves, std::uint64_t seed,
                         Weight* final_overload) {
  const NodeID n = g.num_nodes();
  const int ncon = g.ncon();
  BisectionState st(g, side);
  SideWeights& sw = st.sw;
  std::vector<Weight>& gain = st.gain;
  Weight cut = st.cut;
  std::vector<char> locked(n);
  std::vector<NodeID> moves;
  moves.reserve(n);
  Rng rng(seed);
  MaxQueue heap[2]; // room for n entries each, as in grow
  heap[0].reserve(n);
  heap[1].reserve(n);

  for (int pass = 0; pass < passes; ++pass) {
    std::fill(locked.begin(), locked.end(), 0);
    heap[0].clear();
    heap[1].clear();
    // Only boundary and isolated vertices start in the queues (as in METIS); interior ones
    // enter when a neighbour moves, or all at once when a side's queue runs dry while a side
    // is overloaded (so a disconnected or one-sided start can still be balanced).
    bool flooded[2] = {false, false};
    for (NodeID u = 0; u < n; ++u)
      if (st.boundary(u))
        heap[side[u]].push(gain[u], rng(), u);
    const Weight start_cut = cut;
    const Weight start_over = overload(sw, limits);
    Weight best_cut = cut, best_over = start_over;
    std::size_t best_len = 0;
    moves.clear();
    int bad = 0;

    auto top_valid = [&](BlockID s) -> NodeID {
      for (;;) {
        while (!heap[s].empty()) {
          const QueueEntry& top = heap[s].top();
          if (!locked[top.u] && side[top.u] == s && top.gain() == gain[top.u])
            return top.u;
          heap[s].pop();
        }
        if (flooded[s] || overload(sw, limits) == 0)
          return kInvalidNodeID;
        flooded[s] = true;
        for (NodeID u = 0; u < n; ++u)
          if (!locked[u] && side[u] == s)
            heap[s].push(gain[u], rng(), u);
      }
    };

    while (bad < max_bad_moves) {
      // As METIS: always move from the side that is fuller relative to its limit, so the
      // balance oscillates around the target and every vertex stays available.
      double load[2] = {0, 0};
      for (BlockID s = 0; s < 2; ++s)
        for (int c = 0; c < ncon; ++c)
          if (limits.max(s, c) > 0)
            load[s] = std::max(load[s], static_cast<double>(sw.get(s, c)) / limits.max(s, c));
      BlockID from_side = load[0] >= load[1] ? 0 : 1;
      NodeID u = top_valid(from_side);
      if (u == kInvalidNodeID) {
        from_side = 1 - from_side;
        u = top_valid(from_side);
      }
      if (u == kInvalidNodeID)
        break;
      heap[side[u]].pop();
      cut -= gain[u];
      locked[u] = 1;
      moves.push_back(u);
      st.flip(u, [&](NodeID v) {
        if (!locked[v])
          heap[side[v]].push(gain[v], rng(), v);
      });
      const Weight over_now = overload(sw, limits);
      if (over_now < best_over || (over_now == best_over && cut < best_cut)) {
        best_over = over_now;
        best_cut = cut;
        best_len = moves.size();
        bad = 0;
      } else {
        ++bad;
      }
    }
    // Roll back to the best prefix (gains and boundary counts with it).
    while (moves.size() > best_len) {
      st.flip(moves.back(), [](NodeID) {});
      moves.pop_back();
    }
    cut = best_cut;
    if (best_over == start_over && best_cut >= start_cut)
      break;
  }
  if (final_overload != nullptr)
    *final_overload = overload(sw, limits); // the side weights are exact after the rollback
  return cut;
}

} // namespace

Weight fm_bisection(const CsrGraph& g, std::vector<BlockID>& side, const BlockLimits& limits,
                    int passes, int max_bad_moves, std::uint64_t seed) {
  return fm_bisection_with(g, side, limits, passes, max_bad_moves, seed, nullptr);
}

std::vector<BlockID> initial_bisection(const CsrGraph& graph, const BlockLimits& limits,
                                       double fraction0, const InitialContext& ctx,
                                       std::uint64_t seed) {
  const int tries = std::max(1, ctx.tries);
  // Small graphs need no long unproductive tails.
  const int max_bad = std::min<int>(ctx.fm_max_bad, std::max<NodeID>(16, graph.num_nodes() / 4));
  struct Try {
    std::vector<BlockID> side;
    Weight cut = 0;
    Weight over = 0;
  };
  // The tries are independent; the best is picked in try order, so the thread count does not
  // change the result.
  std::vector<Try> results(tries);
  tbb::parallel_for(0, tries, [&](int t) {
    Rng rng(derive_seed(seed, 20, static_cast<std::uint64_t>(t)));
    Try& r = results[t];
    r.side = grow(graph, limits, fraction0, t % 3, ctx.peripheral_sweeps, rng);
    r.cut = fm_bisection_with(graph, r.side, limits, ctx.fm_passes, max_bad,
                              derive_seed(seed, 21, static_cast<std::uint64_t>(t)), &r.over);
  });
  std::size_t best = 0;
  for (std::size_t t = 1; t < results.size(); ++t)
    if (results[t].over < results[best].over ||
        (results[t].over == results[best].over && results[t].cut < results[best].cut))
      best = t;
  return std::move(results[best].side);
}

} // namespace gnnpart::ml
