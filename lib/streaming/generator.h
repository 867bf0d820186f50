#pragma once
// Synthetic graphs bigger than the shared datasets: R-MAT (Graph500 parameters a=.57, b=.19,
// c=.19, d=.05 by default, vertex labels scrambled), Barabasi-Albert preferential attachment, 2D
// random geometric graphs (radius chosen so that exactly m edges are within it), structured
// meshes (triangulated 2D grid, 3D 7-point grid; mesh.cc) and web-like graphs (copying model
// inside hosts; web_copying.cc). All simple: u < v, no self loops, no duplicates, sorted by
// (u, v) unless shuffled. Deterministic for a seed whatever the thread count: randomness comes
// from per-chunk streams derive_seed(seed, ...).
// Barabasi-Albert gets d = round(m / n) edges per vertex (the first d + 1 vertices form a
// clique), so its edge count is d(d+1)/2 + (n-d-1)d rather than m exactly; the web model at most
// round(m / n) n; the meshes' edge count follows from n alone (m is not used).
// Options for any family, applied in this order: hub_degree (vertex 0 joins random vertices
// until it has that many neighbours: a mesh with one hub), relabel (a seeded random permutation
// of the ids, so that no locality of the generator's id order is left), shuffle.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/types.h"
#include "gnnpart/gnnpart_defaults.h"

namespace gnnpart::streaming {

enum class GeneratorKind { kRmat, kBarabasiAlbert, kGeometric, kMesh, kGrid3d, kWeb };
enum class GeneratedFormat { kEdgeList, kBinary, kAdjacency };

struct GeneratorOptions {
  GeneratorKind kind = GeneratorKind::kRmat;
  NodeID n = 0;
  EdgeID m = 0;
  std::uint64_t seed = 0;
  int threads = GNNPART_DEFAULT_THREADS;              // <= 0: all hardware threads
  double rmat_a = 0.57, rmat_b = 0.19, rmat_c = 0.19; // d = 1 - a - b - c
  bool shuffle = false;  // write the edges in a random (seeded) order instead of sorted
  bool relabel = false;  // renumber the vertices by a random (seeded) permutation
  NodeID hub_degree = 0; // > 0: vertex 0 gets at least this many neighbours
};

struct GeneratedGraph {
  NodeID n = 0;
  std::vector<std::uint64_t> edges; // (u << 32) | v with u < v
  double radius = 0;                // random geometric graphs: the radius used
  NodeID u(std::size_t i) const { return static_cast<NodeID>(edges[i] >> 32); }
  NodeID v(std::size_t i) const { return static_cast<NodeID>(edges[i] & 0xffffffffULL); }
};

// Throws InvalidParameter for n < 2, m > n(n-1)/2, or ids beyond 32 bits.
GeneratedGraph generate_graph(const GeneratorOptions& options);
GeneratedGraph generate_rmat(const GeneratorOptions& options);
GeneratedGraph generate_barabasi_albert(const GeneratorOptions& options);
GeneratedGraph generate_geometric(const GeneratorOptions& options);
GeneratedGraph generate_mesh(const GeneratorOptions& options, int dims); // dims 2 or 3
GeneratedGraph generate_web(const GeneratorOptions& options);

// "rmat", "ba", "rgg", "mesh", "grid3d", "web"
GeneratorKind parse_generator_kind(std::string_view name);
std::string_view to_string(GeneratorKind kind);
GeneratedFormat parse_generated_format(std::string_view name); // "edgelist", "binary", "adjacency"

// Writes atomically (temp + rename). Edge lists: "# vertices: N" and "# edges: M" headers then
// "u v" lines (gzip when path ends in .gz); binary: the edge stream; adjacency: the binary
// adjacency stream (symmetrized with an external sort under memory_bytes).
void write_generated(const GeneratedGraph& graph, const std::string& path, GeneratedFormat format,
                     const std::vector<std::string>& comments = {},
                     std::size_t memory_bytes = std::size_t{512} << 20,
                     const std::string& temp_dir = {});

// Helpers shared by the generators (exposed for tests).
// Sorts and deduplicates keys in place; returns the number of duplicates removed.
std::size_t sort_unique_keys(std::vector<std::uint64_t>& keys);
// Random (seeded) order of the edges, applied when options.shuffle is set.
void shuffle_edges(GeneratedGraph& graph, std::uint64_t seed);
// A uniformly random permutation of [0, n) for the seed (Fisher-Yates).
std::vector<NodeID> random_permutation(NodeID n, std::uint64_t seed);
// Renumbers vertex v as permutation[v] (random_permutation(n, seed)) and sorts the edges again.
void relabel_vertices(GeneratedGraph& graph, std::uint64_t seed);
// Vertex 0 joins random other vertices until it has `degree` neighbours (no change if it has
// that many already). Needs sorted edges and keeps them sorted. Throws InvalidParameter for degree
// >= n.
void add_hub(GeneratedGraph& graph, NodeID degree, std::uint64_t seed);
// A bijection of [0, 2^bits) keyed by seed (for R-MAT label scrambling).
std::uint64_t scramble_bits(std::uint64_t x, int bits, std::uint64_t seed);

} // namespace gnnpart::streaming
