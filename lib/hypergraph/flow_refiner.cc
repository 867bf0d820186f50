#include "hypergraph/flow_refiner.h"

#include <algorithm>
#include <cmath>
#include <span>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/errors.h"
#include "core/random.h"
#include "hypergraph/flow_cutter.h"
#include "hypergraph/flow_problem.h"
#include "hypergraph/refinement.h"

namespace gnnpart {

namespace {

class FlowRefiner {
public:
  FlowRefiner(PartitionedHypergraph& phg, const HgContext& ctx, const BlockLimits& limits)
      : phg_(phg), hg_(phg.hypergraph()), ctx_(ctx), fc_(ctx.refinement.flows), limits_(limits),
        builder_(phg.hypergraph()), block_nets_(phg.k()),
        net_stamp_(phg.hypergraph().num_nets(), 0) {
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
      std::fill(next.begin(), next.end(), 0);
      touched_.clear();
      Weight round_gain = 0;
      for (const auto& [b0, b1] : pairs_) {
        const Weight gain = refine_pair(b0, b1, derive_seed(seed, round, b0, b1));
        if (gain > 0) {
          round_gain += gain;
          next[b0] = next[b1] = 1;
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

  // What block `to` could absorb from a region: up to (1 + alpha * eps) times its perfect
  // weight, never less than its real limit allows.
  void region_limit(BlockID to, std::vector<Weight>& out) const {
    const int ncon = phg_.ncon();
    out.resize(ncon);
    for (int c = 0; c < ncon; ++c) {
      const std::size_t i = static_cast<std::size_t>(to) * ncon + c;
      const double perfect = static_cast<double>(limits_.perfect[i]);
      const double eps =
          perfect > 0 ? std::max(0.0, static_cast<double>(limits_.max[i]) / perfect - 1) : 0.0;
      const Weight scaled = static_cast<Weight>(std::floor((1 + fc_.alpha * eps) * perfect));
      out[c] = std::max<Weight>(0, std::max(scaled, limits_.max[i]) - phg_.block_weight(to, c));
    }
  }

  Weight refine_pair(BlockID b0, BlockID b1, std::uint64_t seed) {
    // The pair's cut nets, from the shorter of the two lists.
    const std::vector<NetID>& list =
        block_nets_[b0].size() <= block_nets_[b1].size() ? block_nets_[b0] : block_nets_[b1];
    if (++stamp_ == 0) {
      std::fill(net_stamp_.begin(), net_stamp_.end(), 0);
      stamp_ = 1;
    }
    cut_nets_.clear();
    for (NetID e : list)
      if (net_stamp_[e] != stamp_) {
        net_stamp_[e] = stamp_;
        if (phg_.pin_count(e, b0) > 0 && phg_.pin_count(e, b1) > 0)
          cut_nets_.push_back(e);
      }
    Weight cut = 0;
    for (NetID e : cut_nets_)
      cut += hg_.net_weight(e);
    if (cut_nets_.empty() || cut < fc_.min_pair_cut)
      return 0;
    region_limit(b1, region_max0_); // b0's part of the region may all end up in b1
    region_limit(b0, region_max1_);
    if (!builder_.build(phg_, ctx_.objective, b0, b1, cut_nets_, region_max0_, region_max1_,
                        region_, problem_))
      return 0;
    ++stats_.problems;
    const int ncon = phg_.ncon();
    const std::span<const Weight> max0(limits_.max.data() + static_cast<std::size_t>(b0) * ncon,
                                       ncon);
    const std::span<const Weight> max1(limits_.max.data() + static_cast<std::size_t>(b1) * ncon,
                                       ncon);
    if (!cutter_.run(problem_, max0, max1, options_, seed, assignment_))
      return 0;
    return apply(b0, b1);
  }

  // Moves the region to its new sides; undone unless the objective decreased and both blocks
  // fit their limits.
  Weight apply(BlockID b0, BlockID b1) {
    moved_.clear();
    Weight gain = 0;
    for (std::size_t i = 0; i < problem_.region.size(); ++i) {
      const NodeID u = problem_.region[i];
      const BlockID to = assignment_[i] == 0 ? b0 : b1;
      if (phg_.block(u) == to)
        continue;
      moved_.push_back(u);
      gain += phg_.move(u, to, ctx_.objective);
    }
    if (gain <= 0 || phg_.overloaded(b0, limits_.max) || phg_.overloaded(b1, limits_.max)) {
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
    stats_.expected_gain += problem_.initial_cut - problem_.network.flow_value();
    return gain;
  }

  PartitionedHypergraph& phg_;
  const Hypergraph& hg_;
  const HgContext& ctx_;
  const FlowContext& fc_;
  const BlockLimits& limits_;
  FlowCutterOptions options_;
  RegionOptions region_;
  FlowProblemBuilder builder_;
  FlowProblem problem_;
  FlowCutter cutter_;
  std::vector<std::vector<NetID>> block_nets_;
  std::vector<std::pair<BlockID, BlockID>> pairs_;
  std::vector<std::uint64_t> touched_; // pairs whose cut nets the moves of this round touched
  std::vector<std::uint32_t> net_stamp_;
  std::uint32_t stamp_ = 0;
  std::vector<NetID> cut_nets_;
  std::vector<Weight> region_max0_, region_max1_;
  std::vector<std::uint8_t> assignment_;
  std::vector<NodeID> moved_;
  FlowRefinementStats stats_;
};

} // namespace

FlowRefinementStats flow_refine(PartitionedHypergraph& phg, const HgContext& ctx,
                                const BlockLimits& limits, std::uint64_t seed) {
  const std::size_t entries = static_cast<std::size_t>(phg.k()) * phg.ncon();
  if (limits.max.size() != entries || limits.perfect.size() != entries)
    throw InvalidParameter(fmt::format("flow refinement: limits for {} entries, expected {}",
                                       limits.max.size(), entries));
  if (phg.k() < 2 || phg.num_nodes() == 0 || !is_balanced(phg, limits.max))
    return {};
  FlowRefiner refiner(phg, ctx, limits);
  return refiner.run(seed);
}

} // namespace gnnpart
