// METIS backend: METIS_PartGraphKway on the CSR graph, then a check of our balance bound and,
// where METIS overshoots it (its tolerance differs from ours), a small repair pass.
#include "partition/metis_backend.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include <fmt/format.h>
#include <metis.h>

#include "core/block_limits.h"
#include "core/errors.h"
#include "core/options.h"
#include "partition/partitioner.h"

namespace gnnpart {

namespace {

constexpr std::int64_t kIdxMax = std::numeric_limits<idx_t>::max();

idx_t to_idx(std::int64_t value, const char* what) {
  if (value < 0 || value > kIdxMax)
    throw Unsupported(fmt::format(
        "{} = {} does not fit METIS's 32-bit idx_t; use --algo multilevel", what, value));
  return static_cast<idx_t>(value);
}

// Total per constraint, rejecting negative weights.
std::vector<Weight> constraint_totals(const CsrGraph& graph) {
  const int ncon = graph.ncon();
  std::vector<Weight> totals(ncon, 0);
  if (!graph.has_vertex_weights()) {
    totals[0] = graph.num_nodes();
    return totals;
  }
  const auto weights = graph.vertex_weights();
  for (std::size_t i = 0; i < weights.size(); ++i) {
    if (weights[i] < 0)
      throw InvalidParameter(fmt::format("vertex {} has negative weight {} in constraint {}",
                                         i / ncon, weights[i], i % ncon));
    totals[i % ncon] += weights[i];
  }
  return totals;
}

} // namespace

void check_metis_status(int status, std::string_view what) {
  switch (status) {
  case METIS_OK:
    return;
  case METIS_ERROR_INPUT:
    throw InvalidParameter(fmt::format("{}: METIS rejected its input (METIS_ERROR_INPUT)", what));
  case METIS_ERROR_MEMORY:
    throw SystemError(fmt::format("{}: METIS ran out of memory (METIS_ERROR_MEMORY)", what));
  default:
    throw Error(fmt::format("{}: METIS failed with status {}", what, status));
  }
}

std::vector<Weight> balance_bounds(const CsrGraph& graph, BlockID k, double epsilon) {
  return balance_bounds(constraint_totals(graph), k, epsilon);
}

bool is_balanced(const CsrGraph& graph, const Partition& partition,
                 std::span<const Weight> bounds) {
  const std::vector<Weight> weights = block_weights(graph, partition);
  const int ncon = graph.ncon();
  for (std::size_t i = 0; i < weights.size(); ++i) {
    if (weights[i] > bounds[i % ncon])
      return false;
  }
  return true;
}

std::size_t repair_balance(const CsrGraph& graph, Partition& partition,
                           std::span<const Weight> bounds) {
  const NodeID n = graph.num_nodes();
  const BlockID k = partition.k;
  const int ncon = graph.ncon();
  if (bounds.size() != static_cast<std::size_t>(ncon))
    throw InvalidParameter("repair_balance: one bound per constraint expected");
  std::vector<Weight> weights = block_weights(graph, partition); // checks the partition
  std::vector<NodeID> sizes(k, 0);
  for (NodeID u = 0; u < n; ++u)
    ++sizes[partition.blocks[u]];
  auto& blocks = partition.blocks;
  auto w = [&](BlockID b, int c) -> Weight& {
    return weights[static_cast<std::size_t>(b) * ncon + c];
  };
  auto fits = [&](NodeID u, BlockID t) {
    for (int c = 0; c < ncon; ++c) {
      if (w(t, c) + graph.vertex_weight(u, c) > bounds[c])
        return false;
    }
    return true;
  };
  auto move = [&](NodeID u, BlockID t) {
    const BlockID b = blocks[u];
    for (int c = 0; c < ncon; ++c) {
      w(b, c) -= graph.vertex_weight(u, c);
      w(t, c) += graph.vertex_weight(u, c);
    }
    --sizes[b];
    ++sizes[t];
    blocks[u] = t;
  };
  // Edge weight from u into its own block.
  auto internal = [&](NodeID u) {
    Weight sum = 0;
    for (EdgeID e = graph.first_edge(u); e < graph.last_edge(u); ++e)
      if (blocks[graph.edge_target(e)] == blocks[u])
        sum += graph.edge_weight(e);
    return sum;
  };
  std::size_t moves = 0;

  // 1. Fill empty blocks (n >= k) with the cheapest vertex of the most populated block.
  if (n >= k) {
    for (BlockID t = 0; t < k; ++t) {
      if (sizes[t] != 0)
        continue;
      const BlockID source =
          static_cast<BlockID>(std::max_element(sizes.begin(), sizes.end()) - sizes.begin());
      NodeID best = kInvalidNodeID;
      Weight best_loss = 0;
      for (NodeID u = 0; u < n; ++u) {
        if (blocks[u] != source || !fits(u, t))
          continue;
        const Weight loss = internal(u);
        if (best == kInvalidNodeID || loss < best_loss) {
          best = u;
          best_loss = loss;
        }
      }
      if (best == kInvalidNodeID)
        throw InfeasibleBalance(fmt::format("block {} is empty and no vertex fits into it", t));
      move(best, t);
      ++moves;
    }
  }

  // 2. Move vertices out of overloaded blocks until every bound holds. A move is taken only if
  // it lowers the total overload, each constraint's overload counted relative to its bound;
  // moves into blocks with room come first, then by edge gain. A move may overload the target
  // in a looser constraint when that relieves a tighter one (a training vertex into a block
  // that is full of plain vertices), which a later move then fixes. The total strictly
  // decreases, so this ends; a cap on the rounds guards against rounding.
  std::vector<double> scale(ncon, 1.0);
  for (int c = 0; c < ncon; ++c)
    scale[c] = 1.0 / static_cast<double>(std::max<Weight>(bounds[c], 1));
  auto excess = [&](BlockID b, int c, Weight change) {
    return std::max<Weight>(0, w(b, c) + change - bounds[c]);
  };
  // Change of the relative total overload if u moved from its block to t.
  auto overload_delta = [&](NodeID u, BlockID t) {
    const BlockID b = blocks[u];
    double delta = 0;
    for (int c = 0; c < ncon; ++c) {
      const Weight x = graph.vertex_weight(u, c);
      if (x == 0)
        continue;
      const Weight change =
          (excess(b, c, -x) - excess(b, c, 0)) + (excess(t, c, x) - excess(t, c, 0));
      delta += static_cast<double>(change) * scale[c];
    }
    return delta;
  };
  constexpr double kTolerance = 1e-12;
  std::vector<Weight> conn(k, 0);
  std::vector<BlockID> touched;
  struct Candidate {
    int fits; // 1: the target keeps every bound
    Weight gain;
    NodeID u;
    BlockID target;
  };
  std::vector<Candidate> candidates;
  auto relevant = [&](NodeID u) {
    const BlockID b = blocks[u];
    if (n >= k && sizes[b] <= 1)
      return false;
    for (int c = 0; c < ncon; ++c)
      if (w(b, c) > bounds[c] && graph.vertex_weight(u, c) > 0)
        return true;
    return false;
  };
  const std::size_t max_rounds = 4 * static_cast<std::size_t>(n) + 16;
  for (std::size_t round = 0;; ++round) {
    std::vector<char> overloaded(k, 0);
    bool any = false;
    for (BlockID b = 0; b < k; ++b) {
      for (int c = 0; c < ncon; ++c) {
        if (w(b, c) > bounds[c])
          overloaded[b] = 1;
      }
      any = any || overloaded[b];
    }
    if (!any)
      break;
    if (round == max_rounds)
      throw InfeasibleBalance("could not bring every block within the balance bound; raise "
                              "--epsilon");
    // Fallback targets: for each constraint, the block carrying least of it.
    std::vector<BlockID> lightest(ncon, 0);
    for (int c = 0; c < ncon; ++c) {
      for (BlockID b = 1; b < k; ++b)
        if (w(b, c) < w(lightest[c], c))
          lightest[c] = b;
    }
    candidates.clear();
    for (NodeID u = 0; u < n; ++u) {
      const BlockID b = blocks[u];
      if (!overloaded[b] || !relevant(u))
        continue;
      for (EdgeID e = graph.first_edge(u); e < graph.last_edge(u); ++e) {
        const BlockID q = blocks[graph.edge_target(e)];
        if (conn[q] == 0)
          touched.push_back(q);
        conn[q] += graph.edge_weight(e);
      }
      const Weight own = conn[b];
      Candidate best{-1, 0, u, kInvalidBlockID};
      auto consider = [&](BlockID t) {
        if (t == b || overload_delta(u, t) >= -kTolerance)
          return;
        const Candidate cand{fits(u, t) ? 1 : 0, conn[t] - own, u, t};
        if (std::tie(cand.fits, cand.gain, best.target) > std::tie(best.fits, best.gain, t))
          best = cand;
      };
      for (const BlockID t : touched)
        consider(t);
      for (const BlockID t : lightest)
        consider(t);
      for (const BlockID t : touched)
        conn[t] = 0;
      touched.clear();
      if (best.target != kInvalidBlockID)
        candidates.push_back(best);
    }
    std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
      return std::tie(b.fits, b.gain, a.u) < std::tie(a.fits, a.gain, b.u);
    });
    std::size_t applied = 0;
    for (const Candidate& cand : candidates) {
      if (!relevant(cand.u) || overload_delta(cand.u, cand.target) >= -kTolerance)
        continue;
      move(cand.u, cand.target);
      ++applied;
    }
    if (applied == 0)
      throw InfeasibleBalance(
          "could not bring every block within the balance bound (no move of a vertex out of an "
          "overloaded block helps); raise --epsilon");
    moves += applied;
  }
  return moves;
}

Partition partition_graph_metis(const CsrGraph& graph, const PartitionOptions& options) {
  const NodeID n = graph.num_nodes();
  check_options(options, n);
  check_balance_feasible(graph, options.k, options.epsilon);
  const BlockID k = options.k;
  Partition partition{k, std::vector<BlockID>(n, 0)};
  if (n == 0 || k == 1)
    return partition;
  if (options.objective != Objective::kCut && options.objective != Objective::kVolume)
    throw Unsupported(fmt::format("the METIS backend optimizes cut or volume, not {}",
                                  to_string(options.objective)));

  // Convert the CSR arrays to METIS's 32-bit idx_t, refusing what does not fit.
  idx_t nvtxs = to_idx(n, "number of vertices");
  idx_t ncon = graph.ncon();
  idx_t nparts = to_idx(k, "k");
  if (graph.num_directed_edges() > static_cast<EdgeID>(kIdxMax))
    throw Unsupported(fmt::format("{} adjacency entries (2m) do not fit METIS's 32-bit idx_t; use "
                                  "--algo multilevel",
                                  graph.num_directed_edges()));
  const auto offsets = graph.offsets();
  const auto adjacency = graph.adjacency();
  std::vector<idx_t> xadj(offsets.size());
  for (std::size_t i = 0; i < offsets.size(); ++i)
    xadj[i] = static_cast<idx_t>(offsets[i]);
  std::vector<idx_t> adjncy(adjacency.size());
  for (NodeID u = 0; u < n; ++u) {
    for (EdgeID e = offsets[u]; e < offsets[u + 1]; ++e) {
      if (adjacency[e] == u)
        throw InvalidParameter(
            fmt::format("vertex {} has a self loop, which METIS cannot take", u));
      adjncy[e] = static_cast<idx_t>(adjacency[e]);
    }
  }
  std::vector<idx_t> vwgt;
  const std::vector<Weight> totals = constraint_totals(graph);
  if (graph.has_vertex_weights()) {
    for (int c = 0; c < ncon; ++c)
      to_idx(totals[c], fmt::format("total vertex weight of constraint {}", c).c_str());
    const auto weights = graph.vertex_weights();
    vwgt.assign(weights.begin(), weights.end()); // every entry <= its total, checked above
  }
  std::vector<idx_t> adjwgt;
  if (graph.has_edge_weights()) {
    const auto weights = graph.edge_weights();
    Weight total = 0;
    for (std::size_t e = 0; e < weights.size(); ++e) {
      if (weights[e] <= 0)
        throw InvalidParameter(fmt::format("edge entry {} has weight {}; METIS needs positive "
                                           "edge weights",
                                           e, weights[e]));
      total += weights[e];
      if (total > kIdxMax)
        to_idx(total, "total edge weight");
    }
    adjwgt.assign(weights.begin(), weights.end());
  }

  // Our bound is floor((1 + eps) * ceil(W / k)); METIS allows ubvec * W / k (plus a tolerance
  // of 0.00005 * W / k), so ubvec expresses epsilon as exactly our bound. Any overshoot left by
  // METIS is repaired below.
  const std::vector<Weight> bounds = balance_bounds(graph, k, options.epsilon);
  std::vector<real_t> ubvec(ncon);
  for (int c = 0; c < ncon; ++c) {
    double ub = 1.0 + options.epsilon;
    if (totals[c] > 0)
      ub = static_cast<double>(bounds[c]) * k / static_cast<double>(totals[c]) - 0.00005;
    ubvec[c] = static_cast<real_t>(std::max(ub, 1.0001));
  }

  idx_t metis_options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(metis_options);
  metis_options[METIS_OPTION_NUMBERING] = 0;
  metis_options[METIS_OPTION_SEED] = static_cast<idx_t>(options.seed & 0x7fffffffULL);
  metis_options[METIS_OPTION_UFACTOR] =
      static_cast<idx_t>(std::max(1.0, std::floor(options.epsilon * 1000.0)));
  metis_options[METIS_OPTION_OBJTYPE] =
      options.objective == Objective::kVolume ? METIS_OBJTYPE_VOL : METIS_OBJTYPE_CUT;
  switch (options.preset) {
  case Preset::kFast:
    metis_options[METIS_OPTION_NITER] = 4;
    break;
  case Preset::kDefault:
    break;
  case Preset::kStrong:
    metis_options[METIS_OPTION_NCUTS] = 4;
    metis_options[METIS_OPTION_NITER] = 20;
    break;
  }

  idx_t objval = 0;
  std::vector<idx_t> part(n, 0);
  options.logger.info("metis: n = {}, 2m = {}, ncon = {}, k = {}", n, adjacency.size(), ncon, k);
  const int status = METIS_PartGraphKway(&nvtxs, &ncon, xadj.data(), adjncy.data(),
                                         vwgt.empty() ? nullptr : vwgt.data(), nullptr,
                                         adjwgt.empty() ? nullptr : adjwgt.data(), &nparts, nullptr,
                                         ubvec.data(), metis_options, &objval, part.data());
  check_metis_status(status, "METIS_PartGraphKway");
  for (NodeID u = 0; u < n; ++u) {
    if (part[u] < 0 || part[u] >= nparts)
      throw Error(fmt::format("METIS put vertex {} into block {} (k = {})", u, part[u], k));
    partition.blocks[u] = static_cast<BlockID>(part[u]);
  }
  const std::size_t moves = repair_balance(graph, partition, bounds);
  if (moves > 0)
    options.logger.info("metis: moved {} vertices to meet the balance bound or fill empty blocks",
                        moves);
  return partition;
}

} // namespace gnnpart
