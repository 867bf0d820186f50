#include "core/hypergraph.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

#include "core/errors.h"
#include "core/metrics.h"
#include "core/parallel.h"
#include "core_test_util.h"

namespace gnnpart {
namespace {

std::vector<NodeID> to_vector(std::span<const NodeID> s) {
  return {s.begin(), s.end()};
}

TEST(Hypergraph, DropsRepeatedPinsAndBuildsIncidence) {
  // Nets: {2, 0, 2}, {}, {1, 3, 1, 1}, {0}.
  const Hypergraph h(4, {0, 3, 3, 7, 8}, {2, 0, 2, 1, 3, 1, 1, 0}, {5, 1, 2, 3});
  EXPECT_EQ(h.num_nodes(), 4u);
  EXPECT_EQ(h.num_nets(), 4u);
  EXPECT_EQ(h.num_pins(), 5u);
  EXPECT_EQ(to_vector(h.pins(0)), (std::vector<NodeID>{0, 2}));
  EXPECT_EQ(h.net_size(1), 0u);
  EXPECT_EQ(to_vector(h.pins(2)), (std::vector<NodeID>{1, 3}));
  EXPECT_EQ(to_vector(h.incident_nets(0)), (std::vector<NodeID>{0, 3}));
  EXPECT_EQ(to_vector(h.incident_nets(1)), (std::vector<NodeID>{2}));
  EXPECT_EQ(to_vector(h.incident_nets(2)), (std::vector<NodeID>{0}));
  EXPECT_EQ(to_vector(h.incident_nets(3)), (std::vector<NodeID>{2}));
  EXPECT_EQ(h.net_weight(2), 2);
}

TEST(Hypergraph, RejectsBadInput) {
  EXPECT_THROW(Hypergraph(2, {0, 2}, {0}), InvalidParameter);
  EXPECT_THROW(Hypergraph(2, {0, 2}, {0, 2}), InvalidParameter);
  EXPECT_THROW(Hypergraph(2, {0, 2, 1}, {0, 1}), InvalidParameter);
  EXPECT_THROW(Hypergraph(2, {0, 2}, {0, 1}, {1, 1}), InvalidParameter);
  EXPECT_THROW(Hypergraph(2, {0, 2}, {0, 1}, {}, 2, {1, 1}), InvalidParameter);
  EXPECT_THROW(Hypergraph(2, {}, {}), InvalidParameter);
}

struct RandomHypergraph {
  NodeID n;
  std::vector<std::vector<NodeID>> nets; // with repeats
  std::vector<Weight> net_weights;
};

RandomHypergraph random_hypergraph(Rng& rng, NodeID n, NetID m) {
  RandomHypergraph r{n, {}, {}};
  for (NetID e = 0; e < m; ++e) {
    std::vector<NodeID> pins;
    const std::size_t size = rng.below(7);
    for (std::size_t i = 0; i < size; ++i)
      pins.push_back(static_cast<NodeID>(rng.below(n)));
    r.nets.push_back(pins);
    r.net_weights.push_back(1 + static_cast<Weight>(rng.below(4)));
  }
  return r;
}

Hypergraph build(const RandomHypergraph& r, int ncon = 1, std::vector<Weight> vw = {}) {
  std::vector<EdgeID> offsets{0};
  std::vector<NodeID> pins;
  for (const auto& net : r.nets) {
    pins.insert(pins.end(), net.begin(), net.end());
    offsets.push_back(pins.size());
  }
  return Hypergraph(r.n, std::move(offsets), std::move(pins), r.net_weights, ncon, std::move(vw));
}

TEST(Hypergraph, IncidenceMatchesReferenceAndIsDeterministic) {
  Rng rng(derive_seed(41));
  for (int round = 0; round < 20; ++round) {
    const auto r = random_hypergraph(rng, 1 + static_cast<NodeID>(rng.below(50)),
                                     static_cast<NetID>(rng.below(80)));
    const Hypergraph h = run_with_threads(2, [&] { return build(r); });
    std::vector<std::set<NetID>> incident(r.n);
    EdgeID pins = 0;
    for (NetID e = 0; e < r.nets.size(); ++e) {
      const std::set<NodeID> unique(r.nets[e].begin(), r.nets[e].end());
      EXPECT_EQ(to_vector(h.pins(e)), std::vector<NodeID>(unique.begin(), unique.end()));
      for (NodeID u : unique)
        incident[u].insert(e);
      pins += unique.size();
    }
    EXPECT_EQ(h.num_pins(), pins);
    for (NodeID u = 0; u < r.n; ++u)
      EXPECT_EQ(to_vector(h.incident_nets(u)),
                std::vector<NetID>(incident[u].begin(), incident[u].end()));
  }
  const auto big = random_hypergraph(rng, 3000, 40000);
  const Hypergraph one = run_with_threads(1, [&] { return build(big); });
  const Hypergraph two = run_with_threads(2, [&] { return build(big); });
  EXPECT_TRUE(std::ranges::equal(one.pin_array(), two.pin_array()));
  EXPECT_TRUE(std::ranges::equal(one.net_offsets(), two.net_offsets()));
  EXPECT_TRUE(std::ranges::equal(one.node_offsets(), two.node_offsets()));
  EXPECT_TRUE(std::ranges::equal(one.incident_net_array(), two.incident_net_array()));
}

// A symmetric pin matrix (a column-net model: net u = {u} and N(u)) shares one CSR for both
// directions; an almost symmetric one (one pin missing) and one with n != nets do not. Either
// way the incidence is the reference's.
TEST(Hypergraph, SymmetricPinMatrixSharesTheIncidence) {
  Rng rng(derive_seed(43));
  const NodeID n = 300;
  std::vector<std::set<NodeID>> adjacency(n);
  for (int i = 0; i < 1500; ++i) {
    const auto u = static_cast<NodeID>(rng.below(n)), v = static_cast<NodeID>(rng.below(n));
    adjacency[u].insert(v);
    adjacency[v].insert(u);
  }
  // Variant 1 drops a pin above its net (its mirror below is then missing), variant 3 one below
  // its net (every pin below keeps its mirror, but one pin above has none).
  auto make = [&](bool drop_one_pin, bool extra_net, bool drop_one_below = false) {
    std::vector<EdgeID> offsets{0};
    std::vector<NodeID> pins;
    for (NodeID u = 0; u < n; ++u) {
      pins.push_back(u);
      for (NodeID v : adjacency[u])
        if (!(drop_one_pin && u == 0 && v == *adjacency[0].rbegin()) &&
            !(drop_one_below && u == n - 1 && v == *adjacency[n - 1].begin()) && v != u)
          pins.push_back(v);
      offsets.push_back(pins.size());
    }
    if (extra_net) {
      pins.insert(pins.end(), {0, 1});
      offsets.push_back(pins.size());
    }
    return run_with_threads(2, [&] { return Hypergraph(n, offsets, pins); });
  };
  ASSERT_FALSE(adjacency[0].empty());
  ASSERT_FALSE(adjacency[n - 1].empty());
  ASSERT_LT(*adjacency[n - 1].begin(), n - 1);
  for (int variant = 0; variant < 4; ++variant) {
    const Hypergraph h = make(variant == 1, variant == 2, variant == 3);
    EXPECT_EQ(h.shares_incidence(), variant == 0) << "variant " << variant;
    std::vector<std::vector<NetID>> incident(n);
    for (NetID e = 0; e < h.num_nets(); ++e)
      for (NodeID u : h.pins(e))
        incident[u].push_back(e);
    EdgeID total = 0;
    for (NodeID u = 0; u < n; ++u) {
      EXPECT_EQ(to_vector(h.incident_nets(u)), incident[u]) << "variant " << variant;
      EXPECT_EQ(h.node_degree(u), incident[u].size());
      total += incident[u].size();
    }
    EXPECT_EQ(h.incident_net_array().size(), total);
    EXPECT_EQ(h.node_offsets().size(), n + 1u);
  }
}

// The symmetry test over several vertex ranges (4096 vertices each at least) at 1-4 threads: a
// column-net model shares its incidence, and one pin missing above or below its net, or one pin
// added without its mirror, in any range, makes the matrix asymmetric.
TEST(Hypergraph, SymmetryFoundOverSeveralRanges) {
  Rng rng(derive_seed(53));
  const NodeID n = 20000;
  std::vector<std::set<NodeID>> adjacency(n);
  for (int i = 0; i < 100000; ++i) {
    const auto u = static_cast<NodeID>(rng.below(n)), v = static_cast<NodeID>(rng.below(n));
    if (u != v) {
      adjacency[u].insert(v);
      adjacency[v].insert(u);
    }
  }
  // (net, pin) changed: erased if present, else added.
  auto make = [&](int threads, NodeID net, NodeID pin) {
    std::vector<EdgeID> offsets{0};
    std::vector<NodeID> pins;
    for (NodeID u = 0; u < n; ++u) {
      std::set<NodeID> list = adjacency[u];
      list.insert(u);
      if (u == net && !list.erase(pin))
        list.insert(pin);
      pins.insert(pins.end(), list.begin(), list.end());
      offsets.push_back(pins.size());
    }
    return run_with_threads(threads, [&] { return Hypergraph(n, offsets, pins); });
  };
  for (int threads = 1; threads <= 4; ++threads) {
    EXPECT_TRUE(make(threads, n, 0).shares_incidence()) << threads << " threads";
    for (NodeID u : {NodeID{7000}, NodeID{13000}, NodeID{18500}}) {
      while (adjacency[u].empty() || *adjacency[u].begin() > u || *adjacency[u].rbegin() < u)
        ++u; // a vertex with neighbours below and above it
      const NodeID below = *adjacency[u].begin(), above = *adjacency[u].rbegin();
      for (const NodeID pin : {below, above, NodeID{u - 3}, NodeID{(u + 5000) % n}}) {
        if (pin != below && pin != above && adjacency[u].count(pin) != 0)
          continue;
        const Hypergraph h = make(threads, u, pin);
        EXPECT_FALSE(h.shares_incidence()) << threads << " threads, net " << u << " pin " << pin;
        for (NodeID v : h.pins(u))
          EXPECT_TRUE(std::ranges::binary_search(h.incident_nets(v), u));
      }
    }
  }
}

// Large enough for the incidence to be built from several chunks of nets (2^16 pins each at
// least), with nets given sorted, unsorted and with repeats: the same arrays as the reference at
// 1, 2, 3 and 4 threads.
TEST(Hypergraph, IncidenceFromChunksMatchesReference) {
  Rng rng(derive_seed(47));
  const NodeID n = 5000;
  const NetID m = 120000;
  std::vector<EdgeID> offsets{0};
  std::vector<NodeID> pins;
  for (NetID e = 0; e < m; ++e) {
    const std::size_t size = rng.below(9);
    const std::size_t first = pins.size();
    for (std::size_t i = 0; i < size; ++i)
      pins.push_back(static_cast<NodeID>(rng.below(n)));
    if (e % 3 == 0) { // sorted, without repeats
      std::sort(pins.begin() + first, pins.end());
      pins.erase(std::unique(pins.begin() + first, pins.end()), pins.end());
    }
    offsets.push_back(pins.size());
  }
  ASSERT_GT(pins.size(), (std::size_t{4} << 16));
  std::vector<std::vector<NodeID>> nets(m);
  std::vector<std::vector<NetID>> incident(n);
  for (NetID e = 0; e < m; ++e) {
    const std::set<NodeID> unique(pins.begin() + offsets[e], pins.begin() + offsets[e + 1]);
    nets[e].assign(unique.begin(), unique.end());
    for (NodeID u : unique)
      incident[u].push_back(e);
  }
  for (int threads = 1; threads <= 4; ++threads) {
    const Hypergraph h = run_with_threads(threads, [&] { return Hypergraph(n, offsets, pins); });
    EXPECT_FALSE(h.shares_incidence());
    for (NetID e = 0; e < m; ++e)
      ASSERT_EQ(to_vector(h.pins(e)), nets[e]) << threads << " threads, net " << e;
    for (NodeID u = 0; u < n; ++u)
      ASSERT_EQ(to_vector(h.incident_nets(u)), incident[u]) << threads << " threads, vertex " << u;
  }
}

// The nets taken out and put back (the multilevel cycle's packed input): the count of nets
// stays readable meanwhile, and only arrays of the taken shape are accepted back.
TEST(Hypergraph, NetsTakenOutAndPutBack) {
  // Nets: {0, 2}, {1, 3}, {0, 1, 2}.
  Hypergraph h(4, {0, 2, 4, 7}, {0, 2, 1, 3, 0, 1, 2}, {5, 1, 2});
  Hypergraph::Nets nets = h.take_nets();
  EXPECT_EQ(nets.offsets, (std::vector<EdgeID>{0, 2, 4, 7}));
  EXPECT_EQ(nets.pins, (std::vector<NodeID>{0, 2, 1, 3, 0, 1, 2}));
  EXPECT_EQ(h.num_nets(), 3u);
  EXPECT_EQ(h.num_nodes(), 4u);
  EXPECT_EQ(h.num_pins(), 0u);
  EXPECT_TRUE(h.net_offsets().empty()) << "the offsets are out too";
  EXPECT_EQ(h.net_weight(2), 2);
  EXPECT_THROW(h.put_nets({{0, 2, 4}, {0, 2, 1, 3}}), InvalidParameter);    // one net short
  EXPECT_THROW(h.put_nets({{0, 2, 4, 7}, {0, 2, 1, 3}}), InvalidParameter); // pins short
  h.put_nets(std::move(nets));
  EXPECT_EQ(h.num_nets(), 3u);
  EXPECT_EQ(h.num_pins(), 7u);
  EXPECT_EQ(to_vector(h.pins(2)), (std::vector<NodeID>{0, 1, 2}));
  EXPECT_THROW(h.put_nets({{0}, {}}), InvalidParameter) << "nothing taken";
}

TEST(HypergraphMetrics, HandComputed) {
  // Nets {0,1,2} w2, {2,3} w1, {0,1} w5, {} w7; blocks 0 0 1 2 (k = 4, block 3 empty).
  const Hypergraph h(4, {0, 3, 5, 7, 7}, {0, 1, 2, 2, 3, 0, 1}, {2, 1, 5, 7});
  const Partition p{4, {0, 0, 1, 2}};
  for (const auto& m :
       {compute_hypergraph_metrics(h, p), compute_hypergraph_metrics_sequential(h, p)}) {
    EXPECT_EQ(m.km1, 2 * 1 + 1 * 1);
    EXPECT_EQ(m.cut, 2 + 1);
    EXPECT_EQ(m.soed, 2 * 2 + 2 * 1);
    EXPECT_EQ(m.empty_blocks, 1u);
    ASSERT_EQ(m.imbalance.size(), 1u);
    EXPECT_DOUBLE_EQ(m.imbalance[0], 1.0); // max block 2 / ceil(4 / 4) - 1
  }
}

TEST(HypergraphMetrics, MatchReferenceOnRandomHypergraphs) {
  Rng rng(derive_seed(42));
  for (int round = 0; round < 50; ++round) {
    const NodeID n = 1 + static_cast<NodeID>(rng.below(60));
    const auto r = random_hypergraph(rng, n, static_cast<NetID>(rng.below(100)));
    const int ncon = 1 + static_cast<int>(rng.below(2));
    std::vector<Weight> vw;
    for (std::size_t i = 0; i < static_cast<std::size_t>(n) * ncon; ++i)
      vw.push_back(1 + static_cast<Weight>(rng.below(6)));
    const Hypergraph h = build(r, ncon, vw);
    const BlockID k = round % 10 == 0 ? 1 : 1 + static_cast<BlockID>(rng.below(8));
    const Partition p = testing::random_partition(rng, n, k, round % 2 == 0);
    Weight km1 = 0, cut = 0, soed = 0;
    for (NetID e = 0; e < r.nets.size(); ++e) {
      std::set<BlockID> blocks;
      for (NodeID u : r.nets[e])
        blocks.insert(p.blocks[u]);
      const Weight lambda = static_cast<Weight>(blocks.size());
      if (lambda > 1) {
        km1 += (lambda - 1) * r.net_weights[e];
        cut += r.net_weights[e];
        soed += lambda * r.net_weights[e];
      }
    }
    std::set<BlockID> used(p.blocks.begin(), p.blocks.end());
    SCOPED_TRACE(round);
    for (const auto& m : {run_with_threads(2, [&] { return compute_hypergraph_metrics(h, p); }),
                          compute_hypergraph_metrics_sequential(h, p)}) {
      EXPECT_EQ(m.km1, km1);
      EXPECT_EQ(m.cut, cut);
      EXPECT_EQ(m.soed, soed);
      EXPECT_EQ(m.empty_blocks, k - used.size());
      ASSERT_EQ(m.imbalance.size(), static_cast<std::size_t>(ncon));
      for (int c = 0; c < ncon; ++c) {
        std::vector<Weight> per_block(k, 0);
        Weight total = 0;
        for (NodeID u = 0; u < n; ++u) {
          per_block[p.blocks[u]] += vw[u * ncon + c];
          total += vw[u * ncon + c];
        }
        const double perfect = std::ceil(static_cast<double>(total) / k);
        EXPECT_DOUBLE_EQ(m.imbalance[c],
                         *std::max_element(per_block.begin(), per_block.end()) / perfect - 1);
      }
    }
  }
}

} // namespace
} // namespace gnnpart
