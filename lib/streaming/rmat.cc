// R-MAT with the Graph500 parameters (draws in rmat_draw.h). Duplicates and self loops are
// dropped and replaced by new draws in further rounds until exactly m distinct edges exist:
// round r draws the m - (distinct edges so far) missing ones, then all edges are sorted and
// deduplicated. rmat_stream.cc runs the same rounds with the edges in files.
#include <tbb/parallel_for.h>

#include <algorithm>
#include <bit>

#include "core/errors.h"
#include "core/parallel.h"
#include "streaming/rmat_draw.h"

namespace gnnpart::streaming {
namespace {

std::uint64_t to_fixed(double p) {
  return static_cast<std::uint64_t>(std::clamp(p, 0.0, 1.0) * 4294967296.0);
}

} // namespace

RmatParams make_rmat_params(const GeneratorOptions& options) {
  if (options.n < 2)
    throw InvalidParameter("generate: need at least 2 vertices");
  const double a = options.rmat_a, b = options.rmat_b, c = options.rmat_c;
  const double d = 1.0 - a - b - c;
  if (a < 0 || b < 0 || c < 0 || d < 0)
    throw InvalidParameter("rmat: probabilities must be >= 0");
  RmatParams params;
  params.scale = std::bit_width(static_cast<std::uint64_t>(options.n - 1));
  params.n = options.n;
  params.ab_threshold = to_fixed(a + b);
  params.a_in_ab = to_fixed(a + b > 0 ? a / (a + b) : 0.5);
  params.c_in_cd = to_fixed(c + d > 0 ? c / (c + d) : 0.5);
  params.seed = derive_seed(options.seed, 0x7a11e1);
  const double max_edges = 0.5 * static_cast<double>(options.n) * (options.n - 1.0);
  if (options.m == 0 || static_cast<double>(options.m) > max_edges) {
    throw InvalidParameter("generate: m must be in [1, n(n-1)/2]");
  }
  if (static_cast<double>(options.m) > 0.25 * max_edges) {
    throw InvalidParameter("rmat: m too close to n(n-1)/2 to reach by sampling");
  }
  return params;
}

GeneratedGraph generate_rmat(const GeneratorOptions& options) {
  const RmatParams params = make_rmat_params(options);
  GeneratedGraph graph;
  graph.n = options.n;
  std::vector<std::uint64_t>& edges = graph.edges;
  run_with_threads(options.threads, [&] {
    for (std::uint64_t round = 0; edges.size() < options.m; ++round) {
      if (round == kRmatMaxRounds)
        throw InvalidParameter("rmat: could not reach m distinct edges");
      const std::uint64_t missing = options.m - edges.size();
      const std::uint64_t chunks = (missing + kRmatChunkEdges - 1) / kRmatChunkEdges;
      const std::size_t old_size = edges.size();
      edges.resize(old_size + missing);
      tbb::parallel_for(std::uint64_t{0}, chunks, [&](std::uint64_t chunk) {
        Rng rng(derive_seed(options.seed, round, chunk));
        const std::uint64_t begin = chunk * kRmatChunkEdges;
        const std::uint64_t end = std::min(missing, begin + kRmatChunkEdges);
        for (std::uint64_t i = begin; i < end; ++i)
          edges[old_size + i] = draw_rmat_edge(rng, params);
      });
      sort_unique_keys(edges);
    }
  });
  if (options.shuffle)
    shuffle_edges(graph, options.seed);
  return graph;
}

} // namespace gnnpart::streaming
