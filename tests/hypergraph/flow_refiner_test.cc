// Flow refinement: the incremental max flow against brute-force min cuts of tiny networks.
#include <gtest/gtest.h>

#include <vector>

#include "core/errors.h"
#include "core/random.h"
#include "hypergraph/flow_network.h"

namespace gnnpart {
namespace {

struct TestArc {
  FlowNetwork::Node from, to;
  Weight capacity, reverse_capacity;
};

// Minimum capacity of arcs leaving a node set that holds every source and no sink, over all
// such sets (n <= 12).
Weight brute_force_min_cut(FlowNetwork::Node n, const std::vector<TestArc>& arcs,
                           const std::vector<int>& terminal) {
  Weight best = -1;
  for (std::uint32_t mask = 0; mask < (1u << n); ++mask) {
    bool ok = true;
    for (FlowNetwork::Node u = 0; u < n && ok; ++u) {
      const bool in = (mask >> u) & 1;
      ok = !((terminal[u] == 1 && !in) || (terminal[u] == 2 && in));
    }
    if (!ok)
      continue;
    Weight cut = 0;
    for (const TestArc& a : arcs) {
      const bool from_in = (mask >> a.from) & 1, to_in = (mask >> a.to) & 1;
      if (from_in && !to_in)
        cut += a.capacity;
      if (to_in && !from_in)
        cut += a.reverse_capacity;
    }
    if (best < 0 || cut < best)
      best = cut;
  }
  return best;
}

// Capacity of the arcs leaving the nodes marked with `stamp`.
Weight cut_of(const std::vector<TestArc>& arcs, const std::vector<std::uint32_t>& mark,
              std::uint32_t stamp) {
  Weight cut = 0;
  for (const TestArc& a : arcs) {
    const bool from_in = mark[a.from] == stamp, to_in = mark[a.to] == stamp;
    if (from_in && !to_in)
      cut += a.capacity;
    if (to_in && !from_in)
      cut += a.reverse_capacity;
  }
  return cut;
}

TEST(FlowNetwork, MaxFlowEqualsBruteForceMinCutAsTerminalsGrow) {
  Rng rng(42);
  FlowNetwork net;
  std::vector<std::uint32_t> mark;
  std::vector<FlowNetwork::Node> reached;
  for (int trial = 0; trial < 300; ++trial) {
    const FlowNetwork::Node n = 4 + static_cast<FlowNetwork::Node>(rng.below(8));
    std::vector<TestArc> arcs;
    const int m = static_cast<int>(n + rng.below(3 * n));
    for (int i = 0; i < m; ++i) {
      const auto u = static_cast<FlowNetwork::Node>(rng.below(n));
      const auto v = static_cast<FlowNetwork::Node>(rng.below(n));
      if (u == v)
        continue;
      const Weight c = static_cast<Weight>(rng.below(6));
      arcs.push_back({u, v, c, rng.coin() ? c : 0}); // undirected edge or directed arc
    }
    net.reset(n);
    for (const TestArc& a : arcs)
      net.add_arc(a.from, a.to, a.capacity, a.reverse_capacity);
    net.finalize();
    std::vector<int> terminal(n, 0);
    terminal[0] = 1;
    terminal[1] = 2;
    net.make_terminal(0, FlowNetwork::kSource);
    net.make_terminal(1, FlowNetwork::kSink);
    mark.assign(n, 0);
    std::uint32_t stamp = 0;
    // Terminals only grow; the flow of each step continues the previous one.
    for (int step = 0; step < 3; ++step) {
      const Weight flow = net.augment(FlowNetwork::kInfinite);
      ASSERT_EQ(flow, brute_force_min_cut(n, arcs, terminal)) << "trial " << trial;
      // Both reachable sets are min cuts.
      net.reachable(FlowNetwork::kSource, mark, ++stamp, reached);
      EXPECT_EQ(cut_of(arcs, mark, stamp), flow);
      for (FlowNetwork::Node u : reached)
        EXPECT_NE(terminal[u], 2);
      net.reachable(FlowNetwork::kSink, mark, ++stamp, reached);
      std::vector<std::uint32_t> complement(n, 0);
      for (FlowNetwork::Node u = 0; u < n; ++u)
        complement[u] = mark[u] == stamp ? 0 : 1;
      EXPECT_EQ(cut_of(arcs, complement, 1), flow);
      std::vector<FlowNetwork::Node> free;
      for (FlowNetwork::Node u = 0; u < n; ++u)
        if (terminal[u] == 0)
          free.push_back(u);
      if (free.empty())
        break;
      const FlowNetwork::Node u = free[rng.below(free.size())];
      terminal[u] = rng.coin() ? 1 : 2;
      net.make_terminal(u, terminal[u] == 1 ? FlowNetwork::kSource : FlowNetwork::kSink);
    }
  }
}

TEST(FlowNetwork, StopsAtTheBoundAndRejectsSideChanges) {
  // Two parallel paths of capacity 3 and 4 from 0 to 1.
  FlowNetwork net;
  net.reset(4);
  net.add_arc(0, 2, 3);
  net.add_arc(2, 1, 3);
  net.add_arc(0, 3, 4);
  net.add_arc(3, 1, 4);
  net.finalize();
  net.make_terminal(0, FlowNetwork::kSource);
  net.make_terminal(1, FlowNetwork::kSink);
  EXPECT_EQ(net.augment(2), 2);
  EXPECT_EQ(net.augment(100), 7);
  EXPECT_THROW(net.make_terminal(0, FlowNetwork::kSink), InvalidParameter);
}

} // namespace
} // namespace gnnpart
