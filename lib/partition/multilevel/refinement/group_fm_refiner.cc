#include "partition/multilevel/refinement/group_fm_refiner.h"

#include <algorithm>
#include <atomic>
#include <functional>
#include <memory>

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include "partition/multilevel/refinement/fm_search.h"
#include "partition/multilevel/refinement/gain_cache.h"

namespace gnnpart::ml {
namespace {

constexpr int kAnyGroup = -1;
// Groups per thread in the first phase: the groups' work differs (2 threads, 4 groups: the
// busier thread had 0.71 of cnr-2000's group work at k = 128), and threads that take the next
// group as they finish, heaviest first, even it out.
constexpr int kGroupsPerThread = 4;
// Boundary vertices (a prefix of the shuffled list: a random sample) that leaving_share rates.
constexpr std::size_t kShareSample = 4096;
// The most estimated time (a share of sequential FM's) for which two groups split at an
// arbitrary block are worth running: the groups do 1.1-1.25x sequential FM's work (docs/
// scaling.md, "Block-group FM"), so less than 1 / 1.25 of it must be left on the busier thread.
constexpr double kMaxSplitTime = 0.8;

// A row update for a vertex of another group, applied after the phase.
struct CrossUpdate {
  NodeID v;
  BlockID from;
  BlockID to;
  std::int32_t w;
};

// The partition and its gain cache as one group's searches see them: only the group's vertices
// move, only into the group's blocks. With kAnyGroup, every vertex and block.
class GroupView {
public:
  GroupView(PartitionedGraph& p, const BlockLimits& limits, GainCache& cache,
            std::span<const std::uint16_t> vertex_group)
      : p_(p), g_(p.graph()), limits_(limits), cache_(cache), vertex_group_(vertex_group) {}

  // The group this view serves from now on, given the group of every block; forgets the log.
  void serve(int group, std::span<const std::uint16_t> block_group) {
    group_ = group;
    block_group_ = block_group;
    log_.clear();
  }

  bool movable(NodeID v) const { return group_ == kAnyGroup || vertex_group_[v] == group_; }
  BlockID block(NodeID v) const { return p_.block(v); }
  // Other groups' weights change under this one's feet; their blocks are never a target
  // (fits), so any constant does for the tie-breaks that compare them before fits is asked.
  Weight block_weight(BlockID b) const { return own(b) ? p_.block_weight(b) : 0; }
  bool fits(NodeID u, BlockID b) const { return own(b) && p_.fits(u, b, limits_); }
  bool cheap_conn() const { return true; }
  Weight conn(NodeID v, BlockID b) const { return cache_.conn(v, b); }
  template <typename F> void for_each(NodeID v, F&& f) const { cache_.for_each(v, f); }
  void move(NodeID u, BlockID to) {
    const BlockID from = p_.block(u);
    p_.move(u, to);
    if (group_ == kAnyGroup) {
      cache_.moved(g_, u, from, to);
      return;
    }
    for (EdgeID e = g_.first_edge(u); e < g_.last_edge(u); ++e) {
      const auto w = static_cast<std::int32_t>(g_.edge_weight(e));
      if (w == 0)
        continue;
      const NodeID v = g_.edge_target(e);
      if (vertex_group_[v] == group_)
        cache_.neighbour_moved(v, from, to, w);
      else
        log_.push_back({v, from, to, w});
    }
  }
  // The updates for other groups' vertices since serve(), handed over.
  std::vector<CrossUpdate> take_log() { return std::move(log_); }

private:
  bool own(BlockID b) const { return group_ == kAnyGroup || block_group_[b] == group_; }

  PartitionedGraph& p_;
  const CsrGraph& g_;
  const BlockLimits& limits_;
  GainCache& cache_;
  std::span<const std::uint16_t> vertex_group_;
  int group_ = kAnyGroup;
  std::span<const std::uint16_t> block_group_;
  std::vector<CrossUpdate> log_;
};

// One thread's view and search (the search refers to the view, so both stay in place). The
// searches of all threads share one per-vertex state: in a phase they move disjoint vertices
// (each its group's), and a search leaves the state at rest when it returns.
struct Worker {
  Worker(PartitionedGraph& p, const BlockLimits& limits, GainCache& cache,
         std::span<const std::uint16_t> vertex_group, const RefinementContext& ctx,
         FmVertexState& vertices)
      : view(p, limits, cache, vertex_group), search(view, p.graph(), ctx, vertices) {}
  GroupView view;
  FmSearch<GroupView> search;
};

// Whether u's best move (most connection outside its block) goes into another group's block
// (ties count as another group's); `group_of` gives each block's group.
bool best_move_leaves_group(const PartitionedGraph& p, const GainCache& cache, NodeID u,
                            std::span<const std::uint16_t> group_of) {
  const BlockID own = p.block(u);
  const std::uint16_t group = group_of[own];
  Weight best_inside = -1, best_outside = -1;
  cache.for_each(u, [&](BlockID b, Weight conn) {
    if (b == own)
      return;
    Weight& best = group_of[b] == group ? best_inside : best_outside;
    best = std::max(best, conn);
  });
  return best_outside >= 0 && best_outside >= best_inside;
}

std::vector<std::uint16_t> groups_of_blocks(const GroupStarts& starts) {
  std::vector<std::uint16_t> group_of(starts.back());
  for (std::size_t g = 0; g + 1 < starts.size(); ++g)
    std::fill(group_of.begin() + starts[g], group_of.begin() + starts[g + 1],
              static_cast<std::uint16_t>(g));
  return group_of;
}

// Every second start dropped: pairs of neighbouring groups merged.
GroupStarts merge_pairs(const GroupStarts& starts) {
  GroupStarts merged;
  for (std::size_t i = 0; i < starts.size(); i += 2)
    merged.push_back(starts[i]);
  if (merged.back() != starts.back())
    merged.push_back(starts.back());
  return merged;
}

// A sampled seed's block and the lowest and highest of the blocks that its best move may take
// (those of most connection outside its block): with two groups split at block s it leaves its
// group when one of them lies on the other side of s (s in (own, highest] or in (lowest, own]).
struct BestMoveRange {
  BlockID own;
  BlockID lowest;
  BlockID highest;
};

// The estimated time of a pass's group phases as a share of sequential FM's: the busiest
// thread's share of the first phase's work (`work` per group, taken heaviest first by the
// thread that is free first), plus the share of seeds searched again in the later phases.
double estimated_time(std::vector<double> work, int threads, double leaving) {
  std::sort(work.begin(), work.end(), std::greater<>());
  std::vector<double> load(static_cast<std::size_t>(threads), 0);
  double total = 0;
  for (double w : work) {
    *std::min_element(load.begin(), load.end()) += w;
    total += w;
  }
  return total > 0 ? *std::max_element(load.begin(), load.end()) / total + leaving : 1 + leaving;
}

} // namespace

// The first phase's groups: the most aligned ranges (first_group_count groups, or fewer by
// powers of two) whose share of seeds leaving their group is at most max_leaving_share (their
// ids follow the recursive bisection, so few cut edges join two of them), unless two groups
// split at some block s promise less time (estimated_time, with the share of a sample, and at
// most kMaxSplitTime): a half that holds most of the boundary's work (cnr-2000's at k = 32:
// 0.77 of its seeds' degrees) lends blocks to the other. None: one group (sequential FM).
GroupStarts first_phase_groups(const PartitionedGraph& p, const GainCache& cache,
                               std::span<const NodeID> boundary, int threads,
                               double max_leaving_share) {
  const BlockID k = p.k();
  const int most = first_group_count(k, threads);
  if (max_leaving_share >= 1 || most < 2)
    return aligned_starts(k, most);
  // Work per block: a search's work grows with its vertices' degrees.
  std::vector<double> block_work(k, 0);
  for (NodeID u : boundary)
    block_work[p.block(u)] += static_cast<double>(p.graph().degree(u)) + 1;
  auto group_work = [&](const GroupStarts& starts) {
    std::vector<double> work(starts.size() - 1, 0);
    for (std::size_t g = 0; g + 1 < starts.size(); ++g)
      for (BlockID b = starts[g]; b < starts[g + 1]; ++b)
        work[g] += block_work[b];
    return work;
  };
  GroupStarts best = {0, k};
  double best_time = 1;
  for (int groups = most; groups >= 2; groups /= 2) {
    const double leaving = leaving_share(p, cache, boundary, groups);
    if (leaving <= max_leaving_share) {
      best = aligned_starts(k, groups);
      best_time = estimated_time(group_work(best), threads, leaving);
      break;
    }
  }
  // The sample's best-move ranges, read in parallel (each seed reads its own row).
  const std::size_t sample = std::min<std::size_t>(boundary.size(), kShareSample);
  std::vector<BestMoveRange> ranges(sample);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, sample, 512), [&](const auto& rs) {
    for (std::size_t i = rs.begin(); i != rs.end(); ++i) {
      const NodeID u = boundary[i];
      BestMoveRange r{p.block(u), k, 0};
      Weight most_conn = 0;
      cache.for_each(u, [&](BlockID b, Weight conn) {
        if (b == r.own || conn < most_conn)
          return;
        if (conn > most_conn) {
          most_conn = conn;
          r.lowest = r.highest = b;
        } else {
          r.lowest = std::min(r.lowest, b);
          r.highest = std::max(r.highest, b);
        }
      });
      ranges[i] = most_conn > 0 ? r : BestMoveRange{k, k, 0}; // {k, k, 0}: no move
    }
  });
  // Seeds leaving their group for each split s in [1, k): it leaves at s in (own, highest] and in
  // (lowest, own], so one difference array counts every s at once.
  std::vector<std::int64_t> leaving_at(static_cast<std::size_t>(k) + 1, 0);
  bool any = false;
  for (const BestMoveRange& r : ranges) {
    if (r.own == k)
      continue;
    any = true;
    if (r.highest > r.own) {
      ++leaving_at[r.own + 1];
      --leaving_at[r.highest + 1];
    }
    if (r.lowest < r.own) {
      ++leaving_at[r.lowest + 1];
      --leaving_at[r.own + 1];
    }
  }
  if (!any)
    return best;
  std::int64_t leaving = 0;
  for (BlockID s = 1; s < k; ++s) {
    leaving += leaving_at[s];
    const double share = static_cast<double>(leaving) / static_cast<double>(sample);
    if (share > max_leaving_share)
      continue;
    GroupStarts starts = {0, s, k};
    const double time = estimated_time(group_work(starts), threads, share);
    if (time < best_time && time <= kMaxSplitTime) {
      best_time = time;
      best = std::move(starts);
    }
  }
  return best;
}

GroupStarts aligned_starts(BlockID k, int groups) {
  GroupStarts starts(static_cast<std::size_t>(groups) + 1);
  for (int g = 0; g <= groups; ++g)
    starts[g] = static_cast<BlockID>(
        (static_cast<std::uint64_t>(g) * k + static_cast<std::uint64_t>(groups) - 1) / groups);
  return starts;
}

double leaving_share(const PartitionedGraph& p, const GainCache& cache,
                     std::span<const NodeID> boundary, int groups) {
  const std::size_t sample = std::min<std::size_t>(boundary.size(), kShareSample);
  if (sample == 0)
    return 0;
  const std::vector<std::uint16_t> group_of = groups_of_blocks(aligned_starts(p.k(), groups));
  // Rated in parallel (each seed reads its own row); an integer sum, so the same in any order.
  const std::size_t leaving = tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, sample, 512), std::size_t{0},
      [&](const auto& r, std::size_t sum) {
        for (std::size_t i = r.begin(); i != r.end(); ++i)
          sum += best_move_leaves_group(p, cache, boundary[i], group_of);
        return sum;
      },
      std::plus<>());
  return static_cast<double>(leaving) / static_cast<double>(sample);
}

int first_group_count(BlockID k, int threads) {
  int groups = 1;
  while (groups < kGroupsPerThread * threads && static_cast<BlockID>(4 * groups) <= k)
    groups *= 2;
  return groups;
}

Weight group_fm_pass(PartitionedGraph& p, const BlockLimits& limits, const RefinementContext& ctx,
                     GainCache& cache, std::span<const NodeID> boundary,
                     std::vector<std::uint8_t>& locked, int threads, double max_leaving_share) {
  const CsrGraph& g = p.graph();
  const NodeID n = g.num_nodes();
  const BlockID k = p.k();
  // Fewer groups while too many seeds would have to be searched again (without locality of
  // block ids, all of them: then this is sequential FM), or two groups of about equal work.
  GroupStarts starts = first_phase_groups(p, cache, boundary, threads, max_leaving_share);
  if (starts.size() > 2)
    cache.forget_boundary(); // the groups' threads update rows through neighbour_moved
  std::vector<std::uint16_t> vertex_group(starts.size() > 2 ? n : 0); // of the current phase
  std::vector<std::uint16_t> block_groups(k);
  FmVertexState vertices(n);
  tbb::enumerable_thread_specific<std::unique_ptr<Worker>> workers;
  auto worker = [&]() -> Worker& {
    std::unique_ptr<Worker>& w = workers.local();
    if (!w)
      w = std::make_unique<Worker>(p, limits, cache, vertex_group, ctx, vertices);
    return *w;
  };
  std::vector<NodeID> seeds(boundary.begin(), boundary.end());
  std::vector<std::vector<NodeID>> group_seeds;
  std::vector<Weight> gains;
  std::vector<int> order;
  std::vector<Weight> work;
  std::vector<std::vector<CrossUpdate>> logs;
  Weight gain = 0;
  for (; starts.size() > 2; starts = merge_pairs(starts)) {
    const int groups = static_cast<int>(starts.size()) - 1;
    block_groups = groups_of_blocks(starts);
    tbb::parallel_for(tbb::blocked_range<NodeID>(0, n, 4096), [&](const auto& r) {
      for (NodeID u = r.begin(); u != r.end(); ++u)
        vertex_group[u] = block_groups[p.block(u)];
    });
    // Seeds whose best move leaves their group wait for a later phase: searched now, they
    // would take a worse move inside the group and lock there.
    std::vector<std::uint8_t> defer(seeds.size(), 0);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, seeds.size(), 1024), [&](const auto& r) {
      for (std::size_t i = r.begin(); i != r.end(); ++i)
        defer[i] = best_move_leaves_group(p, cache, seeds[i], block_groups);
    });
    group_seeds.assign(static_cast<std::size_t>(groups), {});
    for (std::size_t i = 0; i < seeds.size(); ++i)
      if (!locked[seeds[i]] && !defer[i])
        group_seeds[vertex_group[seeds[i]]].push_back(seeds[i]);
    gains.assign(static_cast<std::size_t>(groups), 0);
    logs.resize(static_cast<std::size_t>(groups));
    // Heaviest group first (seeds' degrees), each thread taking the next one as it finishes.
    order.resize(static_cast<std::size_t>(groups));
    work.assign(static_cast<std::size_t>(groups), 0);
    for (int group = 0; group < groups; ++group) {
      order[group] = group;
      for (NodeID u : group_seeds[group])
        work[group] += static_cast<Weight>(g.degree(u)) + 1;
    }
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return work[a] > work[b]; });
    std::atomic<int> next{0};
    tbb::parallel_for(
        tbb::blocked_range<int>(0, std::min(threads, groups), 1),
        [&](const tbb::blocked_range<int>& r) {
          Worker& w = worker();
          for (int t = r.begin(); t != r.end(); ++t)
            for (int i = next++; i < groups; i = next++) {
              const int group = order[i];
              w.view.serve(group, block_groups);
              gains[group] = run_searches(w.view, w.search, group_seeds[group], locked, ctx);
              logs[group] = w.view.take_log();
            }
        },
        tbb::simple_partitioner());
    for (int group = 0; group < groups; ++group) {
      gain += gains[group];
      for (const CrossUpdate& c : logs[group])
        cache.neighbour_moved(c.v, c.from, c.to, c.w);
    }
    // The next phase, with half as many groups, starts from the seeds whose best move (most
    // connection outside their block) goes into another group's block: this phase rated them
    // by a worse move, their best was not allowed. Seeding it from every vertex with some
    // connection to another group instead gave the same cut (21 shared graphs x k 8/32/128,
    // 2 threads: 0.9959x against 0.9964x sequential FM's) at 3.3x the later phases' time on
    // uk-2007-05-100k, k = 128, whose vertices of 56 neighbours on average touch many blocks.
    // Rated in parallel (each seed reads its own row), kept in their order.
    std::vector<std::uint8_t> again(seeds.size());
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, seeds.size(), 1024), [&](const auto& r) {
      for (std::size_t i = r.begin(); i != r.end(); ++i)
        again[i] = !locked[seeds[i]] &&
                   (defer[i] || best_move_leaves_group(p, cache, seeds[i], block_groups));
    });
    std::size_t kept = 0;
    for (std::size_t i = 0; i < seeds.size(); ++i)
      if (again[i])
        seeds[kept++] = seeds[i];
    seeds.resize(kept);
  }
  Worker& w = worker();
  w.view.serve(kAnyGroup, block_groups);
  return gain + run_searches(w.view, w.search, seeds, locked, ctx);
}

} // namespace gnnpart::ml
