// Structured meshes: a triangulated 2D grid (each square of a w-wide grid split by its
// down-right diagonal, so interior vertices have 6 neighbours like a finite-element triangle
// mesh) and a 3D grid with the 7-point stencil (6 neighbours). Vertex i sits at column i % w,
// row i / w (2D) or at (i % w, (i / w) % w, i / w^2) (3D), with w = ceil(sqrt(n)) or
// ceil(cbrt(n)); the last row (layer) may be partial, so any n works and the edge count follows
// from n. Deterministic; no randomness at all.
#include <algorithm>
#include <cmath>

#include "core/errors.h"
#include "streaming/generator.h"

namespace gnnpart::streaming {
namespace {

// Smallest w with w^dims >= n.
std::uint64_t side_for(std::uint64_t n, int dims) {
  auto w = static_cast<std::uint64_t>(std::pow(static_cast<double>(n), 1.0 / dims));
  w = std::max<std::uint64_t>(w, 1);
  while (w > 1 && (dims == 2 ? (w - 1) * (w - 1) : (w - 1) * (w - 1) * (w - 1)) >= n)
    --w;
  while ((dims == 2 ? w * w : w * w * w) < n)
    ++w;
  return w;
}

std::uint64_t key(std::uint64_t u, std::uint64_t v) {
  return (u << 32) | v;
}

} // namespace

GeneratedGraph generate_mesh(const GeneratorOptions& options, int dims) {
  if (options.n < 2)
    throw InvalidParameter("generate: need at least 2 vertices");
  const std::uint64_t n = options.n;
  const std::uint64_t w = side_for(n, dims);
  GeneratedGraph graph;
  graph.n = options.n;
  std::vector<std::uint64_t>& edges = graph.edges;
  edges.reserve(static_cast<std::size_t>(3 * n));
  for (std::uint64_t u = 0; u < n; ++u) {
    const std::uint64_t x = u % w;
    // Neighbours with larger ids only, in increasing order, so the list comes out sorted.
    if (x + 1 < w && u + 1 < n)
      edges.push_back(key(u, u + 1));
    if (dims == 2) {
      if (u + w < n)
        edges.push_back(key(u, u + w));
      if (x + 1 < w && u + w + 1 < n)
        edges.push_back(key(u, u + w + 1));
    } else {
      const std::uint64_t y = (u / w) % w;
      if (y + 1 < w && u + w < n)
        edges.push_back(key(u, u + w));
      if (u + w * w < n)
        edges.push_back(key(u, u + w * w));
    }
  }
  return graph;
}

} // namespace gnnpart::streaming
