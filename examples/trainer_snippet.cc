// Trainer-side use of gnnpart: a rank-0 process holding the training graph as CSR (e.g. from
// its data loader) partitions it for the communication volume of full-batch GCN training,
// keeps the cores it gives gnnpart under control, writes the layout the workers load, and
// streams a second graph edge batch by edge batch. Prints "PASS" when all checks hold.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <vector>

#include <gnnpart/gnnpart.hpp>

namespace api = gnnpart::api;

int main() {
  // A ring of 64 vertices with chords u - (u + 8): the trainer's CSR arrays (int64, as torch).
  const std::int64_t n = 64;
  std::vector<std::int64_t> indptr{0}, indices;
  for (std::int64_t u = 0; u < n; ++u) {
    for (std::int64_t d : {-8, -1, 1, 8})
      indices.push_back((u + d + n) % n);
    indptr.push_back(static_cast<std::int64_t>(indices.size()));
  }
  const api::CsrView graph{indptr, indices}; // borrowed, nothing copied here

  api::Options options = api::Options::preset_fast();
  options.model = api::Model::kHypergraph; // minimise feature rows sent per layer
  options.threads = 2;                     // gnnpart's arena; the trainer keeps the rest
  options.seed = 42;
  try {
    const api::Result result = api::partition(graph, 4, options);
    std::printf("comm volume %lld rows/layer, edge cut %llu, imbalance %.3f\n",
                static_cast<long long>(result.metrics.comm_volume),
                static_cast<unsigned long long>(result.metrics.edge_cut),
                result.metrics.imbalance.front());

    const auto dir = std::filesystem::temp_directory_path() / "gnnpart_trainer_snippet";
    const api::LayoutInfo info =
        api::build_layout(graph, std::span<const std::uint32_t>(result.blocks), 4, dir.string(),
                          {.graph_name = "ring", .model = "hypergraph", .objective = "km1"});
    std::filesystem::remove_all(dir);
    if (static_cast<std::int64_t>(info.rows_per_layer) != result.metrics.comm_volume) {
      std::printf("FAIL: layout traffic differs from the partition's volume\n");
      return 1;
    }

    // Streaming: edges arrive in batches (u < v once each); finish() assigns every vertex.
    api::StreamingPartitioner stream(n, 4);
    std::vector<std::uint32_t> src, dst;
    for (std::uint32_t u = 0; u < n; ++u) {
      src.push_back(u);
      dst.push_back((u + 1) % n);
      if (src.size() == 16) {
        stream.add_edges(std::span<const std::uint32_t>(src), std::span<const std::uint32_t>(dst));
        src.clear();
        dst.clear();
      }
    }
    const api::Result streamed = stream.finish();
    std::printf("streamed: edge cut %llu\n",
                static_cast<unsigned long long>(streamed.metrics.edge_cut));
  } catch (const api::Error& e) {
    std::printf("FAIL: %s\n", e.what());
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
