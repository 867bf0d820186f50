#include "partition/multilevel/coarsening/contraction.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include "core/prefix_sum.h"
#include "core/released_copy.h"

namespace gnnpart::ml {

namespace {

// The members of each coarse vertex, in fine-id order: c's are members[offsets[c], offsets[c + 1]).
struct ClusterMembers {
  std::vector<NodeID> offsets;
  std::vector<NodeID> members;
};

// Any clustering: labels compacted in label order, members counted and placed in parallel, then
// each coarse vertex's members sorted (the placement order depends on the schedule).
ClusterMembers compact_clusters(std::span<const NodeID> clusters, std::vector<NodeID>& mapping) {
  const auto n = static_cast<NodeID>(clusters.size());
  // Compact labels: coarse id of a label = number of used labels before it.
  std::vector<std::uint8_t> used(n, 0);
  tbb::parallel_for(tbb::blocked_range<NodeID>(0, n, 4096), [&](const auto& r) {
    std::uint8_t* const mark = used.data(); // not reloaded after each byte store (may alias)
    for (NodeID u = r.begin(); u != r.end(); ++u)
      std::atomic_ref<std::uint8_t>(mark[clusters[u]]).store(1, std::memory_order_relaxed);
  });
  std::vector<NodeID> label_id(static_cast<std::size_t>(n) + 1);
  const NodeID nc = exclusive_prefix_sum(
      n, [&](std::size_t l) { return used[l]; }, std::span<NodeID>(label_id));
  std::vector<std::uint8_t>().swap(used);
  mapping.resize(n);
  tbb::parallel_for(tbb::blocked_range<NodeID>(0, n, 4096), [&](const auto& r) {
    for (NodeID u = r.begin(); u != r.end(); ++u)
      mapping[u] = label_id[clusters[u]];
  });
  std::vector<NodeID>().swap(label_id);

  ClusterMembers result;
  result.offsets.resize(static_cast<std::size_t>(nc) + 1);
  {
    std::vector<NodeID> count(nc, 0);
    tbb::parallel_for(tbb::blocked_range<NodeID>(0, n, 4096), [&](const auto& r) {
      for (NodeID u = r.begin(); u != r.end(); ++u)
        std::atomic_ref<NodeID>(count[mapping[u]]).fetch_add(1, std::memory_order_relaxed);
    });
    exclusive_prefix_sum(
        nc, [&](std::size_t c) { return count[c]; }, std::span<NodeID>(result.offsets));
  }
  std::vector<NodeID>& members = result.members;
  const std::vector<NodeID>& member_offsets = result.offsets;
  members.resize(n);
  {
    std::vector<NodeID> pos(member_offsets.begin(), member_offsets.end() - 1);
    tbb::parallel_for(tbb::blocked_range<NodeID>(0, n, 4096), [&](const auto& r) {
      for (NodeID u = r.begin(); u != r.end(); ++u)
        members[std::atomic_ref<NodeID>(pos[mapping[u]]).fetch_add(1, std::memory_order_relaxed)] =
            u;
    });
  }
  tbb::parallel_for(tbb::blocked_range<NodeID>(0, nc, 1024), [&](const auto& r) {
    for (NodeID c = r.begin(); c != r.end(); ++c) {
      const NodeID first = member_offsets[c];
      const NodeID size = member_offsets[c + 1] - first;
      if (size == 2) {
        if (members[first] > members[first + 1])
          std::swap(members[first], members[first + 1]);
      } else if (size > 2) {
        std::sort(members.begin() + first, members.begin() + first + size);
      }
    }
  });
  return result;
}

// A matching's labels (contract_pairs): the same compaction and members without marks, counts,
// atomics or sorting. A label is used exactly where clusters[l] == l, and the pair's other
// member is the one vertex u > l labelled l.
ClusterMembers compact_pairs(std::span<const NodeID> clusters, std::vector<NodeID>& mapping) {
  const auto n = static_cast<NodeID>(clusters.size());
  std::vector<NodeID> leader_id(static_cast<std::size_t>(n) + 1);
  const NodeID nc = exclusive_prefix_sum(
      n, [&](std::size_t u) { return clusters[u] == u ? NodeID{1} : NodeID{0}; },
      std::span<NodeID>(leader_id));
  mapping.resize(n);
  // Second member of each coarse vertex (kInvalidNodeID: a singleton), then the offsets.
  std::vector<NodeID> second(nc, kInvalidNodeID);
  tbb::parallel_for(tbb::blocked_range<NodeID>(0, n, 4096), [&](const auto& r) {
    for (NodeID u = r.begin(); u != r.end(); ++u) {
      const NodeID c = leader_id[clusters[u]];
      mapping[u] = c;
      if (clusters[u] != u)
        second[c] = u;
    }
  });
  ClusterMembers result;
  result.offsets.resize(static_cast<std::size_t>(nc) + 1);
  exclusive_prefix_sum(
      nc, [&](std::size_t c) { return second[c] == kInvalidNodeID ? NodeID{1} : NodeID{2}; },
      std::span<NodeID>(result.offsets));
  result.members.resize(n);
  tbb::parallel_for(tbb::blocked_range<NodeID>(0, n, 4096), [&](const auto& r) {
    for (NodeID u = r.begin(); u != r.end(); ++u) {
      if (clusters[u] != u)
        continue;
      const NodeID c = leader_id[u];
      const NodeID first = result.offsets[c];
      result.members[first] = u;
      if (second[c] != kInvalidNodeID)
        result.members[first + 1] = second[c];
    }
  });
  return result;
}

Contraction contract(const CsrGraph& graph, std::span<const NodeID> clusters, bool pairs) {
  const int ncon = graph.ncon();
  Contraction result;
  const ClusterMembers cm =
      pairs ? compact_pairs(clusters, result.mapping) : compact_clusters(clusters, result.mapping);
  const std::vector<NodeID>& member_offsets = cm.offsets;
  const std::vector<NodeID>& members = cm.members;
  const auto nc = static_cast<NodeID>(member_offsets.size() - 1);
  const auto& mapping = result.mapping;

  std::vector<Weight> vertex_weights(static_cast<std::size_t>(nc) * ncon, 0);
  std::vector<EdgeID> degree(static_cast<std::size_t>(nc) + 1, 0);
  constexpr NodeID kBlock = 2048;
  const NodeID num_blocks = (nc + kBlock - 1) / kBlock;

  const EdgeID* const offsets = graph.offsets().data();

  // A block of coarse vertices has at most its members' arcs: each block writes its coarse arcs
  // into scratch from the sum of the earlier blocks' member arcs, then they move into place.
  std::vector<EdgeID> block_start(static_cast<std::size_t>(num_blocks) + 1, 0);
  tbb::parallel_for(tbb::blocked_range<NodeID>(0, num_blocks, 1), [&](const auto& r) {
    for (NodeID blk = r.begin(); blk != r.end(); ++blk) {
      const NodeID first = member_offsets[blk * kBlock];
      const NodeID last = member_offsets[std::min<NodeID>(nc, (blk + 1) * kBlock)];
      EdgeID arcs = 0;
      for (NodeID i = first; i < last; ++i)
        arcs += offsets[members[i] + 1] - offsets[members[i]];
      block_start[blk + 1] = arcs;
    }
  });
  for (NodeID blk = 0; blk < num_blocks; ++blk)
    block_start[blk + 1] += block_start[blk];
  const auto scratch_targets = std::make_unique_for_overwrite<NodeID[]>(block_start[num_blocks]);
  const auto scratch_weights = std::make_unique_for_overwrite<Weight[]>(block_start[num_blocks]);

  // Where a coarse vertex's arc to each coarse neighbour lies in the scratch, one array per
  // thread: the arcs come out in order of first appearance, parallel arcs summed, as a rating
  // map's keys did, without a second pass to read and clear the map.
  tbb::enumerable_thread_specific<std::vector<EdgeID>> positions(
      [nc] { return std::vector<EdgeID>(nc, kInvalidEdgeID); });

  const Weight* const edge_weights_in =
      graph.has_edge_weights() ? graph.edge_weights().data() : nullptr;
  const Weight* const vertex_weights_in =
      graph.has_vertex_weights() ? graph.vertex_weights().data() : nullptr;
  const auto write_blocks = [&]<bool kEdgeWeights>(const tbb::blocked_range<NodeID>& r) {
    // Every array in a local of its own: through the closure's references the compiler would
    // reload each pointer after every store into the scratch (a Weight store may alias them).
    EdgeID* const position = positions.local().data();
    NodeID* const targets = scratch_targets.get();
    Weight* const weights = scratch_weights.get();
    Weight* const coarse_weights = vertex_weights.data();
    EdgeID* const coarse_degree = degree.data();
    const EdgeID* const fine_offsets = offsets;
    const NodeID* const fine_adjacency = graph.adjacency().data();
    const Weight* const fine_edge_weights = edge_weights_in;
    const Weight* const fine_vertex_weights = vertex_weights_in;
    const NodeID* const coarse_of = mapping.data();
    const NodeID* const first_member = member_offsets.data();
    const NodeID* const members_of = members.data();
    const int constraints = ncon;
    for (NodeID blk = r.begin(); blk != r.end(); ++blk) {
      EdgeID end = block_start[blk];
      const NodeID first = blk * kBlock;
      const NodeID last = std::min<NodeID>(nc, first + kBlock);
      for (NodeID c = first; c < last; ++c) {
        // position[cv]: where c's arc to cv lies in the scratch. An entry counts only inside
        // c's own range [start, end), and every scratch index is written once per contraction,
        // so no entry is ever cleared.
        const EdgeID start = end;
        Weight weight = 0;
        for (NodeID i = first_member[c]; i < first_member[c + 1]; ++i) {
          const NodeID u = members_of[i];
          if (constraints == 1)
            weight += fine_vertex_weights == nullptr ? 1 : fine_vertex_weights[u];
          else
            for (int k = 0; k < constraints; ++k)
              coarse_weights[static_cast<std::size_t>(c) * constraints + k] +=
                  graph.vertex_weight(u, k);
          const EdgeID last_edge = fine_offsets[u + 1];
          for (EdgeID e = fine_offsets[u]; e < last_edge; ++e) {
            const NodeID cv = coarse_of[fine_adjacency[e]];
            if (cv == c)
              continue;
            const Weight w = kEdgeWeights ? fine_edge_weights[e] : 1;
            const EdgeID p = position[cv];
            if (p - start < end - start) {
              weights[p] += w;
            } else {
              position[cv] = end;
              targets[end] = cv;
              weights[end++] = w;
            }
          }
        }
        if (constraints == 1)
          coarse_weights[c] = weight;
        coarse_degree[c + 1] = end - start;
      }
    }
  };
  tbb::parallel_for(tbb::blocked_range<NodeID>(0, num_blocks, 1), [&](const auto& r) {
    if (edge_weights_in == nullptr)
      write_blocks.template operator()<false>(r);
    else
      write_blocks.template operator()<true>(r);
  });

  for (NodeID c = 0; c < nc; ++c)
    degree[c + 1] += degree[c];
  // Appended block by block: the arrays are written once, not zeroed first.
  std::vector<NodeID> adjacency;
  std::vector<Weight> edge_weights;
  adjacency.reserve(degree[nc]);
  edge_weights.reserve(degree[nc]);
  for (NodeID blk = 0; blk < num_blocks; ++blk) {
    const EdgeID count = degree[std::min<NodeID>(nc, (blk + 1) * kBlock)] - degree[blk * kBlock];
    // The scratch's copied pages go back as the copy goes (core/released_copy.h): on a dense
    // graph the coarse arcs are most of the fine ones (cornell5 k = 128: 460,801 coarse edges
    // of 790,777, 11 MB at 12 bytes an arc), and the copy held both in full.
    append_released(adjacency, scratch_targets.get() + block_start[blk], count);
    append_released(edge_weights, scratch_weights.get() + block_start[blk], count);
  }
  result.coarse = CsrGraph(std::move(degree), std::move(adjacency), std::move(edge_weights), ncon,
                           std::move(vertex_weights));
  return result;
}

} // namespace

Contraction contract_clustering(const CsrGraph& graph, std::span<const NodeID> clusters) {
  return contract(graph, clusters, false);
}

Contraction contract_pairs(const CsrGraph& graph, std::span<const NodeID> clusters) {
  return contract(graph, clusters, true);
}

} // namespace gnnpart::ml
