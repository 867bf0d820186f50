#include "streaming/batch_model.h"

#include <algorithm>
#include <numeric>

#include "core/errors.h"
#include "core/options.h"
#include "partition/partitioner.h"
#include "streaming/scoring.h"

namespace gnnpart::streaming {

std::vector<BlockID> solve_batch_locally(const BatchModel& model, BlockID k, Weight max_weight,
                                         double alpha, int rounds) {
  const CsrGraph& graph = model.graph;
  const NodeID b = model.batch_size;
  std::vector<Weight> loads(k);
  for (BlockID block = 0; block < k; ++block)
    loads[block] = graph.vertex_weight(b + block);
  std::vector<BlockID> part(b, kInvalidBlockID);
  std::vector<double> conn(k, 0.0);
  std::vector<BlockID> touched;
  auto block_of = [&](NodeID local) { return local >= b ? local - b : part[local]; };
  auto gather = [&](NodeID i) {
    for (EdgeID e = graph.first_edge(i); e < graph.last_edge(i); ++e) {
      const BlockID block = block_of(graph.edge_target(e));
      if (block == kInvalidBlockID)
        continue;
      if (conn[block] == 0.0)
        touched.push_back(block);
      conn[block] += static_cast<double>(graph.edge_weight(e));
    }
  };
  // Fennel over the batch in order.
  for (NodeID i = 0; i < b; ++i) {
    gather(i);
    BlockID best = 0;
    double best_score = -1e300;
    for (BlockID block = 0; block < k; ++block) {
      if (loads[block] + 1 > max_weight)
        continue;
      const double s = conn[block] - fennel_penalty_15(static_cast<double>(loads[block]), alpha);
      if (s > best_score) {
        best = block;
        best_score = s;
      }
    }
    for (const BlockID block : touched)
      conn[block] = 0.0;
    touched.clear();
    part[i] = best;
    ++loads[best];
  }
  refine_batch(model, k, max_weight, rounds, part);
  return part;
}

void refine_batch(const BatchModel& model, BlockID k, Weight max_weight, int rounds,
                  std::vector<BlockID>& part) {
  const CsrGraph& graph = model.graph;
  const NodeID b = model.batch_size;
  std::vector<Weight> loads(k);
  for (BlockID block = 0; block < k; ++block)
    loads[block] = graph.vertex_weight(b + block);
  for (NodeID i = 0; i < b; ++i)
    ++loads[part[i]];
  std::vector<double> conn(k, 0.0);
  std::vector<BlockID> touched;
  auto block_of = [&](NodeID local) { return local >= b ? local - b : part[local]; };
  auto gather = [&](NodeID i) {
    for (EdgeID e = graph.first_edge(i); e < graph.last_edge(i); ++e) {
      const BlockID block = block_of(graph.edge_target(e));
      if (conn[block] == 0.0)
        touched.push_back(block);
      conn[block] += static_cast<double>(graph.edge_weight(e));
    }
  };
  // Label propagation: move to the most connected block that has room.
  for (int round = 0; round < rounds; ++round) {
    NodeID moved = 0;
    for (NodeID i = 0; i < b; ++i) {
      gather(i);
      const BlockID current = part[i];
      BlockID best = current;
      double best_conn = conn[current];
      for (const BlockID block : touched) {
        if (block == current || loads[block] + 1 > max_weight)
          continue;
        if (conn[block] > best_conn) {
          best = block;
          best_conn = conn[block];
        }
      }
      for (const BlockID block : touched)
        conn[block] = 0.0;
      touched.clear();
      if (best != current) {
        --loads[current];
        ++loads[best];
        part[i] = best;
        ++moved;
      }
    }
    if (moved == 0)
      break;
  }
}

std::vector<BlockID> solve_batch_multilevel(const BatchModel& model, BlockID k, Weight max_weight,
                                            double epsilon, std::uint64_t seed, int rounds) {
  const CsrGraph& graph = model.graph;
  const NodeID b = model.batch_size;
  const Weight total = graph.total_vertex_weight();
  const Weight ideal = (total + k - 1) / k;
  if (b == 0 || ideal <= 0)
    return {};
  PartitionOptions options;
  options.k = k;
  options.seed = seed;
  options.threads = 1;
  options.algorithm = Algorithm::kMultilevel;
  // Balance the batch together with the assigned blocks at the run's epsilon (so each batch
  // fills the light blocks), loosened only as far as the heaviest anchor needs; the engine's
  // bound floor((1 + eps) * ceil(total / k)) never exceeds the global bound max_weight.
  Weight heaviest = 0;
  for (BlockID block = 0; block < k; ++block) {
    heaviest = std::max(heaviest, graph.vertex_weight(b + block));
  }
  const double loosest = static_cast<double>(max_weight) / static_cast<double>(ideal) - 1.0;
  const double needed = static_cast<double>(heaviest + 1) / static_cast<double>(ideal) - 1.0;
  options.epsilon = std::max(0.0, std::min(loosest, std::max(epsilon, needed)));
  Partition engine;
  try {
    engine = partition_graph_multilevel(graph, options);
  } catch (const Error&) {
    return {};
  }
  // Engine blocks -> real blocks: each anchor pulls its engine block (heaviest anchors first);
  // leftover engine blocks go, largest first, to the lightest leftover real blocks.
  std::vector<BlockID> map(k, kInvalidBlockID);
  std::vector<bool> taken(k, false);
  std::vector<BlockID> anchors(k);
  std::iota(anchors.begin(), anchors.end(), 0);
  std::stable_sort(anchors.begin(), anchors.end(), [&](BlockID x, BlockID y) {
    return graph.vertex_weight(b + x) > graph.vertex_weight(b + y);
  });
  for (const BlockID real : anchors) {
    const BlockID e = engine.blocks[b + real];
    if (map[e] == kInvalidBlockID && graph.vertex_weight(b + real) + graph.degree(b + real) > 0) {
      map[e] = real;
      taken[real] = true;
    }
  }
  std::vector<Weight> batch_count(k, 0);
  for (NodeID i = 0; i < b; ++i)
    ++batch_count[engine.blocks[i]];
  std::vector<BlockID> free_engine, free_real;
  for (BlockID e = 0; e < k; ++e) {
    if (map[e] == kInvalidBlockID)
      free_engine.push_back(e);
    if (!taken[e])
      free_real.push_back(e);
  }
  std::stable_sort(free_engine.begin(), free_engine.end(),
                   [&](BlockID x, BlockID y) { return batch_count[x] > batch_count[y]; });
  std::stable_sort(free_real.begin(), free_real.end(), [&](BlockID x, BlockID y) {
    return graph.vertex_weight(b + x) < graph.vertex_weight(b + y);
  });
  for (std::size_t i = 0; i < free_engine.size(); ++i)
    map[free_engine[i]] = free_real[i];
  std::vector<BlockID> part(b);
  std::vector<Weight> loads(k);
  for (BlockID block = 0; block < k; ++block)
    loads[block] = graph.vertex_weight(b + block);
  for (NodeID i = 0; i < b; ++i)
    ++loads[part[i] = map[engine.blocks[i]]];
  // Anchors the engine put together leave some real blocks over the bound: move vertices out
  // of those, each to the block with room it is most connected to (the lightest on ties).
  std::vector<double> conn(k, 0.0);
  for (NodeID i = 0; i < b; ++i) {
    const BlockID from = part[i];
    if (loads[from] <= max_weight)
      continue;
    for (EdgeID e = graph.first_edge(i); e < graph.last_edge(i); ++e) {
      const NodeID t = graph.edge_target(e);
      conn[t >= b ? t - b : part[t]] += static_cast<double>(graph.edge_weight(e));
    }
    BlockID to = kInvalidBlockID;
    for (BlockID block = 0; block < k; ++block) {
      if (block == from || loads[block] + 1 > max_weight)
        continue;
      if (to == kInvalidBlockID || conn[block] > conn[to] ||
          (conn[block] == conn[to] && loads[block] < loads[to])) {
        to = block;
      }
    }
    std::fill(conn.begin(), conn.end(), 0.0);
    if (to == kInvalidBlockID)
      return {};
    --loads[from];
    ++loads[to];
    part[i] = to;
  }
  for (BlockID block = 0; block < k; ++block) {
    if (loads[block] > max_weight)
      return {};
  }
  refine_batch(model, k, max_weight, rounds, part);
  return part;
}

} // namespace gnnpart::streaming
