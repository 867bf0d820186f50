#include "core/components.h"

#include <algorithm>
#include <atomic>
#include <memory>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

namespace gnnpart {

namespace {

class ConcurrentUnionFind {
public:
  explicit ConcurrentUnionFind(NodeID n) : parent_(std::make_unique<std::atomic<NodeID>[]>(n)) {
    tbb::parallel_for(tbb::blocked_range<NodeID>(0, n), [&](const tbb::blocked_range<NodeID>& r) {
      for (NodeID u = r.begin(); u != r.end(); ++u)
        parent_[u].store(u, std::memory_order_relaxed);
    });
  }

  NodeID find(NodeID u) {
    for (;;) {
      NodeID p = parent_[u].load(std::memory_order_relaxed);
      const NodeID gp = parent_[p].load(std::memory_order_relaxed);
      if (p == gp)
        return p;
      // Path halving; losing the race is harmless since parents only ever decrease.
      parent_[u].compare_exchange_weak(p, gp, std::memory_order_relaxed);
      u = gp;
    }
  }

  void unite(NodeID u, NodeID v) {
    for (;;) {
      u = find(u);
      v = find(v);
      if (u == v)
        return;
      if (u < v)
        std::swap(u, v); // link the larger root under the smaller one
      NodeID expected = u;
      if (parent_[u].compare_exchange_strong(expected, v, std::memory_order_acq_rel))
        return;
    }
  }

private:
  std::unique_ptr<std::atomic<NodeID>[]> parent_;
};

} // namespace

std::vector<NodeID> connected_component_labels(const CsrGraph& graph) {
  const NodeID n = graph.num_nodes();
  ConcurrentUnionFind uf(n);
  tbb::parallel_for(tbb::blocked_range<NodeID>(0, n), [&](const tbb::blocked_range<NodeID>& r) {
    for (NodeID u = r.begin(); u != r.end(); ++u) {
      for (const NodeID v : graph.neighbors(u))
        if (v < u)
          uf.unite(u, v);
    }
  });
  std::vector<NodeID> labels(n);
  tbb::parallel_for(tbb::blocked_range<NodeID>(0, n), [&](const tbb::blocked_range<NodeID>& r) {
    for (NodeID u = r.begin(); u != r.end(); ++u)
      labels[u] = uf.find(u);
  });
  return labels;
}

std::vector<NodeID> connected_component_labels_sequential(const CsrGraph& graph) {
  const NodeID n = graph.num_nodes();
  std::vector<NodeID> parent(n);
  for (NodeID u = 0; u < n; ++u)
    parent[u] = u;
  auto find = [&](NodeID u) {
    while (parent[u] != u) {
      parent[u] = parent[parent[u]];
      u = parent[u];
    }
    return u;
  };
  for (NodeID u = 0; u < n; ++u) {
    for (const NodeID v : graph.neighbors(u)) {
      NodeID a = find(u);
      NodeID b = find(v);
      if (a == b)
        continue;
      if (a < b)
        std::swap(a, b);
      parent[a] = b;
    }
  }
  for (NodeID u = 0; u < n; ++u)
    parent[u] = find(u);
  return parent;
}

ComponentStats component_stats(const CsrGraph& graph, const std::vector<NodeID>& labels) {
  ComponentStats stats;
  std::vector<NodeID> size(labels.size(), 0);
  for (const NodeID label : labels)
    ++size[label];
  for (NodeID u = 0; u < labels.size(); ++u) {
    if (labels[u] == u)
      ++stats.components;
    stats.largest_component = std::max(stats.largest_component, size[u]);
    if (graph.degree(u) == 0)
      ++stats.isolated_vertices;
  }
  return stats;
}

} // namespace gnnpart
