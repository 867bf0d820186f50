// METIS backend: METIS_PartGraphKway on the CSR graph, then a check of our balance bound and,
// where METIS overshoots it (its tolerance differs from ours), a small repair pass.
#include "partition/metis_backend.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include <fmt/format.h>

#include "core/block_limits.h"
#include "core/errors.h"
#include "core/options.h"
#include "partition/metis_library.h"
#include "partition/multilevel/refinement/rebalancer.h"
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
  if (bounds.size() != static_cast<std::size_t>(graph.ncon()))
    throw InvalidParameter("repair_balance: one bound per constraint expected");
  check_partition(partition, graph.num_nodes());
  BlockLimits limits;
  limits.k = partition.k;
  limits.ncon = graph.ncon();
  for (BlockID b = 0; b < partition.k; ++b)
    limits.max_weight.insert(limits.max_weight.end(), bounds.begin(), bounds.end());
  ml::PartitionedGraph p(graph, partition.k, std::move(partition.blocks));
  const std::size_t moves = ml::repair_overload(p, limits);
  partition.blocks = p.take_blocks();
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

  const MetisLibrary& metis = metis_library();
  idx_t metis_options[METIS_NOPTIONS];
  metis.set_default_options(metis_options);
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
  const int status = metis.part_graph_kway(
      &nvtxs, &ncon, xadj.data(), adjncy.data(), vwgt.empty() ? nullptr : vwgt.data(), nullptr,
      adjwgt.empty() ? nullptr : adjwgt.data(), &nparts, nullptr, ubvec.data(), metis_options,
      &objval, part.data());
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
