#include "hypergraph/block_limits.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include "core/partition.h"

namespace gnnpart::hg {

BlockLimits bisection_limits(const Hypergraph& hg, const BlockLimits& limits, BlockID k0) {
  const BlockID k = limits.k;
  const int ncon = limits.ncon;
  const auto total = vertex_weight_totals(hg);
  const int levels = std::max(1, static_cast<int>(std::bit_width(k - 1))); // ceil(log2 k)
  BlockLimits l;
  l.k = 2;
  l.ncon = ncon;
  l.max_weight.resize(2 * static_cast<std::size_t>(ncon));
  l.perfect.resize(l.max_weight.size());
  for (int c = 0; c < ncon; ++c) {
    Weight cap[2] = {0, 0};
    Weight perfect_sum[2] = {0, 0};
    for (BlockID b = 0; b < k; ++b) {
      cap[b < k0 ? 0 : 1] += limits.max(b, c);
      perfect_sum[b < k0 ? 0 : 1] += limits.perfect_of(b, c);
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
      l.max_weight[static_cast<std::size_t>(s) * ncon + c] = std::max(max_w, perfect);
    }
  }
  return l;
}

} // namespace gnnpart::hg
