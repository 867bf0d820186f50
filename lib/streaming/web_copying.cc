// Web-like graphs: the copying model (Kumar et al., FOCS 2000) inside hosts. Pages are numbered
// host by host (as a crawl sorted by URL numbers them); host sizes follow a Pareto tail
// (P(size > s) ~ (s / 8)^-1.2, capped at n / 16), so a few hosts hold many pages. Page u of a
// host that began at page s gets d = round(m / n) out-links to earlier pages: with probability
// 1/2 it copies the j-th link of a random earlier page of its host (the prototype, drawn once per
// page), else it links to a random earlier page, of its own host with probability 0.9 (the rest:
// anywhere). Copying gives the heavy-tailed in-degrees (pages many prototypes point to), the
// host-local links give the dense, nearly separable clusters of web crawls. Links that repeat
// or loop are dropped, so the graph has at most d n edges (0.86 d n at n = 30000, d = 8).
// Sequential; the random stream of page u comes from derive_seed(seed, u / chunk), so the
// result depends on the seed only.
#include <algorithm>
#include <cmath>

#include "core/errors.h"
#include "core/random.h"
#include "streaming/generator.h"

namespace gnnpart::streaming {
namespace {
constexpr NodeID kChunkPages = 1 << 16;
constexpr double kCopyProbability = 0.5;
constexpr double kLocalProbability = 0.9;
constexpr double kHostScale = 8;  // smallest typical host
constexpr double kHostTail = 1.2; // Pareto exponent of host sizes
} // namespace

GeneratedGraph generate_web(const GeneratorOptions& options) {
  if (options.n < 2)
    throw InvalidParameter("generate: need at least 2 vertices");
  if (options.m == 0)
    throw InvalidParameter("generate: need at least 1 edge");
  const NodeID n = options.n;
  const NodeID d = static_cast<NodeID>(std::clamp<std::uint64_t>(
      static_cast<std::uint64_t>(std::llround(static_cast<double>(options.m) / n)), 1, n - 1));
  const double max_host = std::max(kHostScale, static_cast<double>(n) / 16);
  std::vector<NodeID> links(static_cast<std::size_t>(n) * d, kInvalidNodeID);
  GeneratedGraph graph;
  graph.n = n;
  Rng rng(0);
  NodeID host_begin = 0, host_end = 0;
  for (NodeID u = 0; u < n; ++u) {
    if (u == 0 || u % kChunkPages == 0)
      rng = Rng(derive_seed(options.seed, 0x3eb, u / kChunkPages));
    if (u == host_end) {
      const double size =
          std::min(max_host, kHostScale * std::pow(1.0 - rng.uniform(), -1.0 / kHostTail));
      host_begin = u;
      host_end = static_cast<NodeID>(
          std::min<std::uint64_t>(n, u + static_cast<std::uint64_t>(std::ceil(size))));
    }
    if (u == 0)
      continue;
    const NodeID local = u - host_begin; // earlier pages of this host
    const NodeID prototype =
        local > 0 ? host_begin + static_cast<NodeID>(rng.below(local)) : kInvalidNodeID;
    NodeID* out = &links[static_cast<std::size_t>(u) * d];
    for (NodeID j = 0; j < d; ++j) {
      NodeID target = kInvalidNodeID;
      if (prototype != kInvalidNodeID && rng.uniform() < kCopyProbability)
        target = links[static_cast<std::size_t>(prototype) * d + j];
      if (target == kInvalidNodeID) {
        target = local > 0 && rng.uniform() < kLocalProbability
                     ? host_begin + static_cast<NodeID>(rng.below(local))
                     : static_cast<NodeID>(rng.below(u));
      }
      out[j] = target;
    }
  }
  graph.edges.reserve(links.size());
  for (NodeID u = 1; u < n; ++u)
    for (NodeID j = 0; j < d; ++j) {
      const NodeID v = links[static_cast<std::size_t>(u) * d + j];
      if (v != kInvalidNodeID && v != u)
        graph.edges.push_back((static_cast<std::uint64_t>(std::min(u, v)) << 32) | std::max(u, v));
    }
  std::vector<NodeID>().swap(links);
  sort_unique_keys(graph.edges);
  return graph;
}

} // namespace gnnpart::streaming
