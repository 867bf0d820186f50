// Embeds gnnpart: partitions a generated grid graph through the C++ API and the C API, then
// checks the partition independently (every vertex assigned, balance, the cut recomputed).
// Usage: embed [K]   Prints "PASS" or "FAIL: reason".
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <gnnpart/gnnpart.h>
#include <gnnpart/gnnpart.hpp>

namespace {

struct Csr {
  std::vector<std::int64_t> xadj{0};
  std::vector<std::int64_t> adjncy;
};

// side x side grid, 4-neighbourhood, both directions stored.
Csr grid(std::int64_t side) {
  Csr g;
  for (std::int64_t r = 0; r < side; ++r) {
    for (std::int64_t c = 0; c < side; ++c) {
      if (r > 0)
        g.adjncy.push_back((r - 1) * side + c);
      if (c > 0)
        g.adjncy.push_back(r * side + c - 1);
      if (c + 1 < side)
        g.adjncy.push_back(r * side + c + 1);
      if (r + 1 < side)
        g.adjncy.push_back((r + 1) * side + c);
      g.xadj.push_back(static_cast<std::int64_t>(g.adjncy.size()));
    }
  }
  return g;
}

int fail(const char* reason) {
  std::printf("FAIL: %s\n", reason);
  return 1;
}

} // namespace

int main(int argc, char** argv) {
  const std::uint32_t k = argc > 1 ? static_cast<std::uint32_t>(std::atoi(argv[1])) : 4;
  const Csr g = grid(40);
  const std::int64_t n = static_cast<std::int64_t>(g.xadj.size()) - 1;

  // C++ API: the hypergraph model (communication volume), two threads of our own arena.
  gnnpart::api::Options options = gnnpart::api::Options::preset_default();
  options.model = gnnpart::api::Model::kHypergraph;
  options.threads = 2;
  options.seed = 1;
  options.vertex_weights = gnnpart::api::VertexWeights::kUnit; // balance vertex counts
  gnnpart::api::Result result;
  try {
    result = gnnpart::api::partition(gnnpart::api::CsrView{g.xadj, g.adjncy}, k, options);
  } catch (const gnnpart::api::Error& e) {
    std::printf("FAIL: %s\n", e.what());
    return 1;
  }
  if (static_cast<std::int64_t>(result.blocks.size()) != n)
    return fail("wrong number of blocks");
  std::vector<std::int64_t> sizes(k, 0);
  for (std::uint32_t b : result.blocks) {
    if (b >= k)
      return fail("block id out of range");
    ++sizes[b];
  }
  std::int64_t volume = 0; // sum over u of (distinct blocks among u and its neighbours) - 1
  for (std::int64_t u = 0; u < n; ++u) {
    std::vector<bool> seen(k, false);
    seen[result.blocks[u]] = true;
    for (std::int64_t e = g.xadj[u]; e < g.xadj[u + 1]; ++e) {
      const std::uint32_t b = result.blocks[g.adjncy[e]];
      if (!seen[b]) {
        seen[b] = true;
        ++volume;
      }
    }
  }
  if (volume != result.metrics.comm_volume)
    return fail("volume disagrees with the library");

  // C API: the graph model, default options.
  std::vector<std::int32_t> part(n);
  std::int64_t cut = 0;
  if (gnnpart_part_graph_kway(n, 1, g.xadj.data(), g.adjncy.data(), nullptr, nullptr,
                              static_cast<std::int32_t>(k), nullptr, nullptr, &cut,
                              part.data()) != GNNPART_OK) {
    std::printf("FAIL: %s\n", gnnpart_last_error());
    return 1;
  }
  std::int64_t recount = 0;
  for (std::int64_t u = 0; u < n; ++u)
    for (std::int64_t e = g.xadj[u]; e < g.xadj[u + 1]; ++e)
      recount += part[u] != part[g.adjncy[e]];
  if (recount / 2 != cut)
    return fail("edge cut disagrees with the library");

  const std::int64_t limit = static_cast<std::int64_t>(1.03 * ((n + k - 1) / k));
  for (std::int64_t s : sizes)
    if (s > limit)
      return fail("block over the balance bound");
  std::printf("gnnpart %s: n = %lld, k = %u, volume = %lld, edge cut = %lld\nPASS\n",
              gnnpart_version(), static_cast<long long>(n), k, static_cast<long long>(volume),
              static_cast<long long>(cut));
  return 0;
}
