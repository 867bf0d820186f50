#include "streaming/batch_model.h"

#include <algorithm>

#include "core/errors.h"
#include "core/options.h"
#include "partition/partitioner.h"
#include "streaming/scoring.h"

namespace gnnpart::streaming {
namespace {

// The weight each block already holds: its anchor vertex batch_size + block.
std::vector<Weight> anchor_loads(const BatchModel& model, BlockID k) {
  std::vector<Weight> loads(k);
  for (BlockID block = 0; block < k; ++block)
    loads[block] = model.graph.vertex_weight(model.batch_size + block);
  return loads;
}

// How strongly one batch vertex connects to each block: gather(i) sums the weights of i's edges
// into conn per block (an anchor counts as its block; a batch vertex not placed yet in part is
// passed over) and lists the blocks it touched; clear() zeroes them for the next vertex.
struct BlockConnection {
  BlockConnection(const BatchModel& model, BlockID k, const std::vector<BlockID>& part)
      : graph(model.graph), batch_size(model.batch_size), part(part), conn(k, 0.0) {}

  void gather(NodeID i) {
    for (EdgeID e = graph.first_edge(i); e < graph.last_edge(i); ++e) {
      const NodeID local = graph.edge_target(e);
      const BlockID block = local >= batch_size ? local - batch_size : part[local];
      if (block == kInvalidBlockID)
        continue;
      if (conn[block] == 0.0)
        touched.push_back(block);
      conn[block] += static_cast<double>(graph.edge_weight(e));
    }
  }

  void clear() {
    for (const BlockID block : touched)
      conn[block] = 0.0;
    touched.clear();
  }

  const CsrGraph& graph;
  NodeID batch_size;
  const std::vector<BlockID>& part;
  std::vector<double> conn;
  std::vector<BlockID> touched;
};

} // namespace

std::vector<BlockID> solve_batch_locally(const BatchModel& model, BlockID k, Weight max_weight,
                                         double alpha, int rounds) {
  const NodeID b = model.batch_size;
  std::vector<Weight> loads = anchor_loads(model, k);
  std::vector<BlockID> part(b, kInvalidBlockID);
  BlockConnection connection(model, k, part);
  const std::vector<double>& conn = connection.conn;
  // Fennel over the batch in order.
  for (NodeID i = 0; i < b; ++i) {
    connection.gather(i);
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
    connection.clear();
    part[i] = best;
    ++loads[best];
  }
  refine_batch(model, k, max_weight, rounds, part);
  return part;
}

void refine_batch(const BatchModel& model, BlockID k, Weight max_weight, int rounds,
                  std::vector<BlockID>& part) {
  const NodeID b = model.batch_size;
  std::vector<Weight> loads = anchor_loads(model, k);
  for (NodeID i = 0; i < b; ++i)
    ++loads[part[i]];
  BlockConnection connection(model, k, part);
  const std::vector<double>& conn = connection.conn;
  // Label propagation: move to the most connected block that has room.
  for (int round = 0; round < rounds; ++round) {
    NodeID moved = 0;
    for (NodeID i = 0; i < b; ++i) {
      connection.gather(i);
      const BlockID current = part[i];
      BlockID best = current;
      double best_conn = conn[current];
      for (const BlockID block : connection.touched) {
        if (block == current || loads[block] + 1 > max_weight)
          continue;
        if (conn[block] > best_conn) {
          best = block;
          best_conn = conn[block];
        }
      }
      connection.clear();
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
  // The anchors are fixed to their blocks, so the engine's blocks are the real ones and its
  // bound (anchor load + batch vertices) is within the run's.
  std::vector<BlockID> fixed(graph.num_nodes(), kInvalidBlockID);
  for (BlockID block = 0; block < k; ++block)
    fixed[b + block] = block;
  Partition engine;
  try {
    engine = partition_graph_multilevel(graph, options, fixed);
  } catch (const Error&) {
    return {};
  }
  std::vector<BlockID> part(engine.blocks.begin(), engine.blocks.begin() + b);
  refine_batch(model, k, max_weight, rounds, part);
  return part;
}

} // namespace gnnpart::streaming
