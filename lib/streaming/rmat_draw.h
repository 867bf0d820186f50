#pragma once
// One R-MAT draw (Chakrabarti, Zhan, Faloutsos 2004): an edge descends `scale` levels of the
// adjacency matrix, choosing a quadrant with probabilities a, b, c, d; its endpoints are
// scrambled by a seeded bijection of [0, 2^scale) (cycle-walking down to [0, n)). Shared by the
// in-memory generator (rmat.cc) and the one that streams to a file (rmat_stream.cc), so both
// draw the same edges: round r draws edge i of chunk c (kRmatChunkEdges edges each) from
// Rng(derive_seed(seed, r, c)).
#include <algorithm>
#include <cstdint>

#include "core/random.h"
#include "core/types.h"
#include "streaming/generator.h"

namespace gnnpart::streaming {

inline constexpr std::uint64_t kRmatChunkEdges = 1 << 18;
inline constexpr std::uint64_t kRmatMaxRounds = 64;

struct RmatParams {
  int scale = 0;
  std::uint64_t n = 0;
  std::uint64_t ab_threshold = 0; // P(a) + P(b) in 2^32 units
  std::uint64_t a_in_ab = 0;      // a / (a + b)
  std::uint64_t c_in_cd = 0;      // c / (c + d)
  std::uint64_t seed = 0;
};

// Validates n, m and the probabilities (InvalidParameter) and derives the draw parameters.
RmatParams make_rmat_params(const GeneratorOptions& options);

// kInvalidNodeID when the walk comes back to a start x >= n: its cycle under the scramble holds
// no id below n (a fixed point above n, say), so the walk would never end; the edge is then
// drawn again. Draws that reach an id are unchanged by this check.
inline NodeID rmat_label(std::uint64_t x, const RmatParams& params) {
  const std::uint64_t start = x;
  do {
    x = scramble_bits(x, params.scale, params.seed);
    if (x == start && x >= params.n)
      return kInvalidNodeID;
  } while (x >= params.n);
  return static_cast<NodeID>(x);
}

// (lo << 32) | hi of one edge, lo < hi (self loops are drawn again).
inline std::uint64_t draw_rmat_edge(Rng& rng, const RmatParams& params) {
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
    const NodeID u = rmat_label(row, params);
    const NodeID v = rmat_label(col, params);
    if (u == v || u == kInvalidNodeID || v == kInvalidNodeID)
      continue;
    const NodeID lo = std::min(u, v), hi = std::max(u, v);
    return (static_cast<std::uint64_t>(lo) << 32) | hi;
  }
}

} // namespace gnnpart::streaming
