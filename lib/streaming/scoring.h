#pragma once
// Scoring functions of the streaming partitioners: pure inline functions, unit-tested.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "core/types.h"

namespace gnnpart::streaming {

// Fennel (Tsourakakis et al., WSDM 2014): objective |E_in| - alpha * sum_b |B_b|^gamma with
// alpha = m * k^(gamma-1) / n^gamma (= sqrt(k) * m / n^1.5 for gamma = 1.5).
inline double fennel_alpha(double n, double m, double k, double gamma = 1.5) {
  if (n <= 0)
    return 0;
  return m * std::pow(k, gamma - 1.0) / std::pow(n, gamma);
}
// Marginal cost of adding a vertex to a block holding block_weight.
inline double fennel_penalty(double block_weight, double alpha, double gamma = 1.5) {
  return alpha * gamma * std::pow(block_weight, gamma - 1.0);
}
inline double fennel_penalty_15(double block_weight, double alpha) {
  return alpha * 1.5 * std::sqrt(block_weight);
}
inline double fennel_score(double neighbors_in_block, double block_weight, double alpha,
                           double gamma = 1.5) {
  return neighbors_in_block - fennel_penalty(block_weight, alpha, gamma);
}

// LDG (Stanton & Kliot, KDD 2012): |N(u) in B_b| * (1 - |B_b| / capacity).
inline double ldg_score(double neighbors_in_block, double block_weight, double capacity) {
  return neighbors_in_block * (1.0 - block_weight / capacity);
}

// State of a column net (the net of vertex v = {v} and N(v)) as the streaming volume score
// tracks it in O(1) space, FREIGHT-style: no pin assigned yet, all assigned pins in one block,
// or already cut (connectivity > 1; exact count not kept).
inline constexpr BlockID kNetUnassigned = kInvalidBlockID;
inline constexpr BlockID kNetCut = kInvalidBlockID - 1;

// The state after a pin of the net is placed into block b.
inline BlockID net_state_after(BlockID state, BlockID b) {
  if (state == kNetUnassigned || state == b)
    return b;
  return kNetCut;
}
// lambda - 1 added to the net by placing a pin into b (1 when b would be a second block of a
// net whose pins are all in one other block; 0 otherwise, and 0 for nets already cut, whose
// block set is not tracked).
inline double net_connectivity_increase(BlockID state, BlockID b) {
  return (state != kNetUnassigned && state != kNetCut && state != b) ? 1.0 : 0.0;
}

// Probability that a mini-batch of batch_size targets drawn uniformly (with replacement) from
// train_total training vertices contains at least one of the training_pins training vertices
// of a net — the net's weight in the stochastic hypergraph model of mini-batch traffic.
inline double minibatch_net_weight(double training_pins, double batch_size, double train_total) {
  if (training_pins <= 0 || train_total <= 0)
    return 0.0;
  const double miss_one = 1.0 - std::min(1.0, batch_size / train_total);
  return 1.0 - std::pow(miss_one, training_pins);
}

// HDRF (Petroni et al., CIKM 2015). Replication term for block p of edge (u, v) with partial
// degrees du, dv: g(u) + g(v), g(x) = 1 + (1 - theta(x)) if p already holds x, theta(u) =
// du / (du + dv).
inline double hdrf_replication(bool u_in_p, bool v_in_p, double du, double dv) {
  const double sum = du + dv;
  const double theta_u = sum > 0 ? du / sum : 0.5;
  const double theta_v = 1.0 - theta_u;
  return (u_in_p ? 1.0 + (1.0 - theta_u) : 0.0) + (v_in_p ? 1.0 + (1.0 - theta_v) : 0.0);
}
// Balance term: lambda * (max - |p|) / (epsilon + max - min).
inline double hdrf_balance(double size_p, double max_size, double min_size, double lambda,
                           double epsilon = 1.0) {
  return lambda * (max_size - size_p) / (epsilon + max_size - min_size);
}

} // namespace gnnpart::streaming
