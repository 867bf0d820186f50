#pragma once
// How far back each operand row of a block's SpMM was last read: the LRU stack distance (the
// number of distinct rows read in between) of every nonzero's column, in the order the
// trainer's row-wise SpMM reads them (owned rows in increasing global id, the self loop first).
// A read whose distance times the row's bytes fits in a core's cache is a cache hit; graphs
// whose neighbourhoods overlap (cliques of co-authors, communities numbered together) reuse
// rows, a random split of them much less, and a synthetic random block not at all.
#include <array>
#include <cstdint>
#include <vector>

#include "core/graph.h"
#include "core/partition.h"

namespace gnnpart::cost {

// reads[b]: reads at distance d with bit_width(d) == b (d = 0 in bin 0, 1 in bin 1, 2-3 in
// bin 2, ...); first reads (cold) are not in it.
struct ReuseHistogram {
  std::array<std::uint64_t, 33> reads{};
  // Reads at distance below `rows` (interpolated inside the boundary bin in log distance).
  double reads_within(double rows) const;
  bool empty() const;
};

struct BlockReuse {
  ReuseHistogram local; // reads of owned rows (the local SpMM and its transpose)
  ReuseHistogram halo;  // reads of halo rows (the halo SpMM and its transpose)
};

// One entry per block of a partition that fits the graph (block_traffic checks it).
std::vector<BlockReuse> block_reuse(const CsrGraph& graph, const Partition& partition);

} // namespace gnnpart::cost
