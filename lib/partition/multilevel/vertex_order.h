#pragma once
// Deterministic visiting orders: vertices in chunks of consecutive ids (cache friendly), chunks
// shuffled and each chunk shuffled (in parallel), all derived from one seed.
#include <cstdint>
#include <vector>

#include "core/types.h"

namespace gnnpart::ml {

std::vector<NodeID> chunked_random_order(NodeID n, std::uint64_t seed, NodeID chunk = 512);

} // namespace gnnpart::ml
