#include "hypergraph/flow_cutter.h"

#include <algorithm>
#include <limits>

#include "core/random.h"

namespace gnnpart {

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
    stamp_ = 1;
  }
  return stamp_;
}

void FlowCutter::recompute(FlowProblem& problem, int s) {
  Side& side = side_[s];
  side.stamp = next_stamp();
  problem.network.reachable(terminal_of(s), side.mark, side.stamp, side.reached);
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
  problem.network.extend_reachable(terminal_of(s), side.mark, side.stamp, side.reached, from);
  for (std::size_t i = from; i < side.reached.size(); ++i)
    if (problem.is_vertex(side.reached[i]))
      for (int c = 0; c < problem.ncon; ++c)
        side.weight[c] += problem.weight(side.reached[i], c);
}

void FlowCutter::absorb_last_search(FlowProblem& problem, int s) {
  Side& side = side_[s];
  const std::size_t from = side.reached.size();
  for (Node x : problem.network.last_search())
    if (side.mark[x] != side.stamp) {
      side.mark[x] = side.stamp;
      side.reached.push_back(x);
    }
  for (std::size_t i = from; i < side.reached.size(); ++i)
    if (problem.is_vertex(side.reached[i]))
      for (int c = 0; c < problem.ncon; ++c)
        side.weight[c] += problem.weight(side.reached[i], c);
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
    }
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
      // All new paths start at the pierced vertex; the grown side's old reachable set stays
      // closed, and the last search of the max flow is what the vertex adds to it.
      if (net.augment_from(terminal_of(grown), pierced_, problem.initial_cut) >=
          problem.initial_cut)
        return false;
      absorb_last_search(problem, grown);
      recompute(problem, 1 - grown);
    } else {
      extend(problem, grown);
    }
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

} // namespace gnnpart
