#pragma once
// Merging of identical nets by fingerprint hashing: nets with the same pin set become one net
// whose weight is the sum. Used by contraction and by the stochastic model.
#include <span>
#include <vector>

#include "core/types.h"

namespace gnnpart::hg {

struct NetList {
  std::vector<EdgeID> offsets{0};
  std::vector<NodeID> pins;    // sorted within each net
  std::vector<Weight> weights; // one per net
};

// Keeps the first net (lowest id) of every class of identical nets, in original order, with
// the summed weight; drops nets with fewer than `min_size` pins. Deterministic (hashes in
// parallel, the merge in one pass through a hash table).
// Works in the arrays of `nets` (kept nets move left), so no second pin array is alive.
NetList merge_identical_nets(NetList nets, NodeID min_size = 2);

// Order-independent of thread count: hash of a sorted pin list.
std::uint64_t net_fingerprint(std::span<const NodeID> pins);

} // namespace gnnpart::hg
