#include "hypergraph/subhypergraph.h"

namespace gnnpart::hg {

SubHypergraph extract_block(const Hypergraph& hg, std::span<const BlockID> blocks, BlockID block,
                            Objective objective) {
  const NodeID n = hg.num_nodes();
  const int ncon = hg.ncon();
  std::vector<NodeID> local(n, kInvalidNodeID);
  SubHypergraph sub;
  for (NodeID u = 0; u < n; ++u)
    if (blocks[u] == block) {
      local[u] = static_cast<NodeID>(sub.original.size());
      sub.original.push_back(u);
    }
  std::vector<EdgeID> offsets{0};
  std::vector<NodeID> pins;
  std::vector<Weight> weights;
  const bool split = objective != Objective::kCut;
  for (NetID e = 0; e < hg.num_nets(); ++e) {
    const std::size_t start = pins.size();
    bool all_inside = true;
    for (NodeID p : hg.pins(e)) {
      if (local[p] != kInvalidNodeID)
        pins.push_back(local[p]);
      else
        all_inside = false;
    }
    if (pins.size() - start < 2 || (!split && !all_inside)) {
      pins.resize(start);
      continue;
    }
    offsets.push_back(pins.size());
    weights.push_back(hg.net_weight(e));
  }
  // An empty side keeps unit weights (the hypergraph needs ncon = 1 without weights).
  const int sub_ncon = sub.original.empty() ? 1 : ncon;
  std::vector<Weight> vw(sub.original.size() * static_cast<std::size_t>(ncon));
  for (std::size_t v = 0; v < sub.original.size(); ++v)
    for (int c = 0; c < ncon; ++c)
      vw[v * ncon + c] = hg.vertex_weight(sub.original[v], c);
  sub.hypergraph = Hypergraph(static_cast<NodeID>(sub.original.size()), std::move(offsets),
                              std::move(pins), std::move(weights), sub_ncon, std::move(vw));
  return sub;
}

} // namespace gnnpart::hg
