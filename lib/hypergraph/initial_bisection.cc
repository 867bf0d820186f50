#include "hypergraph/initial_bisection.h"

#include <algorithm>
#include <numeric>

#include "core/random.h"
#include "hypergraph/gain_computer.h"
#include "core/indexed_heap.h"
#include "hypergraph/km1_gain_cache.h"
#include "hypergraph/partitioned_hypergraph.h"
#include "hypergraph/refinement.h"

namespace gnnpart::hg {

namespace {

enum class Start { kGreedyGrowing, kBfs, kRandom, kLabelPropagation };

// Random order; block 0 takes vertices until it reaches its perfect weight.
std::vector<BlockID> random_start(const Hypergraph& hg, const BlockLimits& limits, Rng& rng) {
  const NodeID n = hg.num_nodes();
  std::vector<NodeID> order(n);
  std::iota(order.begin(), order.end(), NodeID{0});
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<BlockID> blocks(n, 1);
  Weight w0 = 0;
  for (NodeID u : order) {
    if (w0 >= limits.perfect[0])
      break;
    blocks[u] = 0;
    w0 += hg.vertex_weight(u);
  }
  return blocks;
}

// Breadth-first from a random vertex (restarting in unreached parts) into block 0.
std::vector<BlockID> bfs_start(const Hypergraph& hg, const BlockLimits& limits, Rng& rng) {
  const NodeID n = hg.num_nodes();
  std::vector<BlockID> blocks(n, 1);
  std::vector<char> seen(n, 0);
  std::vector<char> net_seen(hg.num_nets(), 0);
  std::vector<NodeID> queue;
  queue.reserve(n);
  std::size_t head = 0;
  Weight w0 = 0;
  while (w0 < limits.perfect[0]) {
    if (head == queue.size()) {
      NodeID start = static_cast<NodeID>(rng.below(n));
      for (NodeID i = 0; i < n && seen[start]; ++i)
        start = (start + 1) % n;
      if (seen[start])
        break;
      seen[start] = 1;
      queue.push_back(start);
    }
    const NodeID u = queue[head++];
    blocks[u] = 0;
    w0 += hg.vertex_weight(u);
    for (NetID e : hg.incident_nets(u)) {
      if (net_seen[e])
        continue;
      net_seen[e] = 1;
      for (NodeID v : hg.pins(e))
        if (!seen[v]) {
          seen[v] = 1;
          queue.push_back(v);
        }
    }
  }
  return blocks;
}

// Greedy hypergraph growing: block 0 grows from a random vertex by the best gain. With two
// blocks km1 and cut coincide (soed is twice the cut), so the km1 gain cache serves all three.
std::vector<BlockID> greedy_growing(const Hypergraph& hg, const HgContext& ctx,
                                    const BlockLimits& limits, Rng& rng) {
  const NodeID n = hg.num_nodes();
  PartitionedHypergraph phg(hg, 2);
  std::vector<BlockID> ones(n, 1);
  phg.assign(ones);
  Km1GainCache cache(phg);
  IndexedMaxHeap heap(n);
  std::vector<NetID> touched;
  // A vertex too heavy for block 0 is never offered again, so growing ends even when no
  // remaining vertex fits.
  std::vector<char> rejected(n, 0);
  auto candidate = [&](NodeID v) { return phg.block(v) == 1 && !rejected[v]; };
  while (phg.block_weight(0) < limits.perfect[0]) {
    if (heap.empty()) {
      NodeID start = static_cast<NodeID>(rng.below(n));
      for (NodeID i = 0; i < n && !candidate(start); ++i)
        start = (start + 1) % n;
      if (!candidate(start))
        break;
      heap.push(start, cache.gain(start, 0));
    }
    const NodeID u = heap.pop();
    if (phg.block_weight(0) + hg.vertex_weight(u) > limits.max(0, 0)) {
      rejected[u] = 1;
      continue;
    }
    touched.clear();
    cache.move(phg, u, 0, ctx.refinement.max_update_net_size, touched);
    for (NetID e : touched)
      for (NodeID v : hg.pins(e))
        if (candidate(v))
          heap.push_or_update(v, cache.gain(v, 0));
  }
  return std::vector<BlockID>(phg.blocks().begin(), phg.blocks().end());
}

} // namespace

std::vector<BlockID> flat_bisection(const Hypergraph& hg, const HgContext& ctx,
                                    const BlockLimits& limits, std::uint64_t seed) {
  const NodeID n = hg.num_nodes();
  if (n <= 1)
    return std::vector<BlockID>(n, 0);
  HgContext local = ctx;
  local.refinement.fm_rounds = ctx.initial.fm_rounds;
  local.refinement.fm_max_moves_without_improvement =
      std::max<NodeID>(static_cast<NodeID>(n * ctx.initial.fm_max_bad_fraction), 50);
  local.refinement.fm_seeds_per_search = std::max<int>(1, static_cast<int>(n));
  PartitionedHypergraph phg(hg, 2);
  Km1GainCache cache;
  std::vector<BlockID> best;
  bool best_balanced = false;
  Weight best_objective = 0;
  const Start starts[] = {Start::kGreedyGrowing, Start::kBfs, Start::kRandom,
                          Start::kLabelPropagation};
  int run = 0;
  for (Start start : starts) {
    for (int r = 0; r < ctx.initial.runs_per_algorithm; ++r, ++run) {
      Rng rng(derive_seed(seed, 0x1B15, run));
      std::vector<BlockID> blocks;
      switch (start) {
      case Start::kGreedyGrowing:
        blocks = greedy_growing(hg, local, limits, rng);
        break;
      case Start::kBfs:
        blocks = bfs_start(hg, limits, rng);
        break;
      case Start::kRandom:
      case Start::kLabelPropagation:
        blocks = random_start(hg, limits, rng);
        break;
      }
      phg.assign(blocks);
      rebalance(phg, local, limits.max_weight);
      if (start == Start::kLabelPropagation)
        label_propagation_refine(phg, local, limits.max_weight, derive_seed(seed, 0x1B16, run));
      fm_refine(phg, local, limits.max_weight, derive_seed(seed, 0x1B17, run), cache);
      const bool balanced = is_balanced(phg, limits.max_weight);
      const Weight objective = phg.objective_sequential(ctx.objective);
      if (best.empty() || (balanced && !best_balanced) ||
          (balanced == best_balanced && objective < best_objective)) {
        best.assign(phg.blocks().begin(), phg.blocks().end());
        best_balanced = balanced;
        best_objective = objective;
      }
    }
  }
  return best;
}

} // namespace gnnpart::hg
