#include "layout/layout_plan.h"

#include <algorithm>
#include <numeric>
#include <string>
#include <utility>

#include <tbb/parallel_for.h>

#include "core/errors.h"
#include "core/parallel.h"
#include "core/random.h"

namespace gnnpart {
namespace {

// Vertices grouped by block (increasing id inside a block): CSR block -> vertices, and the
// position of every vertex inside its block.
struct BlockBuckets {
  std::vector<NodeID> offsets;
  std::vector<NodeID> members;
  std::vector<NodeID> position;
};

BlockBuckets bucket_by_block(std::span<const BlockID> blocks, BlockID k) {
  BlockBuckets b;
  b.offsets.assign(static_cast<std::size_t>(k) + 1, 0);
  for (BlockID p : blocks)
    ++b.offsets[p + 1];
  std::partial_sum(b.offsets.begin(), b.offsets.end(), b.offsets.begin());
  b.members.resize(blocks.size());
  b.position.resize(blocks.size());
  std::vector<NodeID> next(b.offsets.begin(), b.offsets.end() - 1);
  for (NodeID u = 0; u < blocks.size(); ++u) {
    const BlockID p = blocks[u];
    b.position[u] = next[p] - b.offsets[p];
    b.members[next[p]++] = u;
  }
  return b;
}

LayoutPlan build_plan(const CsrGraph& graph, std::span<const BlockID> blocks, BlockID k,
                      const BlockBuckets& buckets, BlockID p) {
  LayoutPlan plan;
  plan.block = p;
  plan.k = k;
  plan.n = graph.num_nodes();
  plan.m = graph.num_edges();
  plan.owned.assign(buckets.members.begin() + buckets.offsets[p],
                    buckets.members.begin() + buckets.offsets[p + 1]);
  const NodeID num_owned = plan.num_owned();

  // Halo: (owner, global id) pairs, sorted and deduplicated.
  std::vector<std::pair<BlockID, NodeID>> halo;
  for (NodeID u : plan.owned) {
    for (NodeID v : graph.neighbors(u)) {
      if (blocks[v] != p)
        halo.emplace_back(blocks[v], v);
    }
  }
  std::sort(halo.begin(), halo.end());
  halo.erase(std::unique(halo.begin(), halo.end()), halo.end());
  plan.halo.reserve(halo.size());
  plan.halo_owner.reserve(halo.size());
  for (const auto& [owner, v] : halo) {
    plan.halo_owner.push_back(owner);
    plan.halo.push_back(v);
  }
  auto local_id = [&](NodeID v) -> NodeID {
    if (blocks[v] == p)
      return buckets.position[v];
    const auto it = std::lower_bound(halo.begin(), halo.end(), std::make_pair(blocks[v], v));
    return num_owned + static_cast<NodeID>(it - halo.begin());
  };

  // Local CSR, columns increasing (so the owned columns of a row come first).
  plan.row_offsets.assign(static_cast<std::size_t>(num_owned) + 1, 0);
  plan.columns.reserve(std::accumulate(plan.owned.begin(), plan.owned.end(), EdgeID{0},
                                       [&](EdgeID s, NodeID u) { return s + graph.degree(u); }));
  for (NodeID i = 0; i < num_owned; ++i) {
    const auto row_begin = plan.columns.size();
    for (NodeID v : graph.neighbors(plan.owned[i]))
      plan.columns.push_back(local_id(v));
    std::sort(plan.columns.begin() + static_cast<std::ptrdiff_t>(row_begin), plan.columns.end());
    plan.row_offsets[i + 1] = plan.columns.size();
  }
  plan.degree.reserve(plan.num_local());
  for (NodeID u : plan.owned)
    plan.degree.push_back(graph.degree(u));
  for (NodeID v : plan.halo)
    plan.degree.push_back(graph.degree(v));

  // Send lists: owned row u goes to every other block holding a neighbour of u.
  std::vector<std::vector<NodeID>> send(k);
  std::vector<NodeID> stamp(k, kInvalidNodeID);
  for (NodeID i = 0; i < num_owned; ++i) {
    for (NodeID v : graph.neighbors(plan.owned[i])) {
      const BlockID q = blocks[v];
      if (q == p || stamp[q] == i)
        continue;
      stamp[q] = i;
      send[q].push_back(i);
    }
  }
  // Receive ranges: halo slots are grouped by owner.
  std::vector<NodeID> recv_begin(k, 0), recv_end(k, 0);
  for (NodeID s = 0; s < plan.num_halo(); ++s) {
    const BlockID q = plan.halo_owner[s];
    if (recv_end[q] == 0)
      recv_begin[q] = num_owned + s;
    recv_end[q] = num_owned + s + 1;
  }
  plan.send_offsets.push_back(0);
  plan.recv_offsets.push_back(0);
  for (BlockID q = 0; q < k; ++q) {
    if (send[q].empty() && recv_end[q] == 0)
      continue;
    plan.neighbors.push_back(q);
    plan.send_local.insert(plan.send_local.end(), send[q].begin(), send[q].end());
    for (NodeID l = recv_begin[q]; l < recv_end[q]; ++l)
      plan.recv_local.push_back(l);
    plan.send_offsets.push_back(plan.send_local.size());
    plan.recv_offsets.push_back(plan.recv_local.size());
  }
  return plan;
}

std::vector<NodeID> owned_subset(const LayoutPlan& plan, std::span<const NodeID> global_ids) {
  std::vector<NodeID> local;
  for (NodeID v : global_ids) {
    const auto it = std::lower_bound(plan.owned.begin(), plan.owned.end(), v);
    if (it != plan.owned.end() && *it == v) {
      local.push_back(static_cast<NodeID>(it - plan.owned.begin()));
    }
  }
  std::sort(local.begin(), local.end());
  local.erase(std::unique(local.begin(), local.end()), local.end());
  return local;
}

} // namespace

std::vector<LayoutPlan> build_layout_plans(const CsrGraph& graph, const Partition& partition,
                                           int threads) {
  check_partition(partition, graph.num_nodes());
  const BlockID k = partition.k;
  const BlockBuckets buckets = bucket_by_block(partition.blocks, k);
  std::vector<LayoutPlan> plans(k);
  run_with_threads(threads, [&] {
    tbb::parallel_for(BlockID{0}, k, [&](BlockID p) {
      plans[p] = build_plan(graph, partition.blocks, k, buckets, p);
    });
  });
  return plans;
}

void attach_vertex_sets(std::span<LayoutPlan> plans, const VertexSets& sets) {
  for (LayoutPlan& plan : plans) {
    if (!sets.labels.empty() && sets.labels.size() != plan.n) {
      throw InvalidParameter("labels: expected " + std::to_string(plan.n) + " values, got " +
                             std::to_string(sets.labels.size()));
    }
    plan.train_local = owned_subset(plan, sets.train);
    plan.val_local = owned_subset(plan, sets.val);
    plan.test_local = owned_subset(plan, sets.test);
    plan.labels.clear();
    if (!sets.labels.empty()) {
      plan.labels.reserve(plan.num_owned());
      for (NodeID u : plan.owned)
        plan.labels.push_back(sets.labels[u]);
    }
  }
}

std::vector<EdgeLayoutBlock> build_edge_layout(NodeID n, std::span<const NodeID> sources,
                                               std::span<const NodeID> targets,
                                               std::span<const BlockID> edge_blocks, BlockID k,
                                               int threads) {
  const std::size_t m = sources.size();
  if (k == 0)
    throw InvalidParameter("edge layout: k must be at least 1");
  if (targets.size() != m || edge_blocks.size() != m) {
    throw InvalidParameter("edge layout: " + std::to_string(m) + " sources, " +
                           std::to_string(targets.size()) + " targets, " +
                           std::to_string(edge_blocks.size()) + " edge blocks");
  }
  std::vector<NodeID> degree(n, 0);
  for (std::size_t e = 0; e < m; ++e) {
    if (sources[e] >= n || targets[e] >= n) {
      throw InvalidParameter("edge layout: edge " + std::to_string(e) +
                             " has a vertex id >= n = " + std::to_string(n));
    }
    if (edge_blocks[e] >= k) {
      throw InvalidParameter("edge layout: edge " + std::to_string(e) + " has block " +
                             std::to_string(edge_blocks[e]) + " >= k = " + std::to_string(k));
    }
    if (sources[e] != targets[e]) {
      ++degree[sources[e]];
      ++degree[targets[e]];
    }
  }
  // Vertex -> (block, edges of the vertex in that block), counting sort by vertex.
  std::vector<EdgeID> incidence_offsets(static_cast<std::size_t>(n) + 1, 0);
  for (std::size_t e = 0; e < m; ++e) {
    ++incidence_offsets[sources[e] + 1];
    if (targets[e] != sources[e])
      ++incidence_offsets[targets[e] + 1];
  }
  std::partial_sum(incidence_offsets.begin(), incidence_offsets.end(), incidence_offsets.begin());
  std::vector<BlockID> incidence(incidence_offsets.back());
  {
    std::vector<EdgeID> next(incidence_offsets.begin(), incidence_offsets.end() - 1);
    for (std::size_t e = 0; e < m; ++e) {
      incidence[next[sources[e]]++] = edge_blocks[e];
      if (targets[e] != sources[e])
        incidence[next[targets[e]]++] = edge_blocks[e];
    }
  }
  // Per vertex: distinct blocks (increasing) and the master.
  std::vector<EdgeID> copy_offsets(static_cast<std::size_t>(n) + 1, 0);
  std::vector<BlockID> copy_blocks;
  std::vector<BlockID> master(n, kInvalidBlockID);
  for (NodeID v = 0; v < n; ++v) {
    auto begin = incidence.begin() + static_cast<std::ptrdiff_t>(incidence_offsets[v]);
    auto end = incidence.begin() + static_cast<std::ptrdiff_t>(incidence_offsets[v + 1]);
    std::sort(begin, end);
    std::uint64_t best_count = 0, best_hash = 0;
    for (auto it = begin; it != end;) {
      auto run_end = std::upper_bound(it, end, *it);
      const std::uint64_t count = static_cast<std::uint64_t>(run_end - it);
      const std::uint64_t hash = derive_seed(0, v, *it);
      if (count > best_count || (count == best_count && hash < best_hash)) {
        best_count = count;
        best_hash = hash;
        master[v] = *it;
      }
      copy_blocks.push_back(*it);
      it = run_end;
    }
    copy_offsets[v + 1] = copy_blocks.size();
  }
  // Edges by block, in input order.
  std::vector<std::vector<EdgeID>> block_edges(k);
  for (std::size_t e = 0; e < m; ++e)
    block_edges[edge_blocks[e]].push_back(e);

  std::vector<EdgeLayoutBlock> result(k);
  run_with_threads(threads, [&] {
    tbb::parallel_for(BlockID{0}, k, [&](BlockID p) {
      EdgeLayoutBlock& b = result[p];
      b.block = p;
      b.k = k;
      b.n = n;
      b.m = m;
      for (EdgeID e : block_edges[p]) {
        b.vertices.push_back(sources[e]);
        b.vertices.push_back(targets[e]);
      }
      std::sort(b.vertices.begin(), b.vertices.end());
      b.vertices.erase(std::unique(b.vertices.begin(), b.vertices.end()), b.vertices.end());
      auto local = [&](NodeID v) {
        return static_cast<NodeID>(std::lower_bound(b.vertices.begin(), b.vertices.end(), v) -
                                   b.vertices.begin());
      };
      b.edge_ids = block_edges[p];
      for (EdgeID e : block_edges[p]) {
        b.edge_src.push_back(local(sources[e]));
        b.edge_dst.push_back(local(targets[e]));
      }
      std::vector<std::vector<NodeID>> mirrors(k), masters(k);
      for (NodeID i = 0; i < b.vertices.size(); ++i) {
        const NodeID v = b.vertices[i];
        b.master.push_back(master[v]);
        b.degree.push_back(degree[v]);
        if (master[v] != p) {
          mirrors[master[v]].push_back(i);
        } else {
          for (EdgeID c = copy_offsets[v]; c < copy_offsets[v + 1]; ++c) {
            if (copy_blocks[c] != p)
              masters[copy_blocks[c]].push_back(i);
          }
        }
      }
      b.mirror_offsets.push_back(0);
      b.master_offsets.push_back(0);
      for (BlockID q = 0; q < k; ++q) {
        if (mirrors[q].empty() && masters[q].empty())
          continue;
        b.neighbors.push_back(q);
        b.mirror_local.insert(b.mirror_local.end(), mirrors[q].begin(), mirrors[q].end());
        b.master_local.insert(b.master_local.end(), masters[q].begin(), masters[q].end());
        b.mirror_offsets.push_back(b.mirror_local.size());
        b.master_offsets.push_back(b.master_local.size());
      }
    });
  });
  return result;
}

} // namespace gnnpart
