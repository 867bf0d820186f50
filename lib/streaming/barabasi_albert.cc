// Barabasi-Albert preferential attachment. The first d + 1 vertices form a clique; every later
// vertex u attaches d edges to distinct earlier vertices chosen with probability proportional to
// their degree (a uniformly random entry of the endpoint list so far). Inherently sequential;
// the random stream of vertex u comes from derive_seed(seed, u / chunk), so the result depends
// on the seed only.
#include <algorithm>
#include <cmath>

#include "core/errors.h"
#include "core/random.h"
#include "streaming/generator.h"

namespace gnnpart::streaming {
namespace {
constexpr NodeID kChunkVertices = 1 << 16;
}

GeneratedGraph generate_barabasi_albert(const GeneratorOptions& options) {
  if (options.n < 2)
    throw InvalidParameter("generate: need at least 2 vertices");
  if (options.m == 0)
    throw InvalidParameter("generate: need at least 1 edge");
  const NodeID n = options.n;
  const std::uint64_t per_vertex = std::max<std::uint64_t>(
      1, static_cast<std::uint64_t>(std::llround(static_cast<double>(options.m) / n)));
  const NodeID d = static_cast<NodeID>(std::min<std::uint64_t>(per_vertex, n - 1));
  GeneratedGraph graph;
  graph.n = n;
  const std::uint64_t clique = static_cast<std::uint64_t>(d) * (d + 1) / 2;
  const std::uint64_t total = clique + static_cast<std::uint64_t>(n - d - 1) * d;
  // endpoints[2e], endpoints[2e + 1]: the two ends of edge e (the later vertex first).
  std::vector<NodeID> endpoints;
  endpoints.reserve(2 * total);
  for (NodeID u = 1; u <= d; ++u) {
    for (NodeID v = 0; v < u; ++v) {
      endpoints.push_back(u);
      endpoints.push_back(v);
    }
  }
  std::vector<NodeID> chosen;
  Rng rng(0);
  for (NodeID u = d + 1; u < n; ++u) {
    if (u == d + 1 || u % kChunkVertices == 0)
      rng = Rng(derive_seed(options.seed, u / kChunkVertices));
    const std::uint64_t positions = endpoints.size();
    chosen.clear();
    while (chosen.size() < d) {
      const NodeID v = endpoints[rng.below(positions)];
      if (std::find(chosen.begin(), chosen.end(), v) == chosen.end())
        chosen.push_back(v);
    }
    for (const NodeID v : chosen) {
      endpoints.push_back(u);
      endpoints.push_back(v);
    }
  }
  graph.edges.resize(total);
  for (std::uint64_t e = 0; e < total; ++e) {
    const NodeID u = endpoints[2 * e], v = endpoints[2 * e + 1];
    graph.edges[e] = (static_cast<std::uint64_t>(std::min(u, v)) << 32) | std::max(u, v);
  }
  std::vector<NodeID>().swap(endpoints);
  if (sort_unique_keys(graph.edges) != 0)
    throw Error("barabasi-albert: duplicate edge generated");
  if (options.shuffle)
    shuffle_edges(graph, options.seed);
  return graph;
}

} // namespace gnnpart::streaming
