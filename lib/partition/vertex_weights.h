#pragma once
// Vertex weights for balance, the way GNN trainers need them: one base constraint (unit, degree,
// or values read from a file) plus one 0/1 constraint per vertex set (e.g. the training
// vertices), so that every block gets its share of each set — DistDGL's use of METIS's
// multi-constraint mode.
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "core/graph.h"
#include "core/types.h"

namespace gnnpart {

enum class BaseVertexWeight {
  kUnit,   // 1 per vertex
  kDegree, // deg(u): balances the aggregation work (edges) rather than the vertices; an
           // isolated vertex weighs 0. (evalpart's imbalance_degree_weight uses deg + 1.)
  kValues, // one given integer per vertex (>= 0)
};

// "unit" or "degree" -> that kind; anything else is a file name -> kValues.
BaseVertexWeight parse_base_vertex_weight(std::string_view spec);

struct VertexWeightMatrix {
  int ncon = 1;
  std::vector<Weight> weights; // n * ncon, row-major; empty means unit weights with ncon = 1
};

// Builds the weight matrix for a graph with `offsets.size() - 1` vertices from its CSR offsets.
// `values` is used only with kValues (size n, every value >= 0). Each entry of `balance_sets`
// is a list of vertex ids (< n, duplicates allowed) and becomes one more constraint with weight
// 1 for its members and 0 otherwise. Throws InvalidParameter on a wrong size, a negative value,
// an id >= n, or an empty set. Unit weights without sets give the empty matrix.
VertexWeightMatrix build_vertex_weights(std::span<const EdgeID> offsets, BaseVertexWeight base,
                                        std::span<const std::int64_t> values,
                                        std::span<const std::vector<NodeID>> balance_sets);

// Convenience: builds the matrix and installs it in the graph.
void set_balance_weights(CsrGraph& graph, BaseVertexWeight base,
                         std::span<const std::int64_t> values,
                         std::span<const std::vector<NodeID>> balance_sets);

} // namespace gnnpart
