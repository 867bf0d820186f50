#pragma once
// Builds a CSR graph from edge arrays in plain parallel phases: count degrees, prefix sum,
// scatter, sort and dedupe each list, drop self loops. Directed input is symmetrized.
#include <vector>

#include "core/graph.h"
#include "core/types.h"

namespace gnnpart {

struct EdgeList {
  NodeID n = 0;  // vertices; every id must be < n
  std::vector<NodeID> sources;
  std::vector<NodeID> targets;
  std::vector<Weight> weights;  // empty: unit weights
};

struct BuildOptions {
  bool symmetrize = true;       // add v -> u for every u -> v
  bool drop_self_loops = true;
  bool dedupe = true;           // parallel edges merged; the largest weight is kept
};

struct BuildStats {
  EdgeID self_loops_dropped = 0;
  EdgeID duplicates_dropped = 0;  // directed entries merged away
};

// Throws InvalidParameter when arrays differ in length or an id is >= n.
CsrGraph build_csr(const EdgeList& edges, const BuildOptions& options = {},
                   BuildStats* stats = nullptr);

}  // namespace gnnpart
