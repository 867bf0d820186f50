#include "partition/vertex_weights.h"

#include <fmt/format.h>

#include "core/errors.h"

namespace gnnpart {

BaseVertexWeight parse_base_vertex_weight(std::string_view spec) {
  if (spec == "unit")
    return BaseVertexWeight::kUnit;
  if (spec == "degree")
    return BaseVertexWeight::kDegree;
  return BaseVertexWeight::kValues;
}

VertexWeightMatrix build_vertex_weights(std::span<const EdgeID> offsets, BaseVertexWeight base,
                                        std::span<const std::int64_t> values,
                                        std::span<const std::vector<NodeID>> balance_sets) {
  if (offsets.empty())
    throw InvalidParameter("vertex weights: CSR offsets must not be empty");
  const std::size_t n = offsets.size() - 1;
  if (base == BaseVertexWeight::kValues) {
    if (values.size() != n)
      throw InvalidParameter(
          fmt::format("vertex weights: {} values given for {} vertices", values.size(), n));
    for (std::size_t u = 0; u < n; ++u) {
      if (values[u] < 0)
        throw InvalidParameter(
            fmt::format("vertex weights: vertex {} has negative weight {}", u, values[u]));
    }
  }
  if (base == BaseVertexWeight::kUnit && balance_sets.empty())
    return {};

  const int ncon = 1 + static_cast<int>(balance_sets.size());
  VertexWeightMatrix matrix;
  matrix.ncon = ncon;
  matrix.weights.assign(n * static_cast<std::size_t>(ncon), 0);
  for (std::size_t u = 0; u < n; ++u) {
    Weight w = 1;
    if (base == BaseVertexWeight::kDegree)
      w = static_cast<Weight>(offsets[u + 1] - offsets[u]);
    if (base == BaseVertexWeight::kValues)
      w = values[u];
    matrix.weights[u * ncon] = w;
  }
  for (std::size_t s = 0; s < balance_sets.size(); ++s) {
    const auto& set = balance_sets[s];
    if (set.empty())
      throw InvalidParameter(fmt::format("balance set {} is empty", s + 1));
    for (const NodeID u : set) {
      if (static_cast<std::size_t>(u) >= n)
        throw InvalidParameter(
            fmt::format("balance set {}: vertex {} out of range (n = {})", s + 1, u, n));
      matrix.weights[static_cast<std::size_t>(u) * ncon + 1 + s] = 1;
    }
  }
  return matrix;
}

void set_balance_weights(CsrGraph& graph, BaseVertexWeight base,
                         std::span<const std::int64_t> values,
                         std::span<const std::vector<NodeID>> balance_sets) {
  VertexWeightMatrix matrix = build_vertex_weights(graph.offsets(), base, values, balance_sets);
  graph.set_vertex_weights(matrix.ncon, std::move(matrix.weights));
}

} // namespace gnnpart
