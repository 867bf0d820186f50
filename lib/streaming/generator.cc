#include "streaming/generator.h"

#include <algorithm>
#include <utility>

#include "core/errors.h"
#include "core/random.h"
#include "streaming/external_sort.h"
#include "streaming/generated_writer.h"

namespace gnnpart::streaming {
std::size_t sort_unique_keys(std::vector<std::uint64_t>& keys) {
  std::vector<std::uint64_t> scratch;
  radix_sort(keys, scratch);
  const auto last = std::unique(keys.begin(), keys.end());
  const std::size_t removed = static_cast<std::size_t>(keys.end() - last);
  keys.erase(last, keys.end());
  return removed;
}

void shuffle_edges(GeneratedGraph& graph, std::uint64_t seed) {
  Rng rng(derive_seed(seed, 0x5407f1e));
  std::shuffle(graph.edges.begin(), graph.edges.end(), rng);
}

std::uint64_t scramble_bits(std::uint64_t x, int bits, std::uint64_t seed) {
  if (bits == 0)
    return 0;
  const std::uint64_t mask = bits >= 64 ? ~0ULL : (std::uint64_t{1} << bits) - 1;
  for (int round = 0; round < 3; ++round) {
    const std::uint64_t key = derive_seed(seed, 0x5eed, round);
    x = (x * (key | 1)) & mask;   // odd multiplier: invertible mod 2^bits
    x = (x + (key >> 17)) & mask; // translation
    x ^= x >> ((bits + 1) / 2);   // xorshift: invertible
  }
  return x & mask;
}

std::vector<NodeID> random_permutation(NodeID n, std::uint64_t seed) {
  std::vector<NodeID> permutation(n);
  for (NodeID v = 0; v < n; ++v)
    permutation[v] = v;
  Rng rng(derive_seed(seed, 0x7e1abe1));
  for (NodeID i = n; i > 1; --i)
    std::swap(permutation[i - 1], permutation[rng.below(i)]);
  return permutation;
}

void relabel_vertices(GeneratedGraph& graph, std::uint64_t seed) {
  const std::vector<NodeID> permutation = random_permutation(graph.n, seed);
  for (std::uint64_t& e : graph.edges) {
    const NodeID u = permutation[e >> 32], v = permutation[e & 0xffffffffULL];
    e = (static_cast<std::uint64_t>(std::min(u, v)) << 32) | std::max(u, v);
  }
  sort_unique_keys(graph.edges);
}

void add_hub(GeneratedGraph& graph, NodeID degree, std::uint64_t seed) {
  if (degree >= graph.n)
    throw InvalidParameter("generate: hub degree must be below the vertex count");
  std::vector<char> neighbour(graph.n, 0);
  neighbour[0] = 1;
  NodeID have = 0;
  for (std::size_t i = 0; i < graph.edges.size() && graph.u(i) == 0; ++i, ++have)
    neighbour[graph.v(i)] = 1;
  Rng rng(derive_seed(seed, 0x4b));
  for (; have < degree; ++have) {
    NodeID v = 0;
    while (neighbour[v])
      v = static_cast<NodeID>(rng.below(graph.n));
    neighbour[v] = 1;
    graph.edges.push_back(static_cast<std::uint64_t>(v)); // (0 << 32) | v
  }
  sort_unique_keys(graph.edges);
}

GeneratedGraph generate_graph(const GeneratorOptions& options) {
  GeneratorOptions family = options;
  family.shuffle = false;
  GeneratedGraph graph;
  switch (options.kind) {
  case GeneratorKind::kRmat:
    graph = generate_rmat(family);
    break;
  case GeneratorKind::kBarabasiAlbert:
    graph = generate_barabasi_albert(family);
    break;
  case GeneratorKind::kGeometric:
    graph = generate_geometric(family);
    break;
  case GeneratorKind::kMesh:
    graph = generate_mesh(family, 2);
    break;
  case GeneratorKind::kGrid3d:
    graph = generate_mesh(family, 3);
    break;
  case GeneratorKind::kWeb:
    graph = generate_web(family);
    break;
  }
  if (options.hub_degree > 0)
    add_hub(graph, options.hub_degree, options.seed);
  if (options.relabel)
    relabel_vertices(graph, options.seed);
  if (options.shuffle)
    shuffle_edges(graph, options.seed);
  return graph;
}

namespace {
constexpr std::pair<GeneratorKind, std::string_view> kKindNames[] = {
    {GeneratorKind::kRmat, "rmat"},     {GeneratorKind::kBarabasiAlbert, "ba"},
    {GeneratorKind::kGeometric, "rgg"}, {GeneratorKind::kMesh, "mesh"},
    {GeneratorKind::kGrid3d, "grid3d"}, {GeneratorKind::kWeb, "web"}};
} // namespace

GeneratorKind parse_generator_kind(std::string_view name) {
  for (const auto& [kind, kind_name] : kKindNames)
    if (name == kind_name)
      return kind;
  throw InvalidParameter("unknown generator '" + std::string(name) +
                         "' (rmat, ba, rgg, mesh, grid3d, web)");
}

std::string_view to_string(GeneratorKind kind) {
  for (const auto& [k, kind_name] : kKindNames)
    if (k == kind)
      return kind_name;
  return "?";
}

GeneratedFormat parse_generated_format(std::string_view name) {
  if (name == "edgelist")
    return GeneratedFormat::kEdgeList;
  if (name == "binary")
    return GeneratedFormat::kBinary;
  if (name == "adjacency")
    return GeneratedFormat::kAdjacency;
  throw InvalidParameter("unknown output format '" + std::string(name) +
                         "' (edgelist, binary, adjacency)");
}

void write_generated(const GeneratedGraph& graph, const std::string& path, GeneratedFormat format,
                     const std::vector<std::string>& comments, std::size_t memory_bytes,
                     const std::string& temp_dir) {
  GeneratedWriter writer(path, format, graph.n, graph.edges.size(), comments, memory_bytes,
                         temp_dir);
  writer.add(graph.edges);
  writer.finish();
}

} // namespace gnnpart::streaming
