#include "hypergraph/flow_problem.h"

#include <algorithm>

namespace gnnpart::hg {

namespace {

// What a net of weight w costs while its pins are on both sides of the pair; `inside`: it has
// no pins in other blocks. km1 pays w for the second block; cut pays w unless another block
// keeps the net cut anyway; soed = km1 + cut.
Weight pair_capacity(Objective objective, Weight w, bool inside) {
  switch (objective) {
  case Objective::kCut:
    return inside ? w : 0;
  case Objective::kSoed:
    return inside ? 2 * w : w;
  default:
    return w;
  }
}

} // namespace

FlowProblemBuilder::FlowProblemBuilder(const Hypergraph& hg)
    : seen_(hg.num_nodes(), 0), seed_mark_(hg.num_nodes(), 0), seed_score_(hg.num_nodes(), 0),
      net_mark_(hg.num_nets(), 0), net_slot_(hg.num_nets(), 0) {}

std::uint32_t FlowProblemBuilder::next_stamp() {
  if (++stamp_ == 0) { // wrapped around: old marks could collide
    std::fill(seen_.begin(), seen_.end(), 0);
    std::fill(seed_mark_.begin(), seed_mark_.end(), 0);
    std::fill(net_mark_.begin(), net_mark_.end(), 0);
    stamp_ = 1;
  }
  return stamp_;
}

bool FlowProblemBuilder::build(const PartitionedHypergraph& phg, Objective objective, BlockID b0,
                               BlockID b1, std::span<const NetID> cut_nets,
                               std::span<const Weight> region_max0,
                               std::span<const Weight> region_max1, const RegionOptions& options,
                               FlowProblem& problem) {
  const Hypergraph& hg = phg.hypergraph();
  const int ncon = phg.ncon();
  problem.b0 = b0;
  problem.b1 = b1;
  problem.ncon = ncon;
  problem.region.clear();
  problem.side.clear();
  problem.distance.clear();
  region_stamp_ = next_stamp();
  grow(phg, b0, 0, cut_nets, region_max0, options, problem);
  grow(phg, b1, 1, cut_nets, region_max1, options, problem);
  if (problem.region.empty())
    return false;

  // Vertex weights: the terminals carry what their block keeps outside the region.
  const FlowNetwork::Node vertices = problem.num_vertex_nodes();
  problem.weights.assign(static_cast<std::size_t>(vertices) * ncon, 0);
  problem.total.assign(ncon, 0);
  for (int c = 0; c < ncon; ++c) {
    problem.weights[FlowProblem::kSourceNode * ncon + c] = phg.block_weight(b0, c);
    problem.weights[FlowProblem::kSinkNode * ncon + c] = phg.block_weight(b1, c);
    problem.total[c] = phg.block_weight(b0, c) + phg.block_weight(b1, c);
  }
  for (std::size_t i = 0; i < problem.region.size(); ++i) {
    const FlowNetwork::Node terminal =
        problem.side[i] == 0 ? FlowProblem::kSourceNode : FlowProblem::kSinkNode;
    for (int c = 0; c < ncon; ++c) {
      const Weight w = hg.vertex_weight(problem.region[i], c);
      problem.weights[(FlowProblem::kFirstVertex + i) * ncon + c] = w;
      problem.weights[static_cast<std::size_t>(terminal) * ncon + c] -= w;
    }
  }

  // The region's pins of every net it touches, grouped by net in order of first appearance
  // (counting sort). Pins outside the region follow from the pin counts, so a large net costs
  // its region pins, not its size.
  const std::uint32_t stamp = next_stamp();
  nets_.clear();
  slot_offsets_.assign(1, 0);
  for (NodeID u : problem.region)
    for (NetID e : hg.incident_nets(u)) {
      if (net_mark_[e] != stamp) {
        net_mark_[e] = stamp;
        net_slot_[e] = static_cast<std::uint32_t>(nets_.size());
        nets_.push_back(e);
        slot_offsets_.push_back(0);
      }
      ++slot_offsets_[net_slot_[e] + 1];
    }
  for (std::size_t s = 1; s < slot_offsets_.size(); ++s)
    slot_offsets_[s] += slot_offsets_[s - 1];
  slot_pins_.resize(slot_offsets_.back());
  for (std::size_t i = 0; i < problem.region.size(); ++i)
    for (NetID e : hg.incident_nets(problem.region[i]))
      slot_pins_[slot_offsets_[net_slot_[e]]++] =
          FlowProblem::kFirstVertex + static_cast<FlowNetwork::Node>(i);
  // The fill advanced every offset to the next slot's start; shift them back.
  for (std::size_t s = slot_offsets_.size() - 1; s > 0; --s)
    slot_offsets_[s] = slot_offsets_[s - 1];
  slot_offsets_[0] = 0;

  problem.initial_cut = 0;
  problem.network.reset(vertices);
  for (std::size_t s = 0; s < nets_.size(); ++s)
    add_net(phg, objective, nets_[s],
            std::span<FlowNetwork::Node>(slot_pins_.data() + slot_offsets_[s],
                                         slot_offsets_[s + 1] - slot_offsets_[s]),
            problem);
  problem.network.finalize();
  return problem.initial_cut > 0;
}

void FlowProblemBuilder::grow(const PartitionedHypergraph& phg, BlockID block, std::uint8_t side,
                              std::span<const NetID> cut_nets, std::span<const Weight> max,
                              const RegionOptions& options, FlowProblem& problem) {
  const Hypergraph& hg = phg.hypergraph();
  const int ncon = phg.ncon();
  const std::uint32_t expanded = next_stamp(); // nets whose pins this BFS has looked at
  region_weight_.assign(ncon, 0);
  // A vertex is considered once: if it does not fit now, it never will (the region only grows).
  auto visit = [&](NodeID v, std::int32_t distance) {
    if (seen_[v] == region_stamp_ || phg.block(v) != block)
      return;
    seen_[v] = region_stamp_;
    for (int c = 0; c < ncon; ++c)
      if (region_weight_[c] + hg.vertex_weight(v, c) > max[c])
        return;
    for (int c = 0; c < ncon; ++c)
      region_weight_[c] += hg.vertex_weight(v, c);
    problem.region.push_back(v);
    problem.side.push_back(side);
    problem.distance.push_back(distance);
  };
  // Full once a constraint has no room left (vertices of weight 0 aside, nothing fits then).
  auto full = [&] {
    for (int c = 0; c < ncon; ++c)
      if (region_weight_[c] >= max[c])
        return true;
    return false;
  };
  // Seeds: the block's pins of the cut nets, those with more cut-net weight first (they are
  // the most likely to move, and their neighbourhoods are grown first when the limit is near).
  // Nets too large to grow the region do not seed it either.
  seeds_.clear();
  for (NetID e : cut_nets) {
    if (hg.net_size(e) > options.max_bfs_net_size)
      continue;
    net_mark_[e] = expanded;
    for (NodeID v : hg.pins(e)) {
      if (phg.block(v) != block)
        continue;
      if (seed_mark_[v] != expanded) {
        seed_mark_[v] = expanded;
        seed_score_[v] = 0;
        seeds_.push_back(v);
      }
      seed_score_[v] += hg.net_weight(e);
    }
  }
  std::stable_sort(seeds_.begin(), seeds_.end(),
                   [&](NodeID a, NodeID b) { return seed_score_[a] > seed_score_[b]; });
  const std::size_t first = problem.region.size();
  for (NodeID v : seeds_)
    visit(v, 1);
  // BFS over nets: each net's pins are looked at once, from its pin nearest to the cut.
  for (std::size_t i = first; i < problem.region.size() && !full(); ++i) {
    const std::int32_t next = problem.distance[i] + 1;
    if (next > options.max_distance)
      break;
    for (NetID e : hg.incident_nets(problem.region[i])) {
      if (net_mark_[e] == expanded || hg.net_size(e) > options.max_bfs_net_size)
        continue;
      net_mark_[e] = expanded;
      for (NodeID v : hg.pins(e))
        visit(v, next);
    }
  }
}

void FlowProblemBuilder::add_net(const PartitionedHypergraph& phg, Objective objective, NetID e,
                                 std::span<FlowNetwork::Node> region_pins, FlowProblem& problem) {
  const Hypergraph& hg = phg.hypergraph();
  const std::uint32_t in0 = phg.pin_count(e, problem.b0), in1 = phg.pin_count(e, problem.b1);
  const Weight capacity = pair_capacity(objective, hg.net_weight(e), in0 + in1 == hg.net_size(e));
  if (capacity <= 0)
    return;
  std::uint32_t region0 = 0;
  for (FlowNetwork::Node x : region_pins)
    region0 += problem.side[x - FlowProblem::kFirstVertex] == 0;
  const std::uint32_t region1 = static_cast<std::uint32_t>(region_pins.size()) - region0;
  const bool source = in0 > region0; // pins of b0 outside the region
  const bool sink = in1 > region1;
  if (source && sink) // cut whatever the region does
    return;
  // The network's pins: the region's, then the source and the sink where they stand in.
  const std::size_t size = region_pins.size() + source + sink;
  if (size < 2)
    return;
  if (in0 > 0 && in1 > 0)
    problem.initial_cut += capacity;
  FlowNetwork& net = problem.network;
  const auto pin = [&](std::size_t i) {
    return i < region_pins.size()              ? region_pins[i]
           : source && i == region_pins.size() ? FlowProblem::kSourceNode
                                               : FlowProblem::kSinkNode;
  };
  if (size == 2) {
    net.add_arc(pin(0), pin(1), capacity, capacity);
    return;
  }
  const FlowNetwork::Node in = net.add_node();
  const FlowNetwork::Node out = net.add_node();
  net.add_arc(in, out, capacity);
  // Region pins are never terminals; the source only sends, the sink only receives.
  for (FlowNetwork::Node x : region_pins) {
    net.add_arc(x, in, FlowNetwork::kInfinite);
    net.add_arc(out, x, FlowNetwork::kInfinite);
  }
  if (source)
    net.add_arc(FlowProblem::kSourceNode, in, FlowNetwork::kInfinite);
  if (sink)
    net.add_arc(out, FlowProblem::kSinkNode, FlowNetwork::kInfinite);
}

} // namespace gnnpart::hg
