#pragma once
// The flow problem of one block pair (b0, b1) of a k-way partition (KaHyPar's flow refinement):
// a region around the cut nets of the pair, grown by BFS into each block as far as the other
// block could absorb its weight, and the rest of b0 / b1 contracted into a source / sink. Nets
// are restricted to their pins in b0 and b1: moving vertices between the two blocks changes
// km1 only through whether a net keeps pins in both, so the min cut of the network is the km1
// of the pair up to a constant (nets also touching other blocks count correctly). A net of
// two network nodes becomes an undirected edge, a larger one Lawler's bridge
// pins -> e_in -> e_out -> pins with the net's weight on e_in -> e_out.
#include <cstdint>
#include <span>
#include <vector>

#include "core/options.h"
#include "hypergraph/flow_network.h"
#include "hypergraph/partitioned_hypergraph.h"

namespace gnnpart::hg {

struct FlowProblem {
  static constexpr FlowNetwork::Node kSourceNode = 0; // the rest of b0
  static constexpr FlowNetwork::Node kSinkNode = 1;   // the rest of b1
  static constexpr FlowNetwork::Node kFirstVertex = 2;

  BlockID b0 = 0, b1 = 0;
  int ncon = 1;
  // Region vertex i is network node kFirstVertex + i; nodes after the vertices stand for nets.
  std::vector<NodeID> region;
  std::vector<std::uint8_t> side;     // per region vertex: 0 in b0, 1 in b1 now
  std::vector<std::int32_t> distance; // per region vertex: BFS layer from the cut (>= 1)
  std::vector<Weight> weights;        // per vertex node (terminals first) x ncon
  std::vector<Weight> total;          // ncon: weight of b0 and b1 together
  Weight initial_cut = 0;             // network cut of the current assignment
  FlowNetwork network;

  FlowNetwork::Node num_vertex_nodes() const {
    return kFirstVertex + static_cast<FlowNetwork::Node>(region.size());
  }
  bool is_vertex(FlowNetwork::Node u) const { return u < num_vertex_nodes(); }
  Weight weight(FlowNetwork::Node u, int c) const {
    return weights[static_cast<std::size_t>(u) * ncon + c];
  }
};

struct RegionOptions {
  NodeID max_bfs_net_size = 1000;      // larger nets are in the network but do not grow the region
  std::int32_t max_distance = 1 << 30; // BFS layers from the cut (seeds are layer 1)
};

// Builds FlowProblems, keeping per-vertex and per-net scratch arrays across pairs.
class FlowProblemBuilder {
public:
  explicit FlowProblemBuilder(const Hypergraph& hg);

  // Region around `cut_nets` (nets with pins in both b0 and b1; others are ignored), b0 side
  // limited to region_max0 (ncon), b1 side to region_max1. False if the network has no net
  // that could change its cut state.
  bool build(const PartitionedHypergraph& phg, Objective objective, BlockID b0, BlockID b1,
             std::span<const NetID> cut_nets, std::span<const Weight> region_max0,
             std::span<const Weight> region_max1, const RegionOptions& options,
             FlowProblem& problem);

private:
  std::uint32_t next_stamp();
  // BFS from the pins in `block` of the cut nets.
  void grow(const PartitionedHypergraph& phg, BlockID block, std::uint8_t side,
            std::span<const NetID> cut_nets, std::span<const Weight> max,
            const RegionOptions& options, FlowProblem& problem);
  // Net e, given its pins in the region; its other pins in b0 / b1 become the terminals.
  void add_net(const PartitionedHypergraph& phg, Objective objective, NetID e,
               std::span<FlowNetwork::Node> region_pins, FlowProblem& problem);

  std::uint32_t stamp_ = 0;
  std::uint32_t region_stamp_ = 0;
  std::vector<std::uint32_t> seen_;      // per vertex: == region_stamp_ once considered
  std::vector<std::uint32_t> seed_mark_; // per vertex: == the BFS's stamp once a seed
  std::vector<Weight> seed_score_;       // per seed: weight of its cut nets
  std::vector<NodeID> seeds_;
  std::vector<std::uint32_t> net_mark_; // per net: stamp of the last BFS / grouping to see it
  std::vector<std::uint32_t> net_slot_; // per net touching the region: its group
  std::vector<NetID> nets_;             // per group: its net
  std::vector<std::uint32_t> slot_offsets_;
  std::vector<FlowNetwork::Node> slot_pins_;
  std::vector<Weight> region_weight_;
};

} // namespace gnnpart::hg
