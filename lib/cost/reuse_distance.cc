#include "cost/reuse_distance.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace gnnpart::cost {
namespace {

// Reads of one access sequence: a Fenwick tree over read positions marks each row's latest
// read; the distance of a read is the number of marks after the row's previous read.
class StackDistance {
public:
  explicit StackDistance(std::size_t reads) : tree_(reads + 1, 0) {}
  // Position of this read; `previous` the row's last read position + 1 (0: never read).
  void read(std::uint64_t& previous, ReuseHistogram& histogram) {
    const std::size_t now = ++time_;
    if (previous != 0) {
      const std::uint64_t distance = count(now - 1) - count(previous);
      // distance < distinct rows < 2^32 (32-bit vertex ids): bins 0..32
      histogram.reads[std::min<std::size_t>(std::bit_width(distance), 32)] += 1;
      add(previous, -1);
    }
    add(now, 1);
    previous = now;
  }

private:
  void add(std::size_t i, std::int64_t delta) {
    for (; i < tree_.size(); i += i & (~i + 1))
      tree_[i] += delta;
  }
  std::uint64_t count(std::size_t i) const { // marks at positions 1..i
    std::int64_t sum = 0;
    for (; i > 0; i -= i & (~i + 1))
      sum += tree_[i];
    return static_cast<std::uint64_t>(sum);
  }
  std::vector<std::int64_t> tree_;
  std::size_t time_ = 0;
};

} // namespace

double ReuseHistogram::reads_within(double rows) const {
  double within = 0;
  for (std::size_t b = 0; b < reads.size(); ++b) {
    // Bin b holds distances [lo, hi): 0 for b = 0, else [2^(b-1), 2^b).
    const double lo = b == 0 ? 0 : std::ldexp(1.0, static_cast<int>(b) - 1);
    const double hi = b == 0 ? 1 : 2 * lo;
    if (rows >= hi)
      within += static_cast<double>(reads[b]);
    else if (rows > lo)
      within += static_cast<double>(reads[b]) *
                (b == 0 ? rows : std::log2(rows / lo)); // share of the bin, in log distance
  }
  return within;
}

bool ReuseHistogram::empty() const {
  for (const std::uint64_t r : reads) {
    if (r != 0)
      return false;
  }
  return true;
}

std::vector<BlockReuse> block_reuse(const CsrGraph& graph, const Partition& partition) {
  const NodeID n = graph.num_nodes();
  std::vector<BlockReuse> reuse(partition.k);
  // Vertices by block, increasing (the owned rows of each block in the trainer's order).
  std::vector<EdgeID> start(partition.k + 1, 0);
  for (NodeID u = 0; u < n; ++u)
    start[partition.blocks[u] + 1] += 1;
  for (BlockID b = 0; b < partition.k; ++b)
    start[b + 1] += start[b];
  std::vector<NodeID> order(n);
  std::vector<EdgeID> fill(start.begin(), start.end() - 1);
  for (NodeID u = 0; u < n; ++u)
    order[fill[partition.blocks[u]]++] = u;
  // Last read position (+1) per row; a row is owned by one block and halo of others, and the
  // two sequences of a block read disjoint rows, so one array serves both, reset per block.
  std::vector<std::uint64_t> last(n, 0);
  for (BlockID b = 0; b < partition.k; ++b) {
    std::size_t local_reads = 0, halo_reads = 0;
    for (EdgeID i = start[b]; i < start[b + 1]; ++i) {
      local_reads += 1;
      for (const NodeID v : graph.neighbors(order[i]))
        (partition.blocks[v] == b ? local_reads : halo_reads) += 1;
    }
    StackDistance local(local_reads), halo(halo_reads);
    for (EdgeID i = start[b]; i < start[b + 1]; ++i) {
      const NodeID u = order[i];
      local.read(last[u], reuse[b].local);
      for (const NodeID v : graph.neighbors(u)) {
        if (partition.blocks[v] == b)
          local.read(last[v], reuse[b].local);
        else
          halo.read(last[v], reuse[b].halo);
      }
    }
    for (EdgeID i = start[b]; i < start[b + 1]; ++i) { // reset what this block touched
      last[order[i]] = 0;
      for (const NodeID v : graph.neighbors(order[i]))
        last[v] = 0;
    }
  }
  return reuse;
}

} // namespace gnnpart::cost
