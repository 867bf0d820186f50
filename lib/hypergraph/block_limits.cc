#include "hypergraph/block_limits.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include "core/partition.h"

namespace gnnpart {

std::vector<Weight> total_weights(const Hypergraph& hg) {
  std::vector<Weight> total(hg.ncon(), 0);
  for (int c = 0; c < hg.ncon(); ++c)
    total[c] = hg.total_vertex_weight(c);
  return total;
}

BlockLimits uniform_limits(const Hypergraph& hg, BlockID k, double epsilon) {
  BlockLimits l;
  l.k = k;
  l.ncon = hg.ncon();
  const auto total = total_weights(hg);
  l.max.resize(static_cast<std::size_t>(k) * l.ncon);
  l.perfect.resize(l.max.size());
  for (BlockID b = 0; b < k; ++b)
    for (int c = 0; c < l.ncon; ++c) {
      l.max[static_cast<std::size_t>(b) * l.ncon + c] = max_block_weight(total[c], k, epsilon);
      l.perfect[static_cast<std::size_t>(b) * l.ncon + c] = (total[c] + k - 1) / k;
    }
  return l;
}

BlockLimits bisection_limits(const Hypergraph& hg, const BlockLimits& limits, BlockID k0) {
  const BlockID k = limits.k;
  const int ncon = limits.ncon;
  const auto total = total_weights(hg);
  const int levels = std::max(1, static_cast<int>(std::bit_width(k - 1))); // ceil(log2 k)
  BlockLimits l;
  l.k = 2;
  l.ncon = ncon;
  l.max.resize(2 * static_cast<std::size_t>(ncon));
  l.perfect.resize(l.max.size());
  for (int c = 0; c < ncon; ++c) {
    Weight cap[2] = {0, 0};
    Weight perfect_sum[2] = {0, 0};
    for (BlockID b = 0; b < k; ++b) {
      cap[b < k0 ? 0 : 1] += limits.max_of(b, c);
      perfect_sum[b < k0 ? 0 : 1] += limits.perfect[static_cast<std::size_t>(b) * ncon + c];
    }
    const double all_perfect = static_cast<double>(perfect_sum[0] + perfect_sum[1]);
    for (int s = 0; s < 2; ++s) {
      // Share of this side in the actual total, and the slack the final limits leave it.
      const double share = all_perfect > 0 ? perfect_sum[s] / all_perfect : 0.5;
      const double target = share * static_cast<double>(total[c]);
      double eps =
          target > 0 ? std::pow(static_cast<double>(cap[s]) / target, 1.0 / levels) - 1 : 0.0;
      eps = std::max(eps, 0.0);
      const Weight perfect = static_cast<Weight>(std::ceil(target));
      Weight max_w = static_cast<Weight>(std::floor((1.0 + eps) * target + 1e-9));
      max_w = std::min(std::max(max_w, perfect), cap[s]);
      l.perfect[static_cast<std::size_t>(s) * ncon + c] = perfect;
      l.max[static_cast<std::size_t>(s) * ncon + c] = std::max(max_w, perfect);
    }
  }
  return l;
}

BlockLimits sub_limits(const BlockLimits& limits, BlockID first, BlockID count) {
  BlockLimits l;
  l.k = count;
  l.ncon = limits.ncon;
  const std::size_t from = static_cast<std::size_t>(first) * limits.ncon;
  const std::size_t to = static_cast<std::size_t>(first + count) * limits.ncon;
  l.max.assign(limits.max.begin() + from, limits.max.begin() + to);
  l.perfect.assign(limits.perfect.begin() + from, limits.perfect.begin() + to);
  return l;
}

} // namespace gnnpart
