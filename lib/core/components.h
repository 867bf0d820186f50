#pragma once
// Connected components of a CSR graph with a concurrent union-find: roots are always linked
// under the smaller id (compare-and-swap), finds halve paths, so every component ends up
// labelled by its smallest vertex id whatever the thread interleaving. A sequential twin gives
// the same labels, for tests.
#include <vector>

#include "core/graph.h"
#include "core/types.h"

namespace gnnpart {

// labels[u] = smallest vertex id of u's component. Runs inside the caller's task_arena.
std::vector<NodeID> connected_component_labels(const CsrGraph& graph);
std::vector<NodeID> connected_component_labels_sequential(const CsrGraph& graph);

struct ComponentStats {
  NodeID components = 0;        // isolated vertices count as components of their own
  NodeID largest_component = 0; // vertices in the largest one
  NodeID isolated_vertices = 0; // degree 0
};

// From labels as returned above.
ComponentStats component_stats(const CsrGraph& graph, const std::vector<NodeID>& labels);

} // namespace gnnpart
