// R-MAT (Chakrabarti, Zhan, Faloutsos 2004) with the Graph500 parameters: each edge descends
// `scale` levels of the adjacency matrix, choosing a quadrant with probabilities a, b, c, d.
// Vertex labels are scrambled by a seeded bijection of [0, 2^scale) (cycle-walking down to
// [0, n)), so ids carry no locality. Duplicates and self loops are dropped and replaced by new
// draws in further rounds until exactly m distinct edges exist.
#include <tbb/parallel_for.h>

#include <algorithm>
#include <bit>

#include "core/errors.h"
#include "core/parallel.h"
#include "core/random.h"
#include "streaming/generator.h"

namespace gnnpart::streaming {
namespace {

constexpr std::uint64_t kChunkEdges = 1 << 18;

struct RmatParams {
  int scale;
  std::uint64_t n;
  std::uint64_t ab_threshold; // P(a) + P(b) in 2^32 units
  std::uint64_t a_in_ab;      // a / (a + b)
  std::uint64_t c_in_cd;      // c / (c + d)
  std::uint64_t seed;
};

std::uint64_t to_fixed(double p) {
  return static_cast<std::uint64_t>(std::clamp(p, 0.0, 1.0) * 4294967296.0);
}

NodeID map_label(std::uint64_t x, const RmatParams& params) {
  do {
    x = scramble_bits(x, params.scale, params.seed);
  } while (x >= params.n);
  return static_cast<NodeID>(x);
}

std::uint64_t draw_edge(Rng& rng, const RmatParams& params) {
  for (;;) {
    std::uint64_t row = 0, col = 0;
    for (int level = 0; level < params.scale; ++level) {
      const std::uint64_t x = rng();
      const std::uint64_t r = x & 0xffffffffULL;
      const std::uint64_t r2 = x >> 32;
      // Quadrant: a (0,0), b (0,1), c (1,0), d (1,1), decided as row half then column half.
      const bool bottom = r >= params.ab_threshold;
      const bool right = bottom ? r2 >= params.c_in_cd : r2 >= params.a_in_ab;
      row = (row << 1) | (bottom ? 1 : 0);
      col = (col << 1) | (right ? 1 : 0);
    }
    const NodeID u = map_label(row, params);
    const NodeID v = map_label(col, params);
    if (u == v)
      continue;
    const NodeID lo = std::min(u, v), hi = std::max(u, v);
    return (static_cast<std::uint64_t>(lo) << 32) | hi;
  }
}

} // namespace

GeneratedGraph generate_rmat(const GeneratorOptions& options) {
  if (options.n < 2)
    throw InvalidParameter("generate: need at least 2 vertices");
  GeneratedGraph graph;
  graph.n = options.n;
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
  std::vector<std::uint64_t>& edges = graph.edges;
  run_with_threads(options.threads, [&] {
    for (std::uint64_t round = 0; edges.size() < options.m; ++round) {
      if (round == 64)
        throw InvalidParameter("rmat: could not reach m distinct edges");
      const std::uint64_t missing = options.m - edges.size();
      const std::uint64_t chunks = (missing + kChunkEdges - 1) / kChunkEdges;
      const std::size_t old_size = edges.size();
      edges.resize(old_size + missing);
      tbb::parallel_for(std::uint64_t{0}, chunks, [&](std::uint64_t chunk) {
        Rng rng(derive_seed(options.seed, round, chunk));
        const std::uint64_t begin = chunk * kChunkEdges;
        const std::uint64_t end = std::min(missing, begin + kChunkEdges);
        for (std::uint64_t i = begin; i < end; ++i)
          edges[old_size + i] = draw_edge(rng, params);
      });
      sort_unique_keys(edges);
    }
  });
  if (options.shuffle)
    shuffle_edges(graph, options.seed);
  return graph;
}

} // namespace gnnpart::streaming
