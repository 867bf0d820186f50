#pragma once
// Contraction of a clustering: coarse vertex = cluster (weights summed per constraint), coarse
// net = mapped pins without repeats; single-pin nets dropped, identical nets merged with summed
// weights (fingerprint hashing). Parallel and deterministic.
#include <span>

#include "core/hypergraph.h"
#include "hypergraph/packed_nets.h"

namespace gnnpart::hg {

// What contraction reads of the finer level: its net -> pins side. Empty weight spans mean unit
// weights.
struct NetSide {
  NodeID num_nodes = 0;
  std::span<const EdgeID> offsets;
  std::span<const NodeID> pins;
  std::span<const Weight> net_weights;
  int ncon = 1;
  std::span<const Weight> vertex_weights;
};
NetSide net_side(const Hypergraph& hg);

// Coarse pins are written once, at their final place: no copy of the finer pin array is made.
Hypergraph contract(const NetSide& fine, std::span<const NodeID> cluster, NodeID num_clusters);
// From a parked level (packed, coarsening.h): the same result as from its arrays.
Hypergraph contract(const PackedNets& fine, std::span<const NodeID> cluster, NodeID num_clusters);
Hypergraph contract(const Hypergraph& hg, std::span<const NodeID> cluster, NodeID num_clusters);

} // namespace gnnpart::hg
