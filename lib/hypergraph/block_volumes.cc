#include "hypergraph/block_volumes.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/errors.h"

namespace gnnpart::hg {

namespace {

// One entry per (sender, receiver): sort, merge, drop what cancels.
void merge_pairs(std::vector<MoveDelta::Pair>& p) {
  std::sort(p.begin(), p.end(), [](const MoveDelta::Pair& a, const MoveDelta::Pair& b) {
    return a.sender != b.sender ? a.sender < b.sender : a.receiver < b.receiver;
  });
  std::size_t kept = 0;
  for (std::size_t i = 0; i < p.size();) {
    MoveDelta::Pair merged = p[i];
    std::size_t j = i + 1;
    for (; j < p.size() && p[j].sender == merged.sender && p[j].receiver == merged.receiver; ++j)
      merged.volume += p[j].volume;
    if (merged.volume != 0)
      p[kept++] = merged;
    i = j;
  }
  p.resize(kept);
}

} // namespace

BlockVolumes::BlockVolumes(const PartitionedHypergraph& phg, std::span<const NodeID> owners)
    : k_(phg.k()), owners_(owners) {
  const Hypergraph& hg = phg.hypergraph();
  if (k_ > kMaxVolumeBlocks)
    throw InvalidParameter(
        fmt::format("per-block volumes take k <= {}, not {}", kMaxVolumeBlocks, k_));
  if (owners.size() != hg.num_nets())
    throw InvalidParameter(fmt::format("{} net owners for {} nets", owners.size(), hg.num_nets()));
  pair_.assign(static_cast<std::size_t>(k_) * k_, 0);
  send_.assign(k_, 0);
  recv_.assign(k_, 0);
  send_messages_.assign(k_, 0);
  recv_messages_.assign(k_, 0);
  rows_.assign(k_, 0);
  local_nnz_.assign(k_, 0);
  halo_nnz_.assign(k_, 0);
  for (NodeID u = 0; u < hg.num_nodes(); ++u)
    rows_[phg.block(u)] += 1;
  for (NetID e = 0; e < hg.num_nets(); ++e) {
    const auto pins = hg.pins(e);
    if (owners[e] >= hg.num_nodes() || std::find(pins.begin(), pins.end(), owners[e]) == pins.end())
      throw InvalidParameter(
          fmt::format("net {}: its owner {} is not one of its pins", e, owners[e]));
    const BlockID o = phg.block(owners[e]);
    const Weight w = hg.net_weight(e);
    phg.for_each_block(e, [&](BlockID x) {
      if (x != o)
        add_pair(o, x, w);
    });
    const std::uint32_t local = phg.pin_count(e, o);
    local_nnz_[o] += local;
    halo_nnz_[o] += hg.net_size(e) - local;
  }
}

void BlockVolumes::add_pair(BlockID sender, BlockID receiver, Weight volume) {
  Weight& p = pair_[static_cast<std::size_t>(sender) * k_ + receiver];
  if (p == 0 && volume != 0) {
    send_messages_[sender] += 1;
    recv_messages_[receiver] += 1;
  }
  p += volume;
  if (p == 0 && volume != 0) {
    send_messages_[sender] -= 1;
    recv_messages_[receiver] -= 1;
  }
  send_[sender] += volume;
  recv_[receiver] += volume;
  total_ += volume;
}

Weight BlockVolumes::max_volume() const {
  Weight best = 0;
  for (BlockID b = 0; b < k_; ++b)
    best = std::max(best, volume(b));
  return best;
}

void BlockVolumes::start_delta(BlockID from, BlockID to, NodeID count, MoveDelta& out) {
  out.from = from;
  out.to = to;
  out.count = count;
  out.pairs.clear();
  out.local_nnz[0] = out.local_nnz[1] = 0;
  out.halo_nnz[0] = out.halo_nnz[1] = 0;
  out.total = 0;
}

void BlockVolumes::net_delta(const PartitionedHypergraph& phg, NetID e, std::uint32_t moving,
                             bool owner_moves, MoveDelta& out) const {
  const Hypergraph& hg = phg.hypergraph();
  const BlockID from = out.from;
  const BlockID to = out.to;
  const Weight w = hg.net_weight(e);
  const std::uint32_t in_from = phg.pin_count(e, from);
  const std::uint32_t in_to = phg.pin_count(e, to);
  const std::int64_t size = hg.net_size(e);
  if (owner_moves) { // e changes hands: from stops sending it, to sends it to every block after
    phg.for_each_block(e, [&](BlockID x) {
      if (x != from)
        out.pairs.push_back({from, x, -w});
      if (x != to && (x != from || in_from > moving))
        out.pairs.push_back({to, x, w});
    });
    out.total += (in_from == moving ? -w : 0) + (in_to == 0 ? w : 0);
    out.local_nnz[0] -= in_from;
    out.halo_nnz[0] -= size - in_from;
    out.local_nnz[1] += in_to + moving;
    out.halo_nnz[1] += size - in_to - moving;
    return;
  }
  const BlockID owner = phg.block(owners_[e]);
  if (in_from == moving) { // e leaves `from` (never the owner's block: the owner stays)
    out.pairs.push_back({owner, from, -w});
    out.total -= w;
  }
  if (in_to == 0) { // e reaches `to` (never the owner's block)
    out.pairs.push_back({owner, to, w});
    out.total += w;
  }
  if (owner == from) {
    out.local_nnz[0] -= moving;
    out.halo_nnz[0] += moving;
  } else if (owner == to) {
    out.local_nnz[1] += moving;
    out.halo_nnz[1] -= moving;
  }
}

void BlockVolumes::delta(const PartitionedHypergraph& phg, NodeID u, BlockID to,
                         MoveDelta& out) const {
  start_delta(phg.block(u), to, 1, out);
  for (const NetID e : phg.hypergraph().incident_nets(u))
    net_delta(phg, e, 1, owners_[e] == u, out);
  merge_pairs(out.pairs);
}

void BlockVolumes::group_nets(const Hypergraph& hg, std::span<const NodeID> group,
                              std::vector<NetID>& nets) {
  nets.clear();
  for (const NodeID u : group)
    for (const NetID e : hg.incident_nets(u))
      nets.push_back(e);
  std::sort(nets.begin(), nets.end());
}

void BlockVolumes::delta(const PartitionedHypergraph& phg, std::span<const NodeID> group,
                         std::span<const NetID> nets, BlockID to, MoveDelta& out) const {
  start_delta(phg.block(group.front()), to, static_cast<NodeID>(group.size()), out);
  for (std::size_t i = 0; i < nets.size();) {
    std::size_t j = i + 1;
    while (j < nets.size() && nets[j] == nets[i])
      ++j;
    const NetID e = nets[i];
    net_delta(phg, e, static_cast<std::uint32_t>(j - i),
              std::binary_search(group.begin(), group.end(), owners_[e]), out);
    i = j;
  }
  merge_pairs(out.pairs);
}

namespace {

void add_change(VolumeChange& out, BlockID b, Weight v) {
  if (out.listed[b] == 0) {
    out.listed[b] = 1;
    out.blocks.push_back(b);
  }
  out.by_block[b] += v;
}

} // namespace

void BlockVolumes::start_volume_change(VolumeChange& out, BlockID k) {
  if (out.by_block.size() != k) {
    out.by_block.assign(k, 0);
    out.listed.assign(k, 0);
  } else {
    for (const BlockID b : out.blocks) {
      out.by_block[b] = 0;
      out.listed[b] = 0;
    }
  }
  out.blocks.clear();
  out.total = 0;
}

void BlockVolumes::unit_nets(const Hypergraph& hg, NodeID u, std::vector<UnitNet>& out) const {
  out.clear();
  for (const NetID e : hg.incident_nets(u))
    out.push_back({e, 1, owners_[e] == u});
}

void BlockVolumes::unit_nets(const Hypergraph& hg, std::span<const NodeID> group,
                             std::vector<NetID>& scratch, std::vector<UnitNet>& out) const {
  group_nets(hg, group, scratch);
  out.clear();
  for (std::size_t i = 0; i < scratch.size();) {
    std::size_t j = i + 1;
    while (j < scratch.size() && scratch[j] == scratch[i])
      ++j;
    const NetID e = scratch[i];
    out.push_back({e, static_cast<std::uint32_t>(j - i),
                   std::binary_search(group.begin(), group.end(), owners_[e])});
    i = j;
  }
}

// What a move of `moving` pins of net e (weight w, connectivity lambda) from `from` to `to`
// changes: if its owner moves, `from` stops sending it to lambda - 1 blocks and `to` sends it
// to lambda' - 1 (after the move); any other block receives it before and after, `from` starts
// receiving it if pins stay there, `to` stops if it had pins. If its owner stays in block O: O
// stops sending it to `from` when every pin there leaves (it "leaves"), and starts sending it
// to `to` when none was there (it "reaches" `to`). The terms that do not depend on the target
// go to `base`; a reach is added for every target (to_all, base) and taken back for the blocks
// the net already touches (to_less, reaches, total_less): one pass over the nets for all
// targets, the same sums as changes(delta(...)) for each.
void BlockVolumes::price_all_targets(const PartitionedHypergraph& phg,
                                     std::span<const UnitNet> nets, BlockID from,
                                     AllTargets& out) const {
  const Hypergraph& hg = phg.hypergraph();
  start_volume_change(out.base, k_);
  if (out.to_less.size() != k_) {
    out.to_less.assign(k_, 0);
    out.total_less.assign(k_, 0);
    out.is_target.assign(k_, 0);
    out.reach_end.assign(k_, 0);
  } else {
    for (const BlockID b : out.targets) {
      out.to_less[b] = out.total_less[b] = 0;
      out.is_target[b] = 0;
      out.reach_end[b] = 0;
    }
  }
  out.from = from;
  out.targets.clear();
  out.unsorted.clear();
  out.to_all = 0;
  Weight reach_total = 0;
  for (const UnitNet& n : nets) {
    const NetID e = n.net;
    const Weight w = hg.net_weight(e);
    const Weight leaves = phg.pin_count(e, from) == n.moving ? w : 0;
    out.base.total -= leaves;
    reach_total += w;
    const BlockID owner = n.owner_moves ? from : phg.block(owners_[e]);
    if (n.owner_moves) {
      const auto lambda = static_cast<Weight>(phg.connectivity(e));
      add_change(out.base, from, -w * (lambda - 1) + (w - leaves));
      out.to_all += w * (lambda - 1) - leaves + w;
    } else {
      if (leaves != 0) {
        add_change(out.base, owner, -w);
        add_change(out.base, from, -w);
      }
      add_change(out.base, owner, w);
      out.to_all += w;
    }
    phg.for_each_block(e, [&](BlockID x) {
      if (x == from)
        return;
      if (out.is_target[x] == 0) {
        out.is_target[x] = 1;
        out.targets.push_back(x);
      }
      out.total_less[x] += w;
      out.to_less[x] += n.owner_moves ? 2 * w : w;
      if (!n.owner_moves)
        out.unsorted.push_back({x, owner, w});
    });
  }
  out.base.total += reach_total; // total_less takes back the nets a target already has
  std::sort(out.targets.begin(), out.targets.end());
  // Group the reaches by target (counting sort over the targets).
  for (const AllTargets::Reach& r : out.unsorted)
    ++out.reach_end[r.to];
  std::uint32_t sum = 0;
  for (const BlockID t : out.targets) {
    const std::uint32_t count = out.reach_end[t];
    out.reach_end[t] = sum; // the group's start until the scatter moves it to its end
    sum += count;
  }
  out.reaches.resize(out.unsorted.size());
  for (const AllTargets::Reach& r : out.unsorted)
    out.reaches[out.reach_end[r.to]++] = r;
}

void BlockVolumes::volume_change_to(const AllTargets& all, BlockID to, VolumeChange& out) {
  start_volume_change(out, static_cast<BlockID>(all.base.by_block.size()));
  for (const BlockID b : all.base.blocks)
    add_change(out, b, all.base.by_block[b]);
  add_change(out, to, all.to_all - all.to_less[to]);
  for (std::uint32_t i = all.reach_end[to]; i > 0 && all.reaches[i - 1].to == to; --i)
    add_change(out, all.reaches[i - 1].owner, -all.reaches[i - 1].volume);
  out.total = all.base.total - all.total_less[to];
}

void BlockVolumes::changes(const MoveDelta& delta, std::vector<BlockChange>& out) const {
  out.clear();
  auto entry = [&](BlockID b) -> BlockChange& {
    for (BlockChange& c : out)
      if (c.block == b)
        return c;
    out.push_back({b, 0, 0, 0, 0});
    return out.back();
  };
  for (const MoveDelta::Pair& p : delta.pairs) {
    const Weight before = pair(p.sender, p.receiver);
    const Weight after = before + p.volume;
    const std::int64_t messages = (after != 0 ? 1 : 0) - (before != 0 ? 1 : 0);
    BlockChange& s = entry(p.sender);
    s.send += p.volume;
    s.send_messages += messages;
    BlockChange& r = entry(p.receiver);
    r.recv += p.volume;
    r.recv_messages += messages;
  }
}

void BlockVolumes::apply(const MoveDelta& delta) {
  for (const MoveDelta::Pair& p : delta.pairs)
    add_pair(p.sender, p.receiver, p.volume);
  rows_[delta.from] -= delta.count;
  rows_[delta.to] += delta.count;
  local_nnz_[delta.from] += delta.local_nnz[0];
  local_nnz_[delta.to] += delta.local_nnz[1];
  halo_nnz_[delta.from] += delta.halo_nnz[0];
  halo_nnz_[delta.to] += delta.halo_nnz[1];
  ++version_;
}

cost::BlockTraffic BlockVolumes::block_traffic(BlockID b) const {
  cost::BlockTraffic t;
  t.rows = static_cast<std::uint64_t>(rows_[b]);
  t.halo = static_cast<std::uint64_t>(recv_[b]);
  t.local_nnz = static_cast<std::uint64_t>(local_nnz_[b]);
  t.halo_nnz = static_cast<std::uint64_t>(halo_nnz_[b]);
  t.send_rows = static_cast<std::uint64_t>(send_[b]);
  t.recv_rows = static_cast<std::uint64_t>(recv_[b]);
  t.send_messages = static_cast<std::uint64_t>(send_messages_[b]);
  t.recv_messages = static_cast<std::uint64_t>(recv_messages_[b]);
  return t;
}

std::vector<cost::BlockTraffic> BlockVolumes::traffic() const {
  std::vector<cost::BlockTraffic> blocks(k_);
  for (BlockID b = 0; b < k_; ++b)
    blocks[b] = block_traffic(b);
  return blocks;
}

const std::vector<cost::BlockTraffic>& BlockVolumes::traffic_after(const MoveDelta& delta,
                                                                   TrafficScratch& scratch) const {
  auto& out = scratch.blocks;
  if (scratch.version != version_ || out.size() != k_) {
    out = traffic();
    scratch.dirty.clear();
    scratch.version = version_;
  }
  for (const BlockID b : scratch.dirty) // undo the last call's move
    out[b] = block_traffic(b);
  scratch.dirty.clear();
  auto touch = [&](BlockID b) -> cost::BlockTraffic& {
    if (std::find(scratch.dirty.begin(), scratch.dirty.end(), b) == scratch.dirty.end())
      scratch.dirty.push_back(b);
    return out[b];
  };
  cost::BlockTraffic& from = touch(delta.from);
  from.rows -= delta.count;
  from.local_nnz += delta.local_nnz[0];
  from.halo_nnz += delta.halo_nnz[0];
  cost::BlockTraffic& to = touch(delta.to);
  to.rows += delta.count;
  to.local_nnz += delta.local_nnz[1];
  to.halo_nnz += delta.halo_nnz[1];
  changes(delta, scratch.changes);
  for (const BlockChange& c : scratch.changes) {
    cost::BlockTraffic& t = touch(c.block);
    t.send_rows += c.send;
    t.recv_rows += c.recv;
    t.halo = t.recv_rows;
    t.send_messages += c.send_messages;
    t.recv_messages += c.recv_messages;
  }
  return out;
}

} // namespace gnnpart::hg
