#include "hypergraph/partitioned_hypergraph.h"

#include <algorithm>
#include <atomic>
#include <limits>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include "core/errors.h"

namespace gnnpart::hg {

namespace {

// The epochs of every partition's assignments (PartitionedHypergraph::state).
std::atomic<std::uint64_t> next_epoch{1};

} // namespace

PartitionedHypergraph::PartitionedHypergraph(const Hypergraph& hypergraph, BlockID k)
    : hg_(&hypergraph), k_(k), ncon_(hypergraph.ncon()), words_((k + 63) / 64),
      blocks_(hypergraph.num_nodes(), 0),
      block_weights_(static_cast<std::size_t>(k) * hypergraph.ncon(), 0),
      dense_size_(std::max<std::uint32_t>(1, k / 4)), all_dense_(k < 16) {
  if (k < 1)
    throw InvalidParameter("k must be at least 1");
  state_ = {next_epoch.fetch_add(1, std::memory_order_relaxed), 0};
  const NetID m = hypergraph.num_nets();
  std::size_t entries[3] = {0, 0, 0};
  if (all_dense_) {
    NodeID largest_net = 0;
    for (NetID e = 0; e < m; ++e)
      largest_net = std::max(largest_net, hypergraph.net_size(e));
    uniform_width_ = largest_net < (1u << 8) ? 0 : largest_net < (1u << 16) ? 1 : 2;
    entries[uniform_width_] = static_cast<std::size_t>(m) * k;
  } else {
    const auto net_entries = [&](std::uint32_t size) {
      return size >= dense_size_ ? std::size_t{k} : 2 * static_cast<std::size_t>(size);
    };
    for (NetID e = 0; e < m; ++e)
      entries[width_of(hypergraph.net_size(e))] += net_entries(hypergraph.net_size(e));
    narrow_offsets_ = *std::max_element(entries, entries + 3) <= 0xFFFFFFFFu;
    if (narrow_offsets_)
      pin_offset32_.resize(m);
    else
      pin_offset_.resize(m);
    std::size_t next[3] = {0, 0, 0};
    for (NetID e = 0; e < m; ++e) {
      const std::uint32_t size = hypergraph.net_size(e);
      std::size_t& first = next[width_of(size)];
      if (narrow_offsets_)
        pin_offset32_[e] = static_cast<std::uint32_t>(first);
      else
        pin_offset_[e] = first;
      first += net_entries(size);
    }
    set_rank_.assign((static_cast<std::size_t>(m) + 63) / 64, SetRank{0, 0});
    setless_width_ = width_of(1); // any size below kSetlessPins and dense_size_ (>= 4)
    std::size_t sets = 0;
    for (NetID e = 0; e < m; ++e) {
      if (e % 64 == 0)
        set_rank_[e / 64].before = sets;
      const std::uint32_t size = hypergraph.net_size(e);
      if (size >= dense_size_ || size >= kSetlessPins) {
        set_rank_[e / 64].with_set |= std::uint64_t{1} << (e % 64);
        ++sets;
      }
    }
    conn_.assign(sets * words_, 0);
  }
  pin_data8_.assign(entries[0], 0);
  pin_data16_.assign(entries[1], 0);
  pin_data32_.assign(entries[2], 0);
}

void PartitionedHypergraph::assign(std::span<const BlockID> blocks) {
  const NodeID n = hg_->num_nodes();
  if (blocks.size() != n)
    throw InvalidParameter("block array size differs from n");
  std::copy(blocks.begin(), blocks.end(), blocks_.begin());
  recount();
}

void PartitionedHypergraph::recount() {
  state_ = {next_epoch.fetch_add(1, std::memory_order_relaxed), 0};
  const NodeID n = hg_->num_nodes();
  std::fill(block_weights_.begin(), block_weights_.end(), 0);
  for (NodeID u = 0; u < n; ++u) {
    if (blocks_[u] >= k_)
      throw InvalidParameter("block id out of range");
    for (int c = 0; c < ncon_; ++c)
      block_weights_[static_cast<std::size_t>(blocks_[u]) * ncon_ + c] += hg_->vertex_weight(u, c);
  }
  // km1 counted on the way: a block's count reaching 1 is a new block of the net.
  km1_ = tbb::parallel_reduce(
      tbb::blocked_range<NetID>(0, hg_->num_nets(), 512), Weight{0},
      [&](const auto& r, Weight sum) {
        for (NetID e = r.begin(); e != r.end(); ++e) {
          if (dense(e)) {
            with_counts(*this, e, [&](auto* p) { std::fill_n(p, k_, 0); });
          } else { // every pair free
            with_counts(*this, e, [&](auto* p) { std::fill_n(p, 2 * hg_->net_size(e), 0); });
          }
          Weight lambda = 0;
          std::uint64_t* w = all_dense_ ? nullptr : mutable_set(e);
          if (w == nullptr) {
            for (NodeID p : hg_->pins(e))
              lambda += increment(e, blocks_[p]) == 1;
          } else {
            std::fill(w, w + words_, 0);
            for (NodeID p : hg_->pins(e)) {
              const BlockID b = blocks_[p];
              if (increment(e, b) == 1) {
                w[b / 64] |= std::uint64_t{1} << (b % 64);
                ++lambda;
              }
            }
          }
          if (lambda > 1)
            sum += (lambda - 1) * hg_->net_weight(e);
        }
        return sum;
      },
      [](Weight a, Weight b) { return a + b; });
}

Weight PartitionedHypergraph::objective_of(NetID first, NetID last, Objective objective) const {
  Weight sum = 0;
  if (all_dense_) {
    for (NetID e = first; e != last; ++e)
      sum += net_objective(objective, connectivity(e), hg_->net_weight(e));
    return sum;
  }
  const std::uint64_t* set = conn_.data() + (first < last ? set_number(first) : 0) * words_;
  for (NetID e = first; e != last; ++e) {
    BlockID lambda = 0;
    if (keeps_set(e)) {
      for (std::size_t i = 0; i < words_; ++i)
        lambda += static_cast<BlockID>(ones(set[i]));
      set += words_;
    } else {
      for_each_pair_block(e, [&](BlockID) { ++lambda; });
    }
    sum += net_objective(objective, lambda, hg_->net_weight(e));
  }
  return sum;
}

Weight PartitionedHypergraph::objective(Objective objective) const {
  if (objective != Objective::kCut && objective != Objective::kSoed)
    return km1_; // net_objective's λ − 1 for every other objective
  return tbb::parallel_reduce(
      tbb::blocked_range<NetID>(0, hg_->num_nets(), 1024), Weight{0},
      [&](const auto& r, Weight sum) {
        return sum + objective_of(r.begin(), r.end(), objective);
      },
      [](Weight a, Weight b) { return a + b; });
}

Weight PartitionedHypergraph::objective_sequential(Objective objective) const {
  Weight sum = 0;
  for (NetID e = 0; e < hg_->num_nets(); ++e)
    sum += net_objective(objective, connectivity(e), hg_->net_weight(e));
  return sum;
}

} // namespace gnnpart::hg
