#include "partition/multilevel/refinement/group_fm_refiner.h"

#include <algorithm>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include "partition/multilevel/refinement/fm_search.h"
#include "partition/multilevel/refinement/gain_cache.h"

namespace gnnpart::ml {
namespace {

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
// The heavier of two groups is split only where that promises at most this share of the two
// groups' estimated time: more, smaller groups rate each seed among fewer blocks and search more
// seeds twice (the groups' 1.1-1.25x sequential FM's work), which the estimate leaves out.
constexpr double kInnerSplitTime = 0.9;

// A row update for a vertex of another group, applied after the phase.
struct CrossUpdate {
  NodeID v;
  BlockID from;
  BlockID to;
  std::int32_t w;
};

// The partition and its gain cache as one group's searches see them: only the group's vertices
// move, only into the group's blocks. A group is a range [lo, hi) of leaves (the first phase's
// groups, numbered in block order); every vertex and block belongs to the leaf of its block at
// the start of the pass, and a vertex moves only within its group, so the leaves stay fixed.
class GroupView {
public:
  GroupView(PartitionedGraph& p, const BlockLimits& limits, GainCache& cache,
            std::span<const std::uint16_t> vertex_leaf, std::span<const std::uint16_t> block_leaf)
      : p_(p), g_(p.graph()), limits_(limits), cache_(cache), vertex_leaf_(vertex_leaf),
        block_leaf_(block_leaf) {}

  // The group of leaves [lo, hi) this view serves from now on (every vertex and block with
  // `all`); forgets the log.
  void serve(int lo, int hi, bool all) {
    lo_ = lo;
    hi_ = hi;
    all_ = all;
    log_.clear();
  }

  bool movable(NodeID v) const { return all_ || in_group(vertex_leaf_[v]); }
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
    if (all_) {
      cache_.moved(g_, u, from, to);
      return;
    }
    for (EdgeID e = g_.first_edge(u); e < g_.last_edge(u); ++e) {
      const auto w = static_cast<std::int32_t>(g_.edge_weight(e));
      if (w == 0)
        continue;
      const NodeID v = g_.edge_target(e);
      if (in_group(vertex_leaf_[v]))
        cache_.neighbour_moved(v, from, to, w);
      else
        log_.push_back({v, from, to, w});
    }
  }
  // The updates for other groups' vertices since serve(), handed over.
  std::vector<CrossUpdate> take_log() { return std::move(log_); }

private:
  bool in_group(std::uint16_t leaf) const { return lo_ <= leaf && leaf < hi_; }
  bool own(BlockID b) const { return all_ || in_group(block_leaf_[b]); }

  PartitionedGraph& p_;
  const CsrGraph& g_;
  const BlockLimits& limits_;
  GainCache& cache_;
  std::span<const std::uint16_t> vertex_leaf_;
  std::span<const std::uint16_t> block_leaf_;
  int lo_ = 0;
  int hi_ = 0;
  bool all_ = true;
  std::vector<CrossUpdate> log_;
};

// One thread's view and search (the search refers to the view, so both stay in place). The
// searches of all threads share one per-vertex state: groups that run at the same time move
// disjoint vertices, and a search leaves the state at rest when it returns.
struct Worker {
  Worker(PartitionedGraph& p, const BlockLimits& limits, GainCache& cache,
         std::span<const std::uint16_t> vertex_leaf, std::span<const std::uint16_t> block_leaf,
         const RefinementContext& ctx, FmVertexState& vertices)
      : view(p, limits, cache, vertex_leaf, block_leaf), search(view, p.graph(), ctx, vertices) {}
  GroupView view;
  FmSearch<GroupView> search;
};

// Whether u's best move (most connection outside its block) goes into a block outside the
// group of leaves [lo, hi) that holds u's block (ties count as outside); `block_leaf` gives
// each block's leaf.
bool best_move_leaves(const PartitionedGraph& p, const GainCache& cache, NodeID u,
                      std::span<const std::uint16_t> block_leaf, int lo, int hi) {
  const BlockID own = p.block(u);
  Weight best_inside = -1, best_outside = -1;
  cache.for_each(u, [&](BlockID b, Weight conn) {
    if (b == own)
      return;
    const bool inside = lo <= block_leaf[b] && block_leaf[b] < hi;
    Weight& best = inside ? best_inside : best_outside;
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

// A sampled seed's block and the lowest and highest of the blocks that its best move may take
// (those of most connection outside its block): with two groups split at block s it leaves its
// group when one of them lies on the other side of s.
struct BestMoveRange {
  BlockID own;
  BlockID lowest;
  BlockID highest;
  NodeID u;
};

bool leaves_split(const BestMoveRange& r, BlockID s) {
  return r.own < s ? r.highest >= s : r.lowest < s;
}

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
// Two groups whose heavier one is split once more where inner_split_time says so.
GroupPlan first_phase_groups(const PartitionedGraph& p, const GainCache& cache,
                             std::span<const NodeID> boundary, int threads,
                             double max_leaving_share) {
  const BlockID k = p.k();
  const int most = first_group_count(k, threads);
  if (max_leaving_share >= 1 || most < 2)
    return {aligned_starts(k, most)};
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
  const std::size_t sample = std::min<std::size_t>(boundary.size(), kShareSample);
  std::vector<BestMoveRange> ranges;
  ranges.reserve(sample);
  for (std::size_t i = 0; i < sample; ++i) {
    const NodeID u = boundary[i];
    BestMoveRange r{p.block(u), k, 0, u};
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
    if (most_conn > 0)
      ranges.push_back(r);
  }
  if (ranges.empty())
    return {best};
  for (BlockID s = 1; s < k; ++s) {
    std::size_t leaving = 0;
    for (const BestMoveRange& r : ranges)
      leaving += leaves_split(r, s);
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
  GroupPlan plan{best};
  if (best.size() != 3)
    return plan;
  // The heavier of two groups split once more, where the sample says its two leaves, the
  // light group beside them and the heavy group's own phase after them take the least time.
  // Here the work of a seed is its row's size (plus one): its searches rate moves by reading
  // rows, and on uk-2007-05-100k the seeds' degrees put 0.59 of the finest level's work in the
  // heavier half, their rows 0.80, its thread CPU time 0.71 (docs/scaling.md).
  auto row_work = [&](NodeID u) {
    const std::uint32_t size = cache.row_size(u);
    return (size == GainCache::kDense ? static_cast<double>(k) : static_cast<double>(size)) + 1;
  };
  std::fill(block_work.begin(), block_work.end(), 0.0);
  for (NodeID u : boundary)
    block_work[p.block(u)] += row_work(u);
  const std::vector<double> work = group_work(best);
  const double total = work[0] + work[1];
  if (total <= 0)
    return plan;
  const int heavy = work[1] > work[0] ? 1 : 0;
  const BlockID first = best[heavy], last = best[heavy + 1], top = best[1];
  std::size_t leaving_top = 0;
  for (const BestMoveRange& r : ranges)
    leaving_top += leaves_split(r, top);
  const double root_share = static_cast<double>(leaving_top) / static_cast<double>(sample);
  // The two groups' estimate by the same measure, less the margin, is the one to beat.
  double best_inner = kInnerSplitTime * estimated_time(work, threads, root_share);
  // The sample's work scaled to the whole boundary's.
  const double scale = static_cast<double>(boundary.size()) / static_cast<double>(sample) / total;
  double lower = 0;
  for (BlockID b = first; b < first + 2; ++b)
    lower += block_work[b];
  for (BlockID s = first + 2; s + 2 <= last; lower += block_work[s], ++s) {
    // Seeds whose best move crosses s (and stays in the heavy group) wait for the heavy group.
    // As for any group, at most max_leaving_share of the seeds may leave the two leaves.
    double crossing_lower = 0, crossing_upper = 0;
    std::size_t crossing = 0;
    for (const BestMoveRange& r : ranges)
      if (first <= r.own && r.own < last && leaves_split(r, s) && !leaves_split(r, top)) {
        (r.own < s ? crossing_lower : crossing_upper) += row_work(r.u);
        ++crossing;
      }
    if (static_cast<double>(crossing) / static_cast<double>(sample) > max_leaving_share)
      continue;
    crossing_lower *= scale;
    crossing_upper *= scale;
    const double a = lower / total - crossing_lower;
    const double b = (work[heavy] - lower) / total - crossing_upper;
    const double time =
        inner_split_time(a, b, work[1 - heavy] / total, crossing_lower + crossing_upper, threads) +
        root_share;
    if (time < best_inner) {
      best_inner = time;
      plan.inner = s;
    }
  }
  return plan;
}

double inner_split_time(double a, double b, double light, double crossing, int threads) {
  const double heavy_done = std::max(a, b) + crossing;
  // Two threads: the light group goes to the thread whose leaf ends first.
  return threads >= 3 ? std::max(heavy_done, light) : std::max(heavy_done, std::min(a, b) + light);
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
  std::size_t leaving = 0;
  for (std::size_t i = 0; i < sample; ++i) {
    const int g = group_of[p.block(boundary[i])];
    leaving += best_move_leaves(p, cache, boundary[i], group_of, g, g + 1);
  }
  return static_cast<double>(leaving) / static_cast<double>(sample);
}

int first_group_count(BlockID k, int threads) {
  int groups = 1;
  while (groups < kGroupsPerThread * threads && static_cast<BlockID>(4 * groups) <= k)
    groups *= 2;
  return groups;
}

namespace {

// A group of a pass: a leaf (a first-phase group) or two neighbouring groups merged. It runs
// once both of its halves have run, from their seeds whose best move left them.
struct GroupNode {
  int lo = 0, hi = 0;        // its leaves [lo, hi)
  int parent = -1;           // none: the root
  int left = -1, right = -1; // none: a leaf
  int waiting = 0;           // halves that have not run yet
  Weight work = 0;           // its leaves' seeds' degrees (the order leaves are taken in)
  std::vector<std::uint32_t> candidates; // its seeds, as positions in the pass's boundary list
  std::vector<std::uint8_t> deferred;    // per candidate: its best move leaves the group
  std::vector<CrossUpdate> carried;      // row updates for vertices outside it, in order
  Weight gain = 0;
};

class GroupTree {
public:
  // Leaves of `plan`, merged in pairs of neighbours level by level (an odd last one waits a
  // level), the heavier group's two leaves first where the plan splits it.
  explicit GroupTree(const GroupPlan& plan) {
    GroupStarts starts = plan.starts;
    int split_leaf = -1;
    if (plan.inner != 0) {
      split_leaf = plan.inner < starts[1] ? 0 : 1;
      starts.insert(starts.begin() + split_leaf + 1, plan.inner);
    }
    leaf_starts_ = starts;
    std::vector<int> level;
    for (std::size_t leaf = 0; leaf + 1 < starts.size(); ++leaf)
      level.push_back(add(static_cast<int>(leaf), static_cast<int>(leaf) + 1, -1, -1));
    if (split_leaf >= 0) { // the split group's two leaves are one group of the top level
      const int merged = add(split_leaf, split_leaf + 2, level[split_leaf], level[split_leaf + 1]);
      level.erase(level.begin() + split_leaf, level.begin() + split_leaf + 2);
      level.insert(level.begin() + split_leaf, merged);
    }
    while (level.size() > 1) {
      std::vector<int> up;
      for (std::size_t i = 0; i + 1 < level.size(); i += 2)
        up.push_back(add(nodes_[level[i]].lo, nodes_[level[i + 1]].hi, level[i], level[i + 1]));
      if (level.size() % 2 == 1)
        up.push_back(level.back());
      level = std::move(up);
    }
    root_ = level.front();
  }

  std::vector<GroupNode>& nodes() { return nodes_; }
  int root() const { return root_; }
  const GroupStarts& leaf_starts() const { return leaf_starts_; }
  int leaves() const { return static_cast<int>(leaf_starts_.size()) - 1; }

  // Every node's work from its leaves', then the leaves in the order the threads take them:
  // the heavier half of each group first (its path to the root is the longer one).
  std::vector<int> leaf_order() {
    for (std::size_t i = 0; i < nodes_.size(); ++i) // children come before their parent
      if (nodes_[i].left >= 0)
        nodes_[i].work = nodes_[nodes_[i].left].work + nodes_[nodes_[i].right].work;
    std::vector<int> order, stack = {root_};
    while (!stack.empty()) {
      const int node = stack.back();
      stack.pop_back();
      const GroupNode& n = nodes_[node];
      if (n.left < 0) {
        order.push_back(node);
        continue;
      }
      const bool right_first = nodes_[n.right].work > nodes_[n.left].work;
      stack.push_back(right_first ? n.left : n.right);
      stack.push_back(right_first ? n.right : n.left);
    }
    return order;
  }

private:
  int add(int lo, int hi, int left, int right) {
    GroupNode node;
    node.lo = lo;
    node.hi = hi;
    node.left = left;
    node.right = right;
    node.waiting = left >= 0 ? 2 : 0;
    nodes_.push_back(std::move(node));
    const int id = static_cast<int>(nodes_.size()) - 1;
    if (left >= 0)
      nodes_[left].parent = nodes_[right].parent = id;
    return id;
  }

  std::vector<GroupNode> nodes_;
  GroupStarts leaf_starts_;
  int root_ = -1;
};

} // namespace

Weight group_fm_pass(PartitionedGraph& p, const BlockLimits& limits, const RefinementContext& ctx,
                     GainCache& cache, std::span<const NodeID> boundary,
                     std::vector<std::uint8_t>& locked, int threads, double max_leaving_share,
                     const GroupPlan* plan) {
  const CsrGraph& g = p.graph();
  const NodeID n = g.num_nodes();
  // Fewer groups while too many seeds would have to be searched again (without locality of
  // block ids, all of them: then this is sequential FM), or two groups of about equal work.
  GroupTree tree(plan ? *plan : first_phase_groups(p, cache, boundary, threads, max_leaving_share));
  const int leaves = tree.leaves();
  const std::vector<std::uint16_t> block_leaf = groups_of_blocks(tree.leaf_starts());
  std::vector<std::uint16_t> vertex_leaf(leaves > 1 ? n : 0);
  FmVertexState vertices(n);
  tbb::enumerable_thread_specific<std::unique_ptr<Worker>> workers;
  auto worker = [&]() -> Worker& {
    std::unique_ptr<Worker>& w = workers.local();
    if (!w)
      w = std::make_unique<Worker>(p, limits, cache, vertex_leaf, block_leaf, ctx, vertices);
    return *w;
  };
  if (leaves < 2) {
    Worker& w = worker();
    w.view.serve(0, 1, true);
    return run_searches(w.view, w.search, boundary, locked, ctx);
  }
  tbb::parallel_for(tbb::blocked_range<NodeID>(0, n, 4096), [&](const auto& r) {
    for (NodeID u = r.begin(); u != r.end(); ++u)
      vertex_leaf[u] = block_leaf[p.block(u)];
  });
  std::vector<GroupNode>& nodes = tree.nodes();
  // The leaves' seeds, in the list's order. Those whose best move leaves their leaf wait for a
  // later group: searched now, they would take a worse move inside the leaf and lock there.
  {
    std::vector<std::uint8_t> defer(boundary.size());
    tbb::parallel_for(
        tbb::blocked_range<std::size_t>(0, boundary.size(), 1024), [&](const auto& r) {
          for (std::size_t i = r.begin(); i != r.end(); ++i) {
            const int leaf = vertex_leaf[boundary[i]];
            defer[i] = best_move_leaves(p, cache, boundary[i], block_leaf, leaf, leaf + 1);
          }
        });
    std::vector<int> node_of_leaf(static_cast<std::size_t>(leaves));
    for (std::size_t i = 0; i < nodes.size(); ++i)
      if (nodes[i].left < 0)
        node_of_leaf[nodes[i].lo] = static_cast<int>(i);
    for (std::size_t i = 0; i < boundary.size(); ++i) {
      GroupNode& leaf = nodes[node_of_leaf[vertex_leaf[boundary[i]]]];
      leaf.candidates.push_back(static_cast<std::uint32_t>(i));
      leaf.deferred.push_back(defer[i]);
      if (!defer[i])
        leaf.work += static_cast<Weight>(g.degree(boundary[i])) + 1;
    }
  }

  // A merged group's start: its halves' row updates for its own vertices applied (left half's
  // first), the others carried up; its seeds are its halves' whose best move left their half
  // (or waited), in the list's order.
  auto join = [&](GroupNode& node, bool parallel) {
    for (const int half : {node.left, node.right}) {
      for (const CrossUpdate& c : nodes[half].carried) {
        if (node.lo <= vertex_leaf[c.v] && vertex_leaf[c.v] < node.hi)
          cache.neighbour_moved(c.v, c.from, c.to, c.w);
        else
          node.carried.push_back(c);
      }
      std::vector<CrossUpdate>().swap(nodes[half].carried);
    }
    auto again = [&](const GroupNode& half) {
      std::vector<std::uint8_t> keep(half.candidates.size());
      auto rate = [&](std::size_t i) {
        const NodeID u = boundary[half.candidates[i]];
        keep[i] = !locked[u] &&
                  (half.deferred[i] || best_move_leaves(p, cache, u, block_leaf, half.lo, half.hi));
      };
      if (parallel) {
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, keep.size(), 1024),
                          [&](const auto& r) {
                            for (std::size_t i = r.begin(); i != r.end(); ++i)
                              rate(i);
                          });
      } else {
        for (std::size_t i = 0; i < keep.size(); ++i)
          rate(i);
      }
      std::vector<std::uint32_t> kept;
      for (std::size_t i = 0; i < keep.size(); ++i)
        if (keep[i])
          kept.push_back(half.candidates[i]);
      return kept;
    };
    const std::vector<std::uint32_t> a = again(nodes[node.left]), b = again(nodes[node.right]);
    node.candidates.resize(a.size() + b.size());
    std::merge(a.begin(), a.end(), b.begin(), b.end(), node.candidates.begin());
    for (const int half : {node.left, node.right}) {
      std::vector<std::uint32_t>().swap(nodes[half].candidates);
      std::vector<std::uint8_t>().swap(nodes[half].deferred);
    }
  };
  auto run_group = [&](GroupNode& node, Worker& w) {
    if (node.left >= 0) {
      join(node, false);
      node.deferred.resize(node.candidates.size());
      for (std::size_t i = 0; i < node.candidates.size(); ++i)
        node.deferred[i] =
            best_move_leaves(p, cache, boundary[node.candidates[i]], block_leaf, node.lo, node.hi);
    }
    std::vector<NodeID> group_seeds;
    for (std::size_t i = 0; i < node.candidates.size(); ++i) {
      const NodeID u = boundary[node.candidates[i]];
      if (!locked[u] && !node.deferred[i])
        group_seeds.push_back(u);
    }
    w.view.serve(node.lo, node.hi, false);
    node.gain = run_searches(w.view, w.search, group_seeds, locked, ctx);
    std::vector<CrossUpdate> log = w.view.take_log();
    node.carried.insert(node.carried.end(), log.begin(), log.end());
  };

  // The threads take the leaves in order; a group whose halves have both run is taken next by
  // the thread that ran the later half (a thread that finds nothing to take is done: no group
  // becomes ready while it waits but through a running one's thread). The root runs last.
  const std::vector<int> order = tree.leaf_order();
  std::deque<int> ready(order.begin(), order.end());
  std::mutex ready_mutex;
  const int root = tree.root();
  tbb::parallel_for(
      tbb::blocked_range<int>(0, std::min(threads, leaves), 1),
      [&](const tbb::blocked_range<int>& r) {
        Worker& w = worker();
        for (int t = r.begin(); t != r.end(); ++t)
          for (;;) {
            int node;
            {
              const std::lock_guard<std::mutex> lock(ready_mutex);
              if (ready.empty())
                break;
              node = ready.front();
              ready.pop_front();
            }
            run_group(nodes[node], w);
            const std::lock_guard<std::mutex> lock(ready_mutex);
            const int parent = nodes[node].parent;
            if (--nodes[parent].waiting == 0 && parent != root)
              ready.push_front(parent);
          }
      },
      tbb::simple_partitioner());
  Weight gain = 0;
  for (const GroupNode& node : nodes)
    gain += node.gain;
  // The root: every move allowed, from the seeds that left both its halves.
  GroupNode& top = nodes[root];
  join(top, true);
  std::vector<NodeID> seeds;
  seeds.reserve(top.candidates.size());
  for (const std::uint32_t i : top.candidates)
    seeds.push_back(boundary[i]);
  Worker& w = worker();
  w.view.serve(0, leaves, true);
  return gain + run_searches(w.view, w.search, seeds, locked, ctx);
}

} // namespace gnnpart::ml
