#pragma once
// Contraction of a clustering: coarse vertex = cluster (weights summed per constraint), coarse
// net = mapped pins without repeats; single-pin nets dropped, identical nets merged with summed
// weights (fingerprint hashing). Parallel and deterministic.
#include <span>

#include "core/hypergraph.h"

namespace gnnpart::hg {

Hypergraph contract(const Hypergraph& hg, std::span<const NodeID> cluster, NodeID num_clusters);

} // namespace gnnpart::hg
