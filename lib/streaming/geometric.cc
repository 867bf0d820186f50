// 2D random geometric graph: n points uniform in the unit square, an edge between points closer
// than r, with r chosen so that exactly m edges exist (r = distance of the m-th closest pair,
// found with a grid of cells of side >= r, a distance histogram and a final sort of the boundary
// bin). Vertex ids follow the row-major cell order, so ids have spatial locality like a mesh.
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/errors.h"
#include "core/parallel.h"
#include "core/random.h"
#include "streaming/generator.h"

namespace gnnpart::streaming {
namespace {

constexpr NodeID kChunkPoints = 1 << 16;
constexpr int kBins = 1 << 14;

// Expected fraction of point pairs of the unit square closer than r (r <= 1).
double pair_probability(double r) {
  return std::numbers::pi * r * r - 8.0 / 3.0 * r * r * r + 0.5 * r * r * r * r;
}

struct Grid {
  std::uint32_t side = 1;                // cells per row
  std::vector<std::uint64_t> cell_start; // points of cell c: [cell_start[c], cell_start[c + 1])
  std::vector<double> x, y;              // by vertex id (cell order)
};

Grid build_grid(const std::vector<double>& px, const std::vector<double>& py, double radius) {
  Grid grid;
  grid.side = static_cast<std::uint32_t>(std::clamp(std::floor(1.0 / radius), 1.0, 65535.0));
  const std::uint64_t cells = static_cast<std::uint64_t>(grid.side) * grid.side;
  const std::size_t n = px.size();
  auto cell_of = [&](std::size_t i) {
    const auto cx =
        std::min<std::uint32_t>(grid.side - 1, static_cast<std::uint32_t>(px[i] * grid.side));
    const auto cy =
        std::min<std::uint32_t>(grid.side - 1, static_cast<std::uint32_t>(py[i] * grid.side));
    return static_cast<std::uint64_t>(cy) * grid.side + cx;
  };
  grid.cell_start.assign(cells + 1, 0);
  for (std::size_t i = 0; i < n; ++i)
    ++grid.cell_start[cell_of(i) + 1];
  for (std::uint64_t c = 0; c < cells; ++c)
    grid.cell_start[c + 1] += grid.cell_start[c];
  std::vector<std::uint64_t> fill(grid.cell_start.begin(), grid.cell_start.end() - 1);
  grid.x.resize(n);
  grid.y.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t slot = fill[cell_of(i)]++;
    grid.x[slot] = px[i];
    grid.y[slot] = py[i];
  }
  return grid;
}

// Calls visit(u, v, squared distance) for every pair u < v closer than radius whose first
// point lies in a cell of rows [row_begin, row_end).
template <typename Visit>
void for_close_pairs(const Grid& grid, double radius, std::uint32_t row_begin,
                     std::uint32_t row_end, Visit&& visit) {
  const double r2 = radius * radius;
  const std::uint32_t side = grid.side;
  for (std::uint32_t cy = row_begin; cy < row_end; ++cy) {
    for (std::uint32_t cx = 0; cx < side; ++cx) {
      const std::uint64_t c = static_cast<std::uint64_t>(cy) * side + cx;
      for (std::uint64_t i = grid.cell_start[c]; i < grid.cell_start[c + 1]; ++i) {
        // Same cell (j > i), then the forward neighbours: right, and the three below.
        auto scan = [&](std::uint64_t cell, std::uint64_t from) {
          for (std::uint64_t j = std::max(from, grid.cell_start[cell]);
               j < grid.cell_start[cell + 1]; ++j) {
            const double dx = grid.x[i] - grid.x[j], dy = grid.y[i] - grid.y[j];
            const double d2 = dx * dx + dy * dy;
            if (d2 < r2)
              visit(static_cast<NodeID>(i), static_cast<NodeID>(j), d2);
          }
        };
        scan(c, i + 1);
        if (cx + 1 < side)
          scan(c + 1, 0);
        if (cy + 1 < side) {
          const std::uint64_t below = c + side;
          if (cx > 0)
            scan(below - 1, 0);
          scan(below, 0);
          if (cx + 1 < side)
            scan(below + 1, 0);
        }
      }
    }
  }
}

} // namespace

GeneratedGraph generate_geometric(const GeneratorOptions& options) {
  const NodeID n = options.n;
  if (n < 2)
    throw InvalidParameter("generate: need at least 2 vertices");
  const double pairs = 0.5 * static_cast<double>(n) * (n - 1.0);
  if (options.m == 0 || static_cast<double>(options.m) > 0.5 * pairs) {
    throw InvalidParameter("rgg: m must be in [1, n(n-1)/4]");
  }
  std::vector<double> px(n), py(n);
  GeneratedGraph graph;
  graph.n = n;
  run_with_threads(options.threads, [&] {
    const NodeID chunks = (n + kChunkPoints - 1) / kChunkPoints;
    tbb::parallel_for(NodeID{0}, chunks, [&](NodeID chunk) {
      Rng rng(derive_seed(options.seed, chunk));
      const NodeID end = std::min<NodeID>(n, (chunk + 1) * kChunkPoints);
      for (NodeID i = chunk * kChunkPoints; i < end; ++i) {
        px[i] = rng.uniform();
        py[i] = rng.uniform();
      }
    });
    // Radius with m expected pairs, solved by bisection, then a little slack.
    const double target = static_cast<double>(options.m) / pairs;
    double lo = 0, hi = 1;
    for (int it = 0; it < 100; ++it) {
      const double mid = 0.5 * (lo + hi);
      (pair_probability(mid) < target ? lo : hi) = mid;
    }
    double radius = std::min(1.0, hi * 1.02 + 1e-12);
    for (;;) {
      Grid grid = build_grid(px, py, radius);
      const double r2 = radius * radius;
      // Histogram of squared distances over rows, combined in row order.
      const std::uint32_t side = grid.side;
      std::vector<std::vector<std::uint64_t>> row_hist(side);
      tbb::parallel_for(std::uint32_t{0}, side, [&](std::uint32_t row) {
        auto& hist = row_hist[row];
        hist.assign(kBins, 0);
        for_close_pairs(grid, radius, row, row + 1, [&](NodeID, NodeID, double d2) {
          ++hist[std::min<int>(kBins - 1, static_cast<int>(d2 / r2 * kBins))];
        });
      });
      std::vector<std::uint64_t> hist(kBins, 0);
      for (const auto& h : row_hist) {
        for (int b = 0; b < kBins; ++b)
          hist[b] += h[b];
      }
      std::vector<std::vector<std::uint64_t>>().swap(row_hist);
      std::uint64_t below = 0;
      int boundary = 0;
      while (boundary < kBins && below + hist[boundary] < options.m)
        below += hist[boundary++];
      if (boundary == kBins) {
        if (radius >= 1.0)
          throw InvalidParameter("rgg: could not reach m edges");
        radius = std::min(1.0, radius * 1.1);
        continue;
      }
      // Collect every pair in bins below the boundary, sort the boundary bin by distance.
      std::vector<std::vector<std::uint64_t>> row_edges(side);
      std::vector<std::vector<std::pair<double, std::uint64_t>>> row_boundary(side);
      tbb::parallel_for(std::uint32_t{0}, side, [&](std::uint32_t row) {
        for_close_pairs(grid, radius, row, row + 1, [&](NodeID u, NodeID v, double d2) {
          const int bin = std::min<int>(kBins - 1, static_cast<int>(d2 / r2 * kBins));
          const std::uint64_t key = (static_cast<std::uint64_t>(u) << 32) | v;
          if (bin < boundary) {
            row_edges[row].push_back(key);
          } else if (bin == boundary) {
            row_boundary[row].push_back({d2, key});
          }
        });
      });
      graph.edges.reserve(options.m);
      std::vector<std::pair<double, std::uint64_t>> edge_bin;
      for (std::uint32_t row = 0; row < side; ++row) {
        graph.edges.insert(graph.edges.end(), row_edges[row].begin(), row_edges[row].end());
        std::vector<std::uint64_t>().swap(row_edges[row]);
        edge_bin.insert(edge_bin.end(), row_boundary[row].begin(), row_boundary[row].end());
      }
      std::sort(edge_bin.begin(), edge_bin.end());
      const std::uint64_t take = options.m - below;
      for (std::uint64_t i = 0; i < take; ++i)
        graph.edges.push_back(edge_bin[i].second);
      graph.radius = std::sqrt(edge_bin[take - 1].first);
      break;
    }
  });
  sort_unique_keys(graph.edges);
  if (options.shuffle)
    shuffle_edges(graph, options.seed);
  return graph;
}

} // namespace gnnpart::streaming
