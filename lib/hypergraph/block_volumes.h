#pragma once
// Per-block communication of a partition whose nets have owners: the column-net model of a 1D
// row split, where net u = {u} and N(u) belongs to vertex u. A net e with connectivity lambda
// makes its owner's block send lambda - 1 rows (one to every other block it touches) and every
// other block it touches receive one; all weighted by w(e). So the total volume is km1.
// BlockVolumes keeps, for every pair of blocks, what the first sends the second, and from it
// each block's send and receive volume and message counts, plus the rows and nonzeros each
// block owns (cost::BlockTraffic's fields for the epoch model). It prices a move before it is
// made (delta) and takes it afterwards (apply), both in O(pins of the mover's nets).
#include <cstdint>
#include <span>
#include <vector>

#include "core/types.h"
#include "cost/block_traffic.h"
#include "hypergraph/partitioned_hypergraph.h"

namespace gnnpart::hg {

// The most blocks BlockVolumes takes: it keeps a dense k x k table.
inline constexpr BlockID kMaxVolumeBlocks = 4096;

// What moving one vertex from block `from` to block `to` changes.
struct MoveDelta {
  struct Pair {
    BlockID sender = 0;
    BlockID receiver = 0;
    Weight volume = 0; // change of what sender sends receiver (never 0 after delta())
  };
  BlockID from = 0;
  BlockID to = 0;
  NodeID count = 1;                   // vertices moved
  std::vector<Pair> pairs;            // sorted by (sender, receiver), one entry per pair
  std::int64_t local_nnz[2] = {0, 0}; // change for from, to
  std::int64_t halo_nnz[2] = {0, 0};
  Weight total = 0; // change of the total volume (km1)
};

// The change of one block's traffic under a move.
struct BlockChange {
  BlockID block = 0;
  Weight send = 0;
  Weight recv = 0;
  std::int64_t send_messages = 0;
  std::int64_t recv_messages = 0;
};

// What a move changes of each block's send + receive volume and of the total: the max-volume
// objective's part of a MoveDelta (changes() summed per block), without the pair table.
struct VolumeChange {
  std::vector<Weight> by_block; // k entries; nonzero only for blocks in `blocks`
  std::vector<BlockID> blocks;  // the blocks a net of the move charged, first-touched order
  std::vector<char> listed;     // k entries: b is in `blocks`
  Weight total = 0;
};

// One net of a moving unit (a vertex or a group of one block): how many of its pins move, and
// whether its owner is one of them.
struct UnitNet {
  NetID net = 0;
  std::uint32_t moving = 1;
  bool owner_moves = false;
};

// A unit's move priced to every block at once (BlockVolumes::price_all_targets): what every
// target shares, and per target what differs because some of the unit's nets already touch it.
struct AllTargets {
  struct Reach {
    BlockID to = 0;    // a target one of the nets touches
    BlockID owner = 0; // that net's owner block, which then does not start sending it to `to`
    Weight volume = 0;
  };
  BlockID from = 0;
  std::vector<BlockID> targets; // the blocks the unit's nets touch, other than from; sorted
  VolumeChange base;            // the changes of a target no net touches, the target's own aside
  Weight to_all = 0;            // the target's own change if no net touches it
  std::vector<Weight> to_less;  // per block (k): how much less when it is the target
  std::vector<Weight> total_less;
  std::vector<char> is_target; // per block (k)
  // Grouped by target: target t's group ends at reach_end[t] (per block, k entries).
  std::vector<Reach> reaches;
  std::vector<std::uint32_t> reach_end;
  std::vector<Reach> unsorted; // scratch
};

class BlockVolumes {
public:
  // owners[e]: the pin of net e that owns it (for the column-net model, e itself). Throws
  // InvalidParameter when an owner is not a pin of its net, or k > kMaxVolumeBlocks.
  BlockVolumes(const PartitionedHypergraph& phg, std::span<const NodeID> owners);

  BlockID k() const { return k_; }
  Weight send(BlockID b) const { return send_[b]; }
  Weight recv(BlockID b) const { return recv_[b]; }
  Weight volume(BlockID b) const { return send_[b] + recv_[b]; }
  Weight total() const { return total_; }                 // = km1
  std::int64_t rows(BlockID b) const { return rows_[b]; } // vertices
  Weight max_volume() const;
  Weight pair(BlockID sender, BlockID receiver) const {
    return pair_[static_cast<std::size_t>(sender) * k_ + receiver];
  }

  // What moving u to `to` (!= its block) in phg's current state would change.
  void delta(const PartitionedHypergraph& phg, NodeID u, BlockID to, MoveDelta& out) const;
  // The same for moving a group of vertices of one block together (sorted, no repeats), with
  // `nets` = group_nets(group): O(|nets|).
  void delta(const PartitionedHypergraph& phg, std::span<const NodeID> group,
             std::span<const NetID> nets, BlockID to, MoveDelta& out) const;
  // The nets of a group's vertices, one entry per pin of the group, sorted.
  static void group_nets(const Hypergraph& hg, std::span<const NodeID> group,
                         std::vector<NetID>& nets);
  // The nets of a unit with its pin counts and ownership (group: sorted, no repeats).
  void unit_nets(const Hypergraph& hg, NodeID u, std::vector<UnitNet>& out) const;
  void unit_nets(const Hypergraph& hg, std::span<const NodeID> group, std::vector<NetID>& scratch,
                 std::vector<UnitNet>& out) const;
  // Prices moving the unit with `nets`, all of whose pins in it are in block `from`, to every
  // block at once: O(sum of the nets' connectivities), then volume_change_to for each target.
  void price_all_targets(const PartitionedHypergraph& phg, std::span<const UnitNet> nets,
                         BlockID from, AllTargets& out) const;
  // The volume changes of moving that unit to `to` (any block but from): O(changed blocks).
  static void volume_change_to(const AllTargets& all, BlockID to, VolumeChange& out);
  // The per-block changes of a delta (blocks in first-touched order).
  void changes(const MoveDelta& delta, std::vector<BlockChange>& out) const;
  // Takes a move priced by delta() in the state before it (call before or after phg.move).
  void apply(const MoveDelta& delta);

  // Every block's traffic in the units of lib/cost (unit net weights: rows).
  std::vector<cost::BlockTraffic> traffic() const;
  // Scratch of traffic_after, one per thread.
  struct TrafficScratch {
    std::vector<cost::BlockTraffic> blocks;
    std::vector<BlockID> dirty; // blocks that differ from the state `version` describes
    std::vector<BlockChange> changes;
    std::uint64_t version = ~std::uint64_t{0};
  };
  // Every block's traffic with a priced move applied, in scratch.blocks; O(blocks touched)
  // between two apply() calls, O(k) for the first call after one.
  const std::vector<cost::BlockTraffic>& traffic_after(const MoveDelta& delta,
                                                       TrafficScratch& scratch) const;

private:
  static void start_delta(BlockID from, BlockID to, NodeID count, MoveDelta& out);
  // Adds net e's change when `moving` of its pins leave out.from for out.to (its owner among
  // them if owner_moves).
  void net_delta(const PartitionedHypergraph& phg, NetID e, std::uint32_t moving, bool owner_moves,
                 MoveDelta& out) const;
  static void start_volume_change(VolumeChange& out, BlockID k);
  void add_pair(BlockID sender, BlockID receiver, Weight volume);
  cost::BlockTraffic block_traffic(BlockID b) const;

  BlockID k_;
  std::span<const NodeID> owners_;
  std::vector<Weight> pair_; // k x k, row = sender
  std::vector<Weight> send_, recv_;
  std::vector<std::int64_t> send_messages_, recv_messages_;
  std::vector<std::int64_t> rows_, local_nnz_, halo_nnz_;
  Weight total_ = 0;
  std::uint64_t version_ = 0; // apply() calls so far
};

} // namespace gnnpart::hg
