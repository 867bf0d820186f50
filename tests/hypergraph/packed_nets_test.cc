// Packed parked levels (hypergraph/packed_nets.h): unpacking gives back the arrays exactly
// (weighted and unit nets, empty nets, several constraints, pin ids near 2^32, more than one
// chunk), and contraction from the packed nets equals contraction from the hypergraph.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>

#include "core/random.h"
#include "hypergraph/block_limits.h"
#include "hypergraph/coarsening.h"
#include "hypergraph/context.h"
#include "hypergraph/contraction.h"
#include "hypergraph/packed_nets.h"
#include "hypergraph_test_util.h"

namespace gnnpart::hg {
namespace {

void expect_same_arrays(const Hypergraph::Arrays& a, const Hypergraph::Arrays& b) {
  EXPECT_EQ(a.net_offsets, b.net_offsets);
  EXPECT_EQ(a.pins, b.pins);
  EXPECT_EQ(a.net_weights, b.net_weights);
  EXPECT_EQ(a.ncon, b.ncon);
  EXPECT_EQ(a.vertex_weights, b.vertex_weights);
}

Hypergraph::Arrays copy_arrays(const Hypergraph& hg) {
  return {{hg.net_offsets().begin(), hg.net_offsets().end()},
          {hg.pin_array().begin(), hg.pin_array().end()},
          {hg.net_weights().begin(), hg.net_weights().end()},
          hg.ncon(),
          {hg.vertex_weights().begin(), hg.vertex_weights().end()}};
}

// n vertices, `nets` nets of 0 to 40 pins (some far apart, repeats possible), weights as asked:
// below 2^(20 + 2 * weight_shift). Contraction sums the weights of identical nets, so the tests
// that contract keep weight_shift small enough that no sum of all nets can overflow.
Hypergraph random_nets(NodeID n, int nets, bool weighted, int ncon, std::uint64_t seed,
                       int weight_shift = 20) {
  Rng rng(seed);
  std::vector<EdgeID> offsets{0};
  std::vector<NodeID> pins;
  std::vector<Weight> net_weights;
  for (int e = 0; e < nets; ++e) {
    const auto size = static_cast<int>(rng.below(41));
    for (int i = 0; i < size; ++i)
      pins.push_back(static_cast<NodeID>(rng.below(n)));
    offsets.push_back(pins.size());
    if (weighted) // large and negative weights too: zigzag varints
      net_weights.push_back(e % 7 == 0 ? -static_cast<Weight>(rng.below(5))
                                       : static_cast<Weight>(rng.below(1u << 20))
                                             << (e % 3 * weight_shift));
  }
  std::vector<Weight> vertex_weights;
  if (ncon > 1 || weighted)
    for (std::size_t i = 0; i < static_cast<std::size_t>(n) * ncon; ++i)
      vertex_weights.push_back(1 + static_cast<Weight>(rng.below(9)));
  return Hypergraph(n, offsets, pins, net_weights, ncon, vertex_weights);
}

TEST(PackedNets, UnpackGivesTheArraysBack) {
  for (const bool weighted : {false, true})
    for (const int ncon : {1, 3}) {
      SCOPED_TRACE(::testing::Message() << "weighted " << weighted << " ncon " << ncon);
      // 2500 nets: three chunks, the last one partial.
      const Hypergraph hg = random_nets(5000, 2500, weighted, ncon, 11 + ncon);
      ASSERT_GT(hg.num_nets(), 2 * PackedNets::kChunkNets);
      const Hypergraph::Arrays expected = copy_arrays(hg);
      PackedNets packed(hg.num_nodes(), copy_arrays(hg));
      EXPECT_FALSE(packed.empty());
      EXPECT_EQ(packed.num_nets(), hg.num_nets());
      EXPECT_EQ(packed.num_pins(), hg.num_pins());
      EXPECT_EQ(packed.num_chunks(), 3u);
      EXPECT_LT(packed.packed_bytes(), hg.num_pins() * sizeof(NodeID));
      expect_same_arrays(packed.unpack(), expected);
      EXPECT_TRUE(packed.empty());
    }
}

TEST(PackedNets, ExtremeIdsAndEmptyHypergraphs) {
  // Pins 0 and 2^32 - 2 in one net (the largest gap), an empty net, a single-pin net.
  const NodeID n = std::numeric_limits<NodeID>::max();
  Hypergraph::Arrays a{{0, 2, 2, 3}, {0, n - 1, 5}, {3, 1, 2}, 1, {}};
  const Hypergraph::Arrays expected = a;
  PackedNets packed(n, std::move(a));
  expect_same_arrays(packed.unpack(), expected);

  Hypergraph::Arrays none{{0}, {}, {}, 1, {}};
  PackedNets empty(0, std::move(none));
  EXPECT_FALSE(empty.empty()); // packed, with no nets
  EXPECT_EQ(empty.num_chunks(), 0u);
  expect_same_arrays(empty.unpack(), Hypergraph::Arrays{{0}, {}, {}, 1, {}});
}

TEST(PackedNets, ContractionFromPackedNetsIsTheSame) {
  for (const bool weighted : {false, true}) {
    SCOPED_TRACE(weighted);
    const Hypergraph hg = random_nets(3000, 4000, weighted, weighted ? 2 : 1, 5, 14);
    Rng rng(3);
    std::vector<NodeID> cluster(hg.num_nodes());
    for (auto& c : cluster)
      c = static_cast<NodeID>(rng.below(700));
    // Every cluster id in use: the first 700 vertices take one each.
    for (NodeID u = 0; u < 700; ++u)
      cluster[u] = u;
    const Hypergraph plain = contract(hg, cluster, 700);
    const PackedNets packed(hg.num_nodes(), copy_arrays(hg));
    const Hypergraph from_packed = contract(packed, cluster, 700);
    EXPECT_TRUE(std::ranges::equal(plain.net_offsets(), from_packed.net_offsets()));
    EXPECT_TRUE(std::ranges::equal(plain.pin_array(), from_packed.pin_array()));
    EXPECT_TRUE(std::ranges::equal(plain.net_weights(), from_packed.net_weights()));
    EXPECT_TRUE(std::ranges::equal(plain.vertex_weights(), from_packed.vertex_weights()));
    EXPECT_TRUE(std::ranges::equal(plain.incident_net_array(), from_packed.incident_net_array()));
    EXPECT_GT(plain.num_nets(), 100u);
  }
}

void expect_same_levels(HgHierarchy& a, HgHierarchy& b) {
  ASSERT_EQ(a.coarsest(), b.coarsest());
  for (std::size_t i = 1; i <= a.coarsest(); ++i) {
    SCOPED_TRACE(::testing::Message() << "level " << i);
    EXPECT_EQ(a.maps[i - 1], b.maps[i - 1]);
    const Hypergraph& x = a.unpark(i);
    const Hypergraph& y = b.unpark(i);
    EXPECT_TRUE(std::ranges::equal(x.net_offsets(), y.net_offsets()));
    EXPECT_TRUE(std::ranges::equal(x.pin_array(), y.pin_array()));
    EXPECT_TRUE(std::ranges::equal(x.net_weights(), y.net_weights()));
    EXPECT_TRUE(std::ranges::equal(x.vertex_weights(), y.vertex_weights()));
  }
}

TEST(PackedInput, InputPinsPackedWhileCoarseLevelsExist) {
  Hypergraph hg = random_nets(3000, 3000, true, 1, 21, 14);
  const Hypergraph::Arrays original = copy_arrays(hg);
  const PartitionOptions o = testing::options(4);
  HgContext ctx = make_context(o);
  const BlockLimits limits = uniform_limits(hg, 4, o.epsilon);
  HgHierarchy plain = coarsen(hg, ctx, limits, 7, {});
  ctx.parkable_input = &hg;
  {
    HgHierarchy packed = coarsen(hg, ctx, limits, 7, {});
    ASSERT_GE(packed.coarsest(), 2u);
    EXPECT_EQ(hg.num_pins(), 0u) << "the input's pins are packed";
    EXPECT_EQ(hg.num_nets(), original.net_offsets.size() - 1);
    EXPECT_TRUE(hg.net_offsets().empty()) << "and its offsets";
    expect_same_levels(packed, plain);
    EXPECT_EQ(&packed.unpark(0), &hg);
    expect_same_arrays(copy_arrays(hg), original);
  }
  expect_same_arrays(copy_arrays(hg), original); // not taken twice
  {
    HgHierarchy dropped = coarsen(hg, ctx, limits, 7, {});
    EXPECT_EQ(hg.num_pins(), 0u);
    HgHierarchy moved = std::move(dropped); // the pins travel with the hierarchy
    EXPECT_EQ(hg.num_pins(), 0u);
  } // gone without unpark(0) (as when refinement throws): the pins come back
  expect_same_arrays(copy_arrays(hg), original);
  // Another hypergraph than the one named is never packed.
  const Hypergraph other = random_nets(3000, 3000, true, 1, 21, 14);
  HgHierarchy h = coarsen(other, ctx, limits, 7, {});
  EXPECT_EQ(other.num_pins(), hg.num_pins());
}

} // namespace
} // namespace gnnpart::hg
