#include "hypergraph/column_net_in_place.h"

#include <algorithm>
#include <cstdint>

#include <sys/mman.h>
#include <unistd.h>

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

namespace gnnpart {

namespace {

// Net u = N(u) with u in its sorted place, at offsets[u] + u, in a new array written front to
// back while the whole pages of the old one behind the read position go back to the kernel
// (MADV_DONTNEED; the old array is freed when this returns). The new array's pages become
// resident as they are written, so the graph's 2m entries and the model's 2m + n are never
// resident together in full, as they were when the old array was reallocated (the peak of
// cnr-2000 k = 2, 54.7 MB, and of uk-2007-05-100k at k = 2, 8, 32).
std::vector<NodeID> insert_diagonal(std::vector<EdgeID>& offsets, std::vector<NodeID> adjacency) {
  const auto n = static_cast<NodeID>(offsets.size() - 1);
  std::vector<NodeID> pins;
  pins.reserve(adjacency.size() + n);
  const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  constexpr std::uintptr_t kStep = std::uintptr_t{1} << 20; // give pages back a MiB at a time
  const auto address = [](const NodeID* p) { return reinterpret_cast<std::uintptr_t>(p); };
  std::uintptr_t kept = (address(adjacency.data()) + page - 1) / page * page; // first kept page
  for (NodeID u = 0; u < n; ++u) {
    const NodeID* first = adjacency.data() + offsets[u];
    const NodeID* last = adjacency.data() + offsets[u + 1];
    const NodeID* split = std::lower_bound(first, last, u);
    pins.insert(pins.end(), first, split);
    pins.push_back(u);
    pins.insert(pins.end(), split, last);
    // Advice only: a failure leaves the pages resident, as a reallocation would.
    if (const std::uintptr_t read = address(last) / page * page; read >= kept + kStep) {
      ::madvise(reinterpret_cast<void*>(kept), read - kept, MADV_DONTNEED);
      kept = read;
    }
  }
  for (NodeID u = 0; u <= n; ++u)
    offsets[u] += u;
  return pins;
}

// The inverse: drops u from net u, from the first vertex on (every list moves left).
void remove_diagonal(std::vector<EdgeID>& offsets, std::vector<NodeID>& pins) {
  const auto n = static_cast<NodeID>(offsets.size() - 1);
  EdgeID dest = 0;
  for (NodeID u = 0; u < n; ++u) {
    const EdgeID first = offsets[u];
    const EdgeID last = offsets[u + 1];
    for (EdgeID i = first; i < last; ++i)
      if (pins[i] != u)
        pins[dest++] = pins[i];
    offsets[u] = first - u;
  }
  offsets[n] -= n;
  pins.resize(offsets[n]);
}

// Empties `graph`: its structure is returned, its weights go to `kept`.
CsrGraph::Arrays take_graph(CsrGraph& graph, LentGraphWeights& kept) {
  CsrGraph::Arrays arrays = graph.release();
  kept = {std::move(arrays.edge_weights), arrays.ncon, std::move(arrays.vertex_weights)};
  return arrays;
}

// Makes `graph` the given structure with the kept weights again.
void give_graph_back(CsrGraph& graph, std::vector<EdgeID> offsets, std::vector<NodeID> adjacency,
                     LentGraphWeights& kept) {
  graph = CsrGraph(std::move(offsets), std::move(adjacency), std::move(kept.edge_weights),
                   kept.ncon, std::move(kept.vertex_weights));
}

} // namespace

bool column_net_in_place_ok(const CsrGraph& graph) {
  const NodeID n = graph.num_nodes();
  return tbb::parallel_reduce(
      tbb::blocked_range<NodeID>(0, n, 1024), true,
      [&](const tbb::blocked_range<NodeID>& r, bool ok) {
        for (NodeID u = r.begin(); ok && u != r.end(); ++u) {
          const auto neighbors = graph.neighbors(u);
          for (std::size_t i = 0; ok && i < neighbors.size(); ++i)
            ok = neighbors[i] != u && neighbors[i] < n &&
                 (i == 0 || neighbors[i - 1] < neighbors[i]);
        }
        return ok;
      },
      [](bool a, bool b) { return a && b; });
}

ColumnNetInPlace::ColumnNetInPlace(CsrGraph& graph, ColumnNetWeights weights) : graph_(graph) {
  int ncon = 1;
  std::vector<Weight> model_weights = column_net_vertex_weights(graph, weights, &ncon);
  CsrGraph::Arrays arrays = take_graph(graph, kept_);
  arrays.adjacency = insert_diagonal(arrays.offsets, std::move(arrays.adjacency));
  const auto n = static_cast<NodeID>(arrays.offsets.size() - 1);
  try {
    model_ = Hypergraph(n, std::move(arrays.offsets), std::move(arrays.adjacency), {}, ncon,
                        std::move(model_weights));
  } catch (...) {
    // The arrays are model_'s only if its constructor returned; a failed one (out of memory)
    // leaves them moved into its parameters and lost, so the graph is left empty.
    graph_ = CsrGraph();
    throw;
  }
}

ColumnNetInPlace::~ColumnNetInPlace() {
  Hypergraph::Arrays arrays = model_.release();
  remove_diagonal(arrays.net_offsets, arrays.pins);
  give_graph_back(graph_, std::move(arrays.net_offsets), std::move(arrays.pins), kept_);
}

ModelWeightedGraph::ModelWeightedGraph(CsrGraph& graph, ColumnNetWeights weights) : graph_(graph) {
  int ncon = 1;
  std::vector<Weight> model_weights = column_net_vertex_weights(graph, weights, &ncon);
  CsrGraph::Arrays arrays = take_graph(graph, kept_);
  graph_ = CsrGraph(std::move(arrays.offsets), std::move(arrays.adjacency), {}, ncon,
                    std::move(model_weights));
}

ModelWeightedGraph::~ModelWeightedGraph() {
  CsrGraph::Arrays arrays = graph_.release();
  give_graph_back(graph_, std::move(arrays.offsets), std::move(arrays.adjacency), kept_);
}

} // namespace gnnpart
