#include "core/vertex_weights.h"

#include "core/errors.h"

namespace gnnpart {

void check_vertex_weights(int ncon, std::span<const Weight> vertex_weights, NodeID n) {
  if (ncon < 1)
    throw InvalidParameter("ncon must be at least 1");
  if (vertex_weights.empty() && ncon != 1)
    throw InvalidParameter("unit vertex weights need ncon = 1");
  if (!vertex_weights.empty() && vertex_weights.size() != static_cast<std::size_t>(n) * ncon)
    throw InvalidParameter("vertex weight array must have n * ncon entries");
}

Weight sum_vertex_weights(std::span<const Weight> vertex_weights, int ncon, int c, NodeID n) {
  if (vertex_weights.empty())
    return n;
  Weight total = 0;
  for (std::size_t u = 0; u < n; ++u)
    total += vertex_weights[u * ncon + c];
  return total;
}

} // namespace gnnpart
