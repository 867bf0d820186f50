#include "hypergraph/flow_refiner.h"

#include <algorithm>
#include <cstdint>
#include <cmath>
#include <span>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include "core/errors.h"
#include "core/random.h"
#include "hypergraph/flow_cutter.h"
#include "hypergraph/flow_problem.h"
#include "hypergraph/refinement.h"

namespace gnnpart::hg {

namespace {

// One thread's tools and scratch for solving the flow problem of a block pair.
struct PairSolver {
  explicit PairSolver(const Hypergraph& hg) : builder(hg), net_stamp(hg.num_nets(), 0) {}
  FlowProblemBuilder builder;
  FlowProblem problem;
  FlowCutter cutter;
  std::vector<std::uint32_t> net_stamp; // == stamp: net already looked at for this pair
  std::uint32_t stamp = 0;
  std::vector<NetID> cut_nets;
  std::vector<Weight> region_max0, region_max1;
};

// A pair's solution, applied once every pair of its batch is solved.
struct PairResult {
  bool solved = false; // a flow problem was built and solved
  bool found = false;  // ... and it has a balanced cut below the current one
  std::vector<NodeID> region;
  std::vector<std::uint8_t> assignment; // per region vertex: 0 = b0, 1 = b1
  Weight expected_gain = 0;
};

class FlowRefiner {
public:
  FlowRefiner(PartitionedHypergraph& phg, const HgContext& ctx, const BlockLimits& limits)
      : phg_(phg), hg_(phg.hypergraph()), ctx_(ctx), fc_(ctx.refinement.flows), limits_(limits),
        solvers_([&hg = phg.hypergraph()] { return PairSolver(hg); }), block_nets_(phg.k()) {
    options_.bulk_piercing_fraction = fc_.bulk_piercing_fraction;
    options_.max_iterations = fc_.max_piercing_iterations;
    region_.max_bfs_net_size = fc_.max_bfs_net_size;
    region_.max_distance = fc_.max_bfs_distance;
  }

  FlowRefinementStats run(std::uint64_t seed) {
    const BlockID k = phg_.k();
    std::vector<std::uint8_t> active(k, 1), next(k, 0);
    Weight objective = phg_.objective(ctx_.objective);
    for (int round = 0; round < fc_.max_rounds; ++round) {
      collect_block_nets();
      collect_pairs(active);
      if (round > 0 && fc_.schedule_touched_pairs)
        keep_touched_pairs();
      if (pairs_.empty())
        break;
      Rng rng(derive_seed(seed, 0xF1, round));
      std::shuffle(pairs_.begin(), pairs_.end(), rng);
      split_into_batches();
      std::fill(next.begin(), next.end(), 0);
      touched_.clear();
      Weight round_gain = 0;
      for (std::size_t b = 0; b + 1 < batch_starts_.size(); ++b) {
        const std::size_t first = batch_starts_[b];
        const std::size_t size = batch_starts_[b + 1] - first;
        if (results_.size() < size)
          results_.resize(size);
        // The pairs of a batch share no block, so their flow problems are independent: each
        // one's moves change neither the other's network nor its gain.
        tbb::parallel_for(std::size_t{0}, size, [&](std::size_t i) {
          const auto [b0, b1] = pairs_[first + i];
          solve_pair(solvers_.local(), b0, b1, derive_seed(seed, round, b0, b1), results_[i]);
        });
        for (std::size_t i = 0; i < size; ++i) {
          const auto [b0, b1] = pairs_[first + i];
          const Weight gain = apply(b0, b1, results_[i]);
          if (gain > 0) {
            round_gain += gain;
            next[b0] = next[b1] = 1;
          }
        }
      }
      ++stats_.rounds;
      objective -= round_gain;
      if (round_gain <= 0 || static_cast<double>(round_gain) <=
                                 fc_.min_relative_improvement * static_cast<double>(objective))
        break;
      std::swap(active, next);
    }
    return stats_;
  }

private:
  // Per block, the nets of positive weight that also touch another block (with repeats once
  // moves have appended to them).
  void collect_block_nets() {
    for (auto& list : block_nets_)
      list.clear();
    for (NetID e = 0; e < hg_.num_nets(); ++e)
      if (hg_.net_weight(e) > 0 && phg_.connectivity(e) >= 2)
        phg_.for_each_block(e, [&](BlockID b) { block_nets_[b].push_back(e); });
  }

  // Quotient graph edges with an active end, in block order.
  void collect_pairs(std::span<const std::uint8_t> active) {
    const BlockID k = phg_.k();
    pairs_.clear();
    std::vector<BlockID> seen(k, kInvalidBlockID);
    for (BlockID b0 = 0; b0 < k; ++b0) {
      const std::size_t first = pairs_.size();
      for (NetID e : block_nets_[b0])
        phg_.for_each_block(e, [&](BlockID b1) {
          if (b1 > b0 && seen[b1] != b0 && (active[b0] || active[b1])) {
            seen[b1] = b0;
            pairs_.emplace_back(b0, b1);
          }
        });
      std::sort(pairs_.begin() + static_cast<std::ptrdiff_t>(first), pairs_.end());
    }
  }

  static std::uint64_t pair_key(BlockID a, BlockID b) {
    return a < b ? (std::uint64_t{a} << 32) | b : (std::uint64_t{b} << 32) | a;
  }

  // Only the pairs whose cut nets the last round's moves touched.
  void keep_touched_pairs() {
    std::sort(touched_.begin(), touched_.end());
    touched_.erase(std::unique(touched_.begin(), touched_.end()), touched_.end());
    std::erase_if(pairs_, [&](const std::pair<BlockID, BlockID>& p) {
      return !std::binary_search(touched_.begin(), touched_.end(), pair_key(p.first, p.second));
    });
  }

  // Reorders pairs_ into batches of pairs that share no block: each batch takes, in order,
  // every remaining pair whose blocks no earlier pair of the batch uses. The batches depend on
  // the order only, never on the thread count.
  void split_into_batches() {
    std::vector<std::pair<BlockID, BlockID>> remaining;
    remaining.swap(pairs_);
    std::vector<std::size_t> batch_of(phg_.k(), SIZE_MAX);
    batch_starts_.assign(1, 0);
    std::vector<std::pair<BlockID, BlockID>> later;
    for (std::size_t batch = 0; !remaining.empty(); ++batch) {
      later.clear();
      for (const auto& [b0, b1] : remaining) {
        if (batch_of[b0] == batch || batch_of[b1] == batch) {
          later.emplace_back(b0, b1);
          continue;
        }
        batch_of[b0] = batch_of[b1] = batch;
        pairs_.emplace_back(b0, b1);
      }
      batch_starts_.push_back(pairs_.size());
      remaining.swap(later);
    }
  }

  // What block `to` could absorb from a region: up to (1 + alpha * eps) times its perfect
  // weight, never less than its real limit allows.
  void region_limit(BlockID to, std::vector<Weight>& out) const {
    const int ncon = phg_.ncon();
    out.resize(ncon);
    for (int c = 0; c < ncon; ++c) {
      const std::size_t i = static_cast<std::size_t>(to) * ncon + c;
      const double perfect = static_cast<double>(limits_.perfect[i]);
      const double eps =
          perfect > 0 ? std::max(0.0, static_cast<double>(limits_.max_weight[i]) / perfect - 1) : 0.0;
      const Weight scaled = static_cast<Weight>(std::floor((1 + fc_.alpha * eps) * perfect));
      out[c] = std::max<Weight>(0, std::max(scaled, limits_.max_weight[i]) - phg_.block_weight(to, c));
    }
  }

  // Solves the flow problem of (b0, b1) on the current partition without changing it. Reads
  // only shared state, so the pairs of a batch run in parallel.
  void solve_pair(PairSolver& solver, BlockID b0, BlockID b1, std::uint64_t seed,
                  PairResult& result) const {
    result.solved = result.found = false;
    // The pair's cut nets, from the shorter of the two lists.
    const std::vector<NetID>& list =
        block_nets_[b0].size() <= block_nets_[b1].size() ? block_nets_[b0] : block_nets_[b1];
    if (++solver.stamp == 0) {
      std::fill(solver.net_stamp.begin(), solver.net_stamp.end(), 0);
      solver.stamp = 1;
    }
    std::vector<NetID>& cut_nets = solver.cut_nets;
    cut_nets.clear();
    for (NetID e : list)
      if (solver.net_stamp[e] != solver.stamp) {
        solver.net_stamp[e] = solver.stamp;
        if (phg_.pin_count(e, b0) > 0 && phg_.pin_count(e, b1) > 0)
          cut_nets.push_back(e);
      }
    Weight cut = 0;
    for (NetID e : cut_nets)
      cut += hg_.net_weight(e);
    if (cut_nets.empty() || cut < fc_.min_pair_cut)
      return;
    region_limit(b1, solver.region_max0); // b0's part of the region may all end up in b1
    region_limit(b0, solver.region_max1);
    FlowProblem& problem = solver.problem;
    if (!solver.builder.build(phg_, ctx_.objective, b0, b1, cut_nets, solver.region_max0,
                              solver.region_max1, region_, problem))
      return;
    result.solved = true;
    const int ncon = phg_.ncon();
    const std::span<const Weight> max0(limits_.max_weight.data() + static_cast<std::size_t>(b0) * ncon,
                                       ncon);
    const std::span<const Weight> max1(limits_.max_weight.data() + static_cast<std::size_t>(b1) * ncon,
                                       ncon);
    if (!solver.cutter.run(problem, max0, max1, options_, seed, result.assignment))
      return;
    result.found = true;
    result.region.assign(problem.region.begin(), problem.region.end());
    result.expected_gain = problem.initial_cut - problem.network.flow_value();
  }

  // Moves the region to its new sides; undone unless the objective decreased and both blocks
  // fit their limits.
  Weight apply(BlockID b0, BlockID b1, const PairResult& result) {
    stats_.problems += result.solved;
    if (!result.found)
      return 0;
    moved_.clear();
    Weight gain = 0;
    for (std::size_t i = 0; i < result.region.size(); ++i) {
      const NodeID u = result.region[i];
      const BlockID to = result.assignment[i] == 0 ? b0 : b1;
      if (phg_.block(u) == to)
        continue;
      moved_.push_back(u);
      gain += phg_.move(u, to, ctx_.objective);
    }
    if (gain <= 0 || phg_.overloaded(b0, limits_.max_weight) || phg_.overloaded(b1, limits_.max_weight)) {
      for (NodeID u : moved_)
        phg_.move(u, phg_.block(u) == b0 ? b1 : b0, ctx_.objective);
      return 0;
    }
    // Nets whose block set changed have a moved pin: list them for both blocks, so the lists
    // keep every cut net of every pair.
    for (NodeID u : moved_)
      for (NetID e : hg_.incident_nets(u))
        if (hg_.net_weight(e) > 0) {
          block_nets_[b0].push_back(e);
          block_nets_[b1].push_back(e);
          if (fc_.schedule_touched_pairs)
            phg_.for_each_block(e, [&](BlockID b) {
              if (b != b0)
                touched_.push_back(pair_key(b, b0));
              if (b != b1)
                touched_.push_back(pair_key(b, b1));
            });
        }
    ++stats_.improvements;
    stats_.gain += gain;
    stats_.expected_gain += result.expected_gain;
    return gain;
  }

  PartitionedHypergraph& phg_;
  const Hypergraph& hg_;
  const HgContext& ctx_;
  const FlowContext& fc_;
  const BlockLimits& limits_;
  FlowCutterOptions options_;
  RegionOptions region_;
  tbb::enumerable_thread_specific<PairSolver> solvers_;
  std::vector<PairResult> results_; // of the current batch
  std::vector<std::vector<NetID>> block_nets_;
  std::vector<std::pair<BlockID, BlockID>> pairs_;
  std::vector<std::size_t> batch_starts_; // pairs_[batch_starts_[i], batch_starts_[i + 1])
  std::vector<std::uint64_t> touched_; // pairs whose cut nets the moves of this round touched
  std::vector<NodeID> moved_;
  FlowRefinementStats stats_;
};

} // namespace

FlowRefinementStats flow_refine(PartitionedHypergraph& phg, const HgContext& ctx,
                                const BlockLimits& limits, std::uint64_t seed) {
  const std::size_t entries = static_cast<std::size_t>(phg.k()) * phg.ncon();
  if (limits.max_weight.size() != entries || limits.perfect.size() != entries)
    throw InvalidParameter(fmt::format("flow refinement: limits for {} entries, expected {}",
                                       limits.max_weight.size(), entries));
  if (phg.k() < 2 || phg.num_nodes() == 0 || !is_balanced(phg, limits.max_weight))
    return {};
  FlowRefiner refiner(phg, ctx, limits);
  return refiner.run(seed);
}

} // namespace gnnpart::hg
