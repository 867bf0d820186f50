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
#include "partition/multilevel/rating_map.h"

namespace gnnpart::ml {

Contraction contract_clustering(const CsrGraph& graph, std::span<const NodeID> clusters) {
  const NodeID n = graph.num_nodes();
  const int ncon = graph.ncon();
  Contraction result;

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
  result.mapping.resize(n);
  tbb::parallel_for(tbb::blocked_range<NodeID>(0, n, 4096), [&](const auto& r) {
    for (NodeID u = r.begin(); u != r.end(); ++u)
      result.mapping[u] = label_id[clusters[u]];
  });
  std::vector<NodeID>().swap(label_id);
  const auto& mapping = result.mapping;

  // Members of each coarse vertex, in fine-id order: counted and placed in parallel, then each
  // coarse vertex's members sorted (the placement order depends on the schedule).
  std::vector<NodeID> member_offsets(static_cast<std::size_t>(nc) + 1);
  {
    std::vector<NodeID> count(nc, 0);
    tbb::parallel_for(tbb::blocked_range<NodeID>(0, n, 4096), [&](const auto& r) {
      for (NodeID u = r.begin(); u != r.end(); ++u)
        std::atomic_ref<NodeID>(count[mapping[u]]).fetch_add(1, std::memory_order_relaxed);
    });
    exclusive_prefix_sum(
        nc, [&](std::size_t c) { return count[c]; }, std::span<NodeID>(member_offsets));
  }
  std::vector<NodeID> members(n);
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
      if (size == 2) { // a matched pair, most of a matching's clusters
        if (members[first] > members[first + 1])
          std::swap(members[first], members[first + 1]);
      } else if (size > 2) {
        std::sort(members.begin() + first, members.begin() + first + size);
      }
    }
  });

  std::vector<Weight> vertex_weights(static_cast<std::size_t>(nc) * ncon, 0);
  std::vector<EdgeID> degree(static_cast<std::size_t>(nc) + 1, 0);
  constexpr NodeID kBlock = 2048;
  const NodeID num_blocks = (nc + kBlock - 1) / kBlock;
  tbb::enumerable_thread_specific<RatingMap<NodeID>> maps([nc] { return RatingMap<NodeID>(nc); });

  // Raw arrays: the map's stores would otherwise make the compiler reload the vectors' data
  // pointers on every arc.
  const EdgeID* const offsets = graph.offsets().data();
  const NodeID* const adjacency_in = graph.adjacency().data();
  const Weight* const edge_weights_in =
      graph.has_edge_weights() ? graph.edge_weights().data() : nullptr;
  const NodeID* const map_to = mapping.data();

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

  tbb::parallel_for(tbb::blocked_range<NodeID>(0, num_blocks, 1), [&](const auto& r) {
    auto& map = maps.local();
    for (NodeID blk = r.begin(); blk != r.end(); ++blk) {
      NodeID* const targets = scratch_targets.get() + block_start[blk];
      Weight* const weights = scratch_weights.get() + block_start[blk];
      EdgeID written = 0;
      const NodeID first = blk * kBlock;
      const NodeID last = std::min<NodeID>(nc, first + kBlock);
      for (NodeID c = first; c < last; ++c) {
        for (NodeID i = member_offsets[c]; i < member_offsets[c + 1]; ++i) {
          const NodeID u = members[i];
          for (int k = 0; k < ncon; ++k)
            vertex_weights[static_cast<std::size_t>(c) * ncon + k] += graph.vertex_weight(u, k);
          const EdgeID end = offsets[u + 1];
          if (edge_weights_in == nullptr) {
            for (EdgeID e = offsets[u]; e < end; ++e) {
              const NodeID cv = map_to[adjacency_in[e]];
              if (cv != c)
                map.add(cv, 1);
            }
          } else {
            for (EdgeID e = offsets[u]; e < end; ++e) {
              const NodeID cv = map_to[adjacency_in[e]];
              if (cv != c)
                map.add(cv, edge_weights_in[e]);
            }
          }
        }
        degree[c + 1] = map.keys().size();
        map.drain([&](NodeID cv, Weight w) {
          targets[written] = cv;
          weights[written++] = w;
        });
      }
    }
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

} // namespace gnnpart::ml
