#include "hypergraph/flow_cutter.h"

#include <algorithm>
#include <limits>

#include "core/errors.h"
#include "core/random.h"

namespace gnnpart::hg {

namespace {

bool fits(std::span<const Weight> weight, std::span<const Weight> max) {
  for (std::size_t c = 0; c < weight.size(); ++c)
    if (weight[c] > max[c])
      return false;
  return true;
}

// How full a side is: its largest weight / limit ratio over the constraints.
double load(std::span<const Weight> weight, std::span<const Weight> max) {
  double result = 0;
  for (std::size_t c = 0; c < weight.size(); ++c) {
    const double l = max[c] > 0      ? static_cast<double>(weight[c]) / static_cast<double>(max[c])
                     : weight[c] > 0 ? std::numeric_limits<double>::infinity()
                                     : 0.0;
    result = std::max(result, l);
  }
  return result;
}

FlowNetwork::Terminal terminal_of(int side) {
  return side == 0 ? FlowNetwork::kSource : FlowNetwork::kSink;
}

} // namespace

std::uint32_t FlowCutter::next_stamp() {
  if (++stamp_ == 0) { // wrapped around: old marks could collide
    for (Side& side : side_) {
      std::fill(side.mark.begin(), side.mark.end(), 0);
      std::fill(side.pool_mark.begin(), side.pool_mark.end(), 0);
    }
    std::fill(valid_.begin(), valid_.end(), 0);
    std::fill(check_mark_.begin(), check_mark_.end(), 0);
    stamp_ = 1;
  }
  return stamp_;
}

void FlowCutter::recompute(FlowProblem& problem, int s) {
  Side& side = side_[s];
  side.stamp = next_stamp();
  problem.network.reachable(terminal_of(s), side.mark, side.stamp, side.reached, side.parent);
  side.weight.assign(problem.ncon, 0);
  for (Node u : side.reached)
    if (problem.is_vertex(u))
      for (int c = 0; c < problem.ncon; ++c)
        side.weight[c] += problem.weight(u, c);
  side.terminal = 0;
  side.scanned = 0;
  side.pool.clear();
  side.pool_stamp = next_stamp();
}

void FlowCutter::extend(FlowProblem& problem, int s) {
  Side& side = side_[s];
  const std::size_t from = side.reached.size();
  for (Node x : pierced_)
    if (side.mark[x] != side.stamp) {
      side.mark[x] = side.stamp;
      side.reached.push_back(x);
    }
  problem.network.extend_reachable(terminal_of(s), side.mark, side.stamp, side.reached, side.parent,
                                   from);
  for (std::size_t i = from; i < side.reached.size(); ++i)
    if (problem.is_vertex(side.reached[i]))
      for (int c = 0; c < problem.ncon; ++c)
        side.weight[c] += problem.weight(side.reached[i], c);
}

void FlowCutter::shrink(FlowProblem& problem, int s) {
  Side& side = side_[s];
  const FlowNetwork& net = problem.network;
  const FlowNetwork::Terminal t = terminal_of(s);
  const std::uint32_t valid = next_stamp(); // nodes known to hang from a terminal
  // A node still belongs to the side if its tree path to a terminal is intact.
  auto rooted = [&](Node v) {
    walk_.clear();
    while (valid_[v] != valid && net.terminal(v) != t) {
      if (side.parent[v] == kNoArc)
        return false; // hangs from an orphan
      walk_.push_back(v);
      v = net.head(side.parent[v]);
    }
    for (Node w : walk_)
      valid_[w] = valid;
    return true;
  };
  orphans_.clear();
  removed_.clear();
  for (FlowNetwork::Arc d : net.drained()) {
    // The child whose tree arc d was: for the sinks' tree the tail of d (it pushed along d),
    // for the sources' tree the head of d (reached along d).
    const FlowNetwork::Arc tree = s == 1 ? d : net.reverse(d);
    const Node child = net.head(net.reverse(tree));
    if (side.mark[child] == side.stamp && side.parent[child] == tree && net.terminal(child) != t &&
        !net.tree_arc_usable(t, tree)) {
      side.parent[child] = kNoArc;
      orphans_.push_back(child);
    }
  }
  const auto offsets = net.offsets();
  for (std::size_t i = 0; i < orphans_.size(); ++i) {
    const Node u = orphans_[i];
    for (FlowNetwork::Arc a = offsets[u]; a < offsets[u + 1]; ++a)
      if (side.mark[net.head(a)] == side.stamp && net.tree_arc_usable(t, a) &&
          rooted(net.head(a))) {
        side.parent[u] = a; // adopted
        break;
      }
    if (side.parent[u] != kNoArc)
      continue;
    // Cut off for now: u leaves the side, and its children lose their parent.
    side.mark[u] = 0;
    removed_.push_back(u);
    if (problem.is_vertex(u))
      for (int c = 0; c < problem.ncon; ++c)
        side.weight[c] -= problem.weight(u, c);
    for (FlowNetwork::Arc a = offsets[u]; a < offsets[u + 1]; ++a) {
      const Node q = net.head(a);
      if (side.mark[q] == side.stamp && side.parent[q] == net.reverse(a) && net.terminal(q) != t) {
        side.parent[q] = kNoArc;
        orphans_.push_back(q);
      }
    }
  }
  // A node may have been cut off while the neighbour that still carries it was an orphan not
  // yet adopted: whatever hangs from the final side by a usable arc comes back, with what it
  // reaches.
  const std::size_t from = side.reached.size();
  for (Node u : removed_) {
    if (side.mark[u] == side.stamp)
      continue;
    for (FlowNetwork::Arc a = offsets[u]; a < offsets[u + 1]; ++a)
      if (side.mark[net.head(a)] == side.stamp && net.tree_arc_usable(t, a)) {
        side.mark[u] = side.stamp;
        side.parent[u] = a;
        side.reached.push_back(u);
        break;
      }
  }
  // The side's border moved: its piercing candidates are collected anew when it next grows.
  if (!removed_.empty()) {
    side.scanned = 0;
    side.pool.clear();
    side.pool_stamp = next_stamp();
  }
  if (side.reached.size() == from)
    return;
  problem.network.extend_reachable(t, side.mark, side.stamp, side.reached, side.parent, from);
  for (std::size_t i = from; i < side.reached.size(); ++i)
    if (problem.is_vertex(side.reached[i]))
      for (int c = 0; c < problem.ncon; ++c)
        side.weight[c] += problem.weight(side.reached[i], c);
}

void FlowCutter::check_sides(FlowProblem& problem) {
  for (int s = 0; s < 2; ++s) {
    const Side& side = side_[s];
    const std::uint32_t fresh = next_stamp();
    problem.network.reachable(terminal_of(s), check_mark_, fresh, check_reached_, check_parent_);
    std::vector<Weight> weight(problem.ncon, 0);
    for (Node u : check_reached_)
      if (problem.is_vertex(u))
        for (int c = 0; c < problem.ncon; ++c)
          weight[c] += problem.weight(u, c);
    for (Node u = 0; u < problem.network.num_nodes(); ++u)
      if ((side.mark[u] == side.stamp) != (check_mark_[u] == fresh))
        throw Error("flow cutter: an incrementally kept reachable set differs from a new search");
    if (weight != side.weight)
      throw Error("flow cutter: an incrementally kept side weight differs from a new sum");
  }
}

bool FlowCutter::run(FlowProblem& problem, std::span<const Weight> max0,
                     std::span<const Weight> max1, const FlowCutterOptions& options,
                     std::uint64_t seed, std::vector<std::uint8_t>& assignment) {
  FlowNetwork& net = problem.network;
  const std::size_t nodes = net.num_nodes();
  for (Side& side : side_) {
    if (side.mark.size() < nodes) {
      side.mark.resize(nodes, 0);
      side.pool_mark.resize(nodes, 0);
      side.parent.resize(nodes, kNoArc);
    }
  }
  if (valid_.size() < nodes)
    valid_.resize(nodes, 0);
  if (options.check_incremental && check_mark_.size() < nodes) {
    check_mark_.resize(nodes, 0);
    check_parent_.resize(nodes, kNoArc);
  }
  net.make_terminal(FlowProblem::kSourceNode, FlowNetwork::kSource);
  net.make_terminal(FlowProblem::kSinkNode, FlowNetwork::kSink);
  const std::span<const Weight> max[2] = {max0, max1};
  Pierced pierced = Pierced::kNone; // before the first max flow
  int grown = 0;
  for (iterations_ = 0; iterations_ < options.max_iterations; ++iterations_) {
    if (pierced == Pierced::kNone) {
      if (net.augment(problem.initial_cut) >= problem.initial_cut)
        return false; // no cut below the current one is left
      recompute(problem, 0);
      recompute(problem, 1);
    } else if (pierced == Pierced::kAugmenting) {
      // All new paths start at the pierced vertex: the grown side's old reachable set stays
      // closed and gains what the vertex reaches; the other side's set can only shrink, and
      // only below arcs the new flow drained.
      if (net.augment_from(terminal_of(grown), pierced_, problem.initial_cut) >=
          problem.initial_cut)
        return false;
      extend(problem, grown);
      shrink(problem, 1 - grown);
    } else {
      extend(problem, grown);
    }
    if (options.check_incremental && pierced != Pierced::kNone)
      check_sides(problem);
    // The min cut nearest to side s: its reachable set on side s, everything else opposite.
    for (int s = 0; s < 2; ++s) {
      scratch_.resize(problem.ncon);
      for (int c = 0; c < problem.ncon; ++c)
        scratch_[c] = problem.total[c] - side_[s].weight[c];
      if (!fits(side_[s].weight, max[s]) || !fits(scratch_, max[1 - s]))
        continue;
      assignment.resize(problem.region.size());
      for (std::size_t i = 0; i < problem.region.size(); ++i) {
        const bool reached = side_[s].mark[FlowProblem::kFirstVertex + i] == side_[s].stamp;
        assignment[i] = static_cast<std::uint8_t>(reached ? s : 1 - s);
      }
      return true;
    }
    grown = load(side_[0].weight, max0) <= load(side_[1].weight, max1) ? 0 : 1;
    pierced = pierce(problem, grown, max[grown], max[1 - grown], options, seed);
    if (pierced == Pierced::kNone) {
      grown = 1 - grown;
      pierced = pierce(problem, grown, max[grown], max[1 - grown], options, seed);
    }
    if (pierced == Pierced::kNone)
      return false;
  }
  return false;
}

void FlowCutter::pool_neighbours(FlowProblem& problem, Side& side) {
  const FlowNetwork& net = problem.network;
  const auto offsets = net.offsets();
  auto pool = [&](Node x) {
    if (side.pool_mark[x] != side.pool_stamp) {
      side.pool_mark[x] = side.pool_stamp;
      side.pool.push_back(x);
    }
  };
  // Vertices just across the cut: behind a cut edge, or pins of a cut net's far node.
  for (; side.scanned < side.reached.size(); ++side.scanned) {
    const Node u = side.reached[side.scanned];
    if (side.mark[u] != side.stamp)
      continue; // left the side again
    for (FlowNetwork::Arc a = offsets[u]; a < offsets[u + 1]; ++a) {
      const Node v = net.head(a);
      if (side.mark[v] == side.stamp)
        continue;
      if (problem.is_vertex(v)) {
        pool(v);
      } else if (side.pool_mark[v] != side.pool_stamp) {
        side.pool_mark[v] = side.pool_stamp;
        for (FlowNetwork::Arc b = offsets[v]; b < offsets[v + 1]; ++b)
          if (problem.is_vertex(net.head(b)))
            pool(net.head(b));
      }
    }
  }
}

FlowCutter::Pierced FlowCutter::pierce(FlowProblem& problem, int s, std::span<const Weight> max_own,
                                       std::span<const Weight> max_other,
                                       const FlowCutterOptions& options, std::uint64_t seed) {
  FlowNetwork& net = problem.network;
  const int ncon = problem.ncon;
  Side& me = side_[s];
  const Side& other = side_[1 - s];
  pool_neighbours(problem, me);
  candidates_.clear();
  auto consider = [&](Node x) {
    for (int c = 0; c < ncon; ++c)
      if (me.weight[c] + problem.weight(x, c) > max_own[c])
        return;
    const std::size_t i = x - FlowProblem::kFirstVertex;
    const std::int32_t d = problem.distance[i];
    candidates_.push_back(
        {other.mark[x] == other.stamp, problem.side[i] == s ? d : -d, splitmix64(seed ^ x), x});
  };
  std::size_t kept = 0;
  for (Node x : me.pool) {
    if (me.mark[x] == me.stamp || net.terminal(x) != FlowNetwork::kNone)
      continue; // inside the side by now
    me.pool[kept++] = x;
    consider(x);
  }
  me.pool.resize(kept);
  // No vertex behind the cut fits (or the cut nets reach only the other terminal, or the
  // terminals have no pins at all): any vertex outside the side will do.
  if (candidates_.empty())
    for (Node x = FlowProblem::kFirstVertex; x < problem.num_vertex_nodes(); ++x)
      if (me.mark[x] != me.stamp && net.terminal(x) == FlowNetwork::kNone)
        consider(x);
  if (candidates_.empty())
    return Pierced::kNone;

  const FlowNetwork::Terminal t = terminal_of(s);
  for (; me.terminal < me.reached.size(); ++me.terminal)
    if (me.mark[me.reached[me.terminal]] == me.stamp)
      net.make_terminal(me.reached[me.terminal], t);
  std::sort(candidates_.begin(), candidates_.end(), [](const Candidate& a, const Candidate& b) {
    if (a.augmenting != b.augmenting)
      return !a.augmenting;
    if (a.key != b.key)
      return a.key > b.key;
    return a.tie < b.tie;
  });
  pierced_.clear();
  if (candidates_.front().augmenting) {
    net.make_terminal(candidates_.front().node, t);
    pierced_.push_back(candidates_.front().node);
    return Pierced::kAugmenting;
  }
  // Bulk piercing: as long as no augmenting path appears, grow by a share of the weight the
  // side still lacks (constraint 0) in one step instead of one vertex per max-flow round.
  const Weight lacking = problem.total[0] - max_other[0] - me.weight[0];
  const Weight goal =
      static_cast<Weight>(options.bulk_piercing_fraction * static_cast<double>(lacking));
  std::vector<Weight>& added = scratch_;
  added.assign(ncon, 0);
  for (const Candidate& cand : candidates_) {
    if (cand.augmenting)
      break;
    bool ok = true;
    for (int c = 0; c < ncon && ok; ++c)
      ok = me.weight[c] + added[c] + problem.weight(cand.node, c) <= max_own[c];
    if (!ok)
      continue;
    net.make_terminal(cand.node, t);
    pierced_.push_back(cand.node);
    for (int c = 0; c < ncon; ++c)
      added[c] += problem.weight(cand.node, c);
    if (added[0] >= goal)
      break;
  }
  return Pierced::kKeepsFlow;
}

} // namespace gnnpart::hg
