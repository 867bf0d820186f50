#include "partition/multilevel/refinement/group_fm_refiner.h"

#include <algorithm>
#include <atomic>
#include <memory>

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

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

// Whether u's best move (most connection outside its block) goes into another group's block of
// `groups` (ties count as another group's).
bool best_move_leaves_group(const PartitionedGraph& p, const GainCache& cache, NodeID u,
                            int groups) {
  const BlockID own = p.block(u);
  const BlockID k = p.k();
  const int group = block_group(own, k, groups);
  Weight best_inside = -1, best_outside = -1;
  cache.for_each(u, [&](BlockID b, Weight conn) {
    if (b == own)
      return;
    Weight& best = block_group(b, k, groups) == group ? best_inside : best_outside;
    best = std::max(best, conn);
  });
  return best_outside >= 0 && best_outside >= best_inside;
}

} // namespace

double leaving_share(const PartitionedGraph& p, const GainCache& cache,
                     std::span<const NodeID> boundary, int groups) {
  const std::size_t sample = std::min<std::size_t>(boundary.size(), kShareSample);
  if (sample == 0)
    return 0;
  std::size_t leaving = 0;
  for (std::size_t i = 0; i < sample; ++i)
    leaving += best_move_leaves_group(p, cache, boundary[i], groups);
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
  // block ids, all of them: then this is sequential FM).
  int first = first_group_count(k, threads);
  while (first >= 2 && max_leaving_share < 1 &&
         leaving_share(p, cache, boundary, first) > max_leaving_share)
    first /= 2;
  std::vector<std::uint16_t> vertex_group(first >= 2 ? n : 0); // of the current phase
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
  for (int groups = first; groups >= 2; groups /= 2) {
    tbb::parallel_for(tbb::blocked_range<NodeID>(0, n, 4096), [&](const auto& r) {
      for (NodeID u = r.begin(); u != r.end(); ++u)
        vertex_group[u] = static_cast<std::uint16_t>(block_group(p.block(u), k, groups));
    });
    for (BlockID b = 0; b < k; ++b)
      block_groups[b] = static_cast<std::uint16_t>(block_group(b, k, groups));
    group_seeds.assign(static_cast<std::size_t>(groups), {});
    for (NodeID u : seeds)
      if (!locked[u])
        group_seeds[vertex_group[u]].push_back(u);
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
    std::erase_if(
        seeds, [&](NodeID u) { return locked[u] || !best_move_leaves_group(p, cache, u, groups); });
  }
  Worker& w = worker();
  w.view.serve(kAnyGroup, block_groups);
  return gain + run_searches(w.view, w.search, seeds, locked, ctx);
}

} // namespace gnnpart::ml
