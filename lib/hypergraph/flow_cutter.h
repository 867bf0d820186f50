#pragma once
// FlowCutter (Hamann & Strasser; HyperFlowCutter by Gottesbüren, Hamann & Wagner) on a block
// pair's FlowProblem: compute a max flow between the terminal sets; if neither the source-side
// nor the sink-side min cut is balanced, make the lighter side's reachable set terminal and
// pierce it with more vertices, then augment the same flow further. The cut only grows, so the
// first balanced cut is the best this sequence finds; the search stops as soon as the flow
// reaches the current cut (no improvement left).
// Piercing prefers vertices that create no augmenting path (the cut stays the same), then
// vertices of the growing side's own block far from the cut, then vertices of the other block
// close to it, so the sides first grow back towards the current partition. While no augmenting
// path is created, several vertices are pierced at once (bulk piercing), and the reachable
// sets and piercing candidates are extended instead of recomputed: the residual network did
// not change.
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "hypergraph/flow_problem.h"

namespace gnnpart::hg {

struct FlowCutterOptions {
  double bulk_piercing_fraction = 0.25; // of the weight the side still lacks, per step
  int max_iterations = 1000;
  // Tests: after every incremental update, compare both reachable sets with new searches
  // (throws Error on a difference).
  bool check_incremental = false;
};

class FlowCutter {
public:
  // A cut of `problem` below its initial cut whose b0 side fits max0 and b1 side fits max1
  // (ncon entries each). On success, assignment[i] is the new side (0: b0, 1: b1) of region
  // vertex i and the cut's value is problem.network.flow_value().
  bool run(FlowProblem& problem, std::span<const Weight> max0, std::span<const Weight> max1,
           const FlowCutterOptions& options, std::uint64_t seed,
           std::vector<std::uint8_t>& assignment);

  int iterations() const { return iterations_; } // of the last run

private:
  using Node = FlowNetwork::Node;
  static constexpr FlowNetwork::Arc kNoArc = std::numeric_limits<FlowNetwork::Arc>::max();
  // One side of the cut: its terminals' residual reachable set (side 0: from the sources;
  // side 1: towards the sinks), the weight of that set, and the vertices just across it.
  struct Side {
    std::vector<std::uint32_t> mark; // == stamp: reached
    std::uint32_t stamp = 0;
    std::vector<Node> reached;            // in order of arrival; nodes may have left since
    std::vector<FlowNetwork::Arc> parent; // per reached node: its search tree arc
    std::vector<Weight> weight;
    std::size_t terminal = 0;             // reached[0, terminal) are terminals
    std::size_t scanned = 0;              // reached[0, scanned) had their neighbours pooled
    std::vector<std::uint32_t> pool_mark; // == pool_stamp: pooled vertex or expanded net node
    std::uint32_t pool_stamp = 0;
    std::vector<Node> pool; // piercing candidates (lazily cleaned)
  };
  struct Candidate {
    bool augmenting; // reachable by the other side: piercing it adds flow
    std::int32_t key;
    std::uint64_t tie;
    Node node;
  };
  enum class Pierced { kNone, kAugmenting, kKeepsFlow };

  std::uint32_t next_stamp();
  // Reachable set of side s from scratch (after the flow changed).
  void recompute(FlowProblem& problem, int s);
  // Adds the pierced vertices of side s and what they reach (the flow did not change).
  void extend(FlowProblem& problem, int s);
  // After flow was pushed from the other side's pierced vertex: side s loses the nodes whose
  // tree path to a terminal ran over a drained arc and that find no other (Boykov-Kolmogorov's
  // orphan adoption), instead of a new search over the whole side.
  void shrink(FlowProblem& problem, int s);
  // Makes side s's reachable set terminal and pierces it.
  Pierced pierce(FlowProblem& problem, int s, std::span<const Weight> max_own,
                 std::span<const Weight> max_other, const FlowCutterOptions& options,
                 std::uint64_t seed);
  void pool_neighbours(FlowProblem& problem, Side& side);
  void check_sides(FlowProblem& problem);

  std::uint32_t stamp_ = 0;
  Side side_[2];
  int iterations_ = 0;
  std::vector<Candidate> candidates_;
  std::vector<Node> pierced_;
  std::vector<Node> orphans_;
  std::vector<Node> removed_;
  std::vector<Node> walk_;
  std::vector<std::uint32_t> valid_; // == a shrink's stamp: known to hang from a terminal
  std::vector<std::uint32_t> check_mark_;
  std::vector<Node> check_reached_;
  std::vector<FlowNetwork::Arc> check_parent_;
  std::vector<Weight> scratch_;
};

} // namespace gnnpart::hg
