#pragma once
// A hypergraph with a k-way assignment: block weights (ncon constraints), pin counts
// Phi(e, b) per net and block, and from k = 16 on the connectivity set of each net as a bitset
// of k bits. Below k = 16 a net's row of k counts is read instead (its set would take 8 bytes a
// net, 4x the counts at k = 2 with 8-bit counts: 2.6 MB of dblp-2010's 38 MB peak).
// Moves are sequential; initialisation and objective evaluation are parallel.
// Pin counts of a net with at least k/4 pins are a dense row of k counters; a smaller net keeps
// (block, count) pairs for the blocks it touches, at most one per pin. So the counts take at
// most 8 bytes per pin, not k counters per net (column-net models of sparse graphs at large k).
// k/4 instead of k/8: 3-7% less peak memory at k = 32 and 128 (dblp-2010, cnr-2000,
// uk-2007-05-100k), the same time.
// Below k = 16 every net is dense, with no offset table.
// Entries are as narrow as the net allows: 8 bits below 256 pins (if k <= 256 for sparse pairs,
// whose block ids they hold too), 16 bits below 2^16 pins and blocks, else 32. Nets of one width
// share an array. Below k = 16 the largest net picks one width for all.
// A sparse net of fewer than 8 pins keeps no connectivity set (issue #20): its blocks are those
// of its pairs in use (at most 7; at k <= 256 in 8-bit entries, 14 bytes), so a set of k bits
// would repeat them (cnr-2000 k = 128: 188,559 of 325,557 nets, 2,946 KiB). The other nets find
// their sets through a rank: per 64 nets a mask of those with a set and the number of sets
// before them (16 bytes per 64 nets; a set number per net would take 4 bytes a net).
#include <bit>
#include <cstdint>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/hypergraph.h"
#include "core/options.h"
#include "core/types.h"

namespace gnnpart::hg {

class PartitionedHypergraph {
  // Per 64 nets: bit i of `with_set` for net 64 j + i keeping a set, `before` the sets of nets
  // before 64 j.
  struct SetRank {
    std::uint64_t with_set;
    std::uint64_t before;
  };
  // The number of ones: one instruction where the build targets popcnt; else inline bit
  // arithmetic, not std::popcount's call into libgcc (__popcountdi2) on every set lookup of a
  // generic x86-64 build (hgmem12: 273 M instructions of ca-astroph k = 128's 5,138 M).
  static std::size_t ones(std::uint64_t x) {
#if defined(__POPCNT__)
    return static_cast<std::size_t>(std::popcount(x));
#else
    x -= x >> 1 & 0x5555555555555555ULL;
    x = (x & 0x3333333333333333ULL) + (x >> 2 & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return static_cast<std::size_t>(x * 0x0101010101010101ULL >> 56);
#endif
  }
  // f(pointer to e's counts), const or not as self. (First in the class: its return type is
  // deduced before the members below use it.)
  template <typename Self, typename F>
  static decltype(auto) with_counts(Self& self, NetID e, F&& f) {
    const std::size_t first = self.offset(e);
    switch (self.all_dense_ ? self.uniform_width_ : self.width_of(self.hg_->net_size(e))) {
    case 0:
      return f(self.pin_data8_.data() + first);
    case 1:
      return f(self.pin_data16_.data() + first);
    default:
      return f(self.pin_data32_.data() + first);
    }
  }

public:
  PartitionedHypergraph(const Hypergraph& hypergraph, BlockID k);
  PartitionedHypergraph(PartitionedHypergraph&&) noexcept = default;
  PartitionedHypergraph(const PartitionedHypergraph&) = delete;
  PartitionedHypergraph& operator=(const PartitionedHypergraph&) = delete;

  // Sets every block and recomputes weights, pin counts and connectivity sets.
  void assign(std::span<const BlockID> blocks);
  // The same with u's block block_of(u), for blocks kept in another form (BlockSnapshot).
  template <typename F> void assign_each(F&& block_of) {
    for (NodeID u = 0; u < num_nodes(); ++u)
      blocks_[u] = block_of(u);
    recount();
  }

  const Hypergraph& hypergraph() const { return *hg_; }
  BlockID k() const { return k_; }
  int ncon() const { return ncon_; }
  NodeID num_nodes() const { return hg_->num_nodes(); }
  BlockID block(NodeID u) const { return blocks_[u]; }
  std::span<const BlockID> blocks() const { return blocks_; }
  Weight block_weight(BlockID b, int c = 0) const {
    return block_weights_[static_cast<std::size_t>(b) * ncon_ + c];
  }
  std::span<const Weight> block_weights() const { return block_weights_; }
  std::uint32_t pin_count(NetID e, BlockID b) const {
    return with_counts(*this, e, [&](const auto* p) { return pin_count_in(p, e, b); });
  }
  // Whether nets keep connectivity sets (k >= 16: all but the setless ones, see above); below,
  // connectivity_set, in_connectivity_set and touches_other_than must not be called.
  bool has_connectivity_sets() const { return !all_dense_; }
  // e's connectivity set: conn_words() words, block b at bit b % 64 of word b / 64; nullptr
  // for a net that keeps none (for_each_block_unordered reads its pairs).
  const std::uint64_t* connectivity_set(NetID e) const {
    if (!keeps_set(e))
      return nullptr;
    return conn_.data() + set_number(e) * words_;
  }
  BlockID connectivity(NetID e) const {
    BlockID lambda = 0;
    if (all_dense_) {
      with_counts(*this, e, [&](const auto* p) {
        for (BlockID b = 0; b < k_; ++b)
          lambda += p[b] != 0;
      });
      return lambda;
    }
    if (const std::uint64_t* w = connectivity_set(e)) {
      for (std::size_t i = 0; i < words_; ++i)
        lambda += std::popcount(w[i]);
      return lambda;
    }
    for_each_pair_block(e, [&](BlockID) { ++lambda; });
    return lambda;
  }
  std::size_t conn_words() const { return words_; }
  // Phi(e, b) >= 1: one bit test (one count below k = 16).
  bool connected(NetID e, BlockID b) const {
    if (all_dense_)
      return pin_count(e, b) != 0;
    return in_connectivity_set(e, b);
  }
  // The same where the sets exist (has_connectivity_sets()), without the branch on all_dense_
  // (the gain cache's counting loops): a bit test, or a setless net's pair scan.
  bool in_connectivity_set(NetID e, BlockID b) const {
    if (const std::uint64_t* set = connectivity_set(e))
      return (set[b / 64] >> (b % 64) & 1) != 0;
    bool found = false;
    for_each_pair_block(e, [&](BlockID x) { found |= x == b; });
    return found;
  }
  // Whether e touches a block other than b (has_connectivity_sets()).
  bool touches_other_than(NetID e, BlockID b) const {
    if (const std::uint64_t* set = connectivity_set(e)) {
      for (std::size_t i = 0; i < words_; ++i)
        if ((i == b / 64 ? set[i] & ~(std::uint64_t{1} << (b % 64)) : set[i]) != 0)
          return true;
      return false;
    }
    bool other = false;
    for_each_pair_block(e, [&](BlockID x) { other |= x != b; });
    return other;
  }
  // f(b) for the blocks b that e touches, in any order: increasing for a net with a set or a
  // dense row, its pairs' order for a setless one. For callers that add per block.
  template <typename F> void for_each_block_unordered(NetID e, F&& f) const {
    if (all_dense_) {
      for_each_block(e, f);
      return;
    }
    if (const std::uint64_t* set = connectivity_set(e)) {
      for_each_set_block(set, f);
      return;
    }
    for_each_pair_block(e, f);
  }
  // What reading nets' blocks takes where the sets exist, copied into a value: a loop that holds
  // one keeps these pointers in registers, where through `this` it reloads them after each of
  // its byte stores (which may alias any member). T is the setless nets' entry type. The gain
  // cache's build (pubmed k = 32, generic build, callgrind): 62.4 M -> 57.6 M instructions.
  template <typename T> class BlockReader {
  public:
    // e's set, or nullptr for a setless net.
    const std::uint64_t* connectivity_set(NetID e) const {
      const SetRank& r = rank_[e / 64];
      const std::uint64_t below = (std::uint64_t{1} << (e % 64)) - 1;
      if ((r.with_set >> (e % 64) & 1) == 0)
        return nullptr;
      return sets_ + (r.before + ones(r.with_set & below)) * words_;
    }
    // f(b) for the blocks b that e touches, in any order (as the class's).
    template <typename F> void for_each_block_unordered(NetID e, F&& f) const {
      if (const std::uint64_t* set = connectivity_set(e)) {
        for (std::size_t i = 0; i < words_; ++i)
          for (std::uint64_t bits = set[i]; bits != 0; bits &= bits - 1)
            f(static_cast<BlockID>(i * 64 + std::countr_zero(bits)));
        return;
      }
      const auto size = static_cast<std::uint32_t>(net_offsets_[e + 1] - net_offsets_[e]);
      const T* p = pairs_ + (offsets32_ != nullptr ? offsets32_[e] : offsets64_[e]);
      for (std::uint32_t i = 0; i < size && p[2 * i + 1] != 0; ++i)
        f(static_cast<BlockID>(p[2 * i]));
    }

  private:
    friend class PartitionedHypergraph;
    const SetRank* rank_;
    const std::uint64_t* sets_;
    std::size_t words_;
    const EdgeID* net_offsets_;
    const std::uint32_t* offsets32_; // nullptr unless narrow_offsets_
    const std::uint64_t* offsets64_;
    const T* pairs_;
  };
  // f(reader) with a BlockReader for this partition (has_connectivity_sets()).
  template <typename F> decltype(auto) with_block_reader(F&& f) const {
    const auto make = [&](const auto* pairs) {
      BlockReader<std::remove_cvref_t<decltype(*pairs)>> r;
      r.rank_ = set_rank_.data();
      r.sets_ = conn_.data();
      r.words_ = words_;
      r.net_offsets_ = hg_->net_offsets().data();
      r.offsets32_ = narrow_offsets_ ? pin_offset32_.data() : nullptr;
      r.offsets64_ = pin_offset_.data();
      r.pairs_ = pairs;
      return r;
    };
    if (setless_width_ == 0)
      return f(make(pin_data8_.data()));
    if (setless_width_ == 1)
      return f(make(pin_data16_.data()));
    return f(make(pin_data32_.data()));
  }
  // f(b) for the blocks b that e touches, in increasing order.
  template <typename F> void for_each_block(NetID e, F&& f) const {
    if (all_dense_) { // the set made from the row without a branch per block, then as below
      std::uint64_t bits = 0;
      with_counts(*this, e, [&](const auto* p) {
        for (BlockID b = 0; b < k_; ++b)
          bits |= std::uint64_t{p[b] != 0} << b;
      });
      for (; bits != 0; bits &= bits - 1)
        f(static_cast<BlockID>(std::countr_zero(bits)));
      return;
    }
    if (const std::uint64_t* set = connectivity_set(e)) {
      for_each_set_block(set, f);
      return;
    }
    // A setless net's at most kSetlessPins - 1 blocks, sorted by insertion.
    BlockID sorted[kSetlessPins];
    std::uint32_t count = 0;
    for_each_pair_block(e, [&](BlockID b) {
      std::uint32_t i = count++;
      for (; i > 0 && sorted[i - 1] > b; --i)
        sorted[i] = sorted[i - 1];
      sorted[i] = b;
    });
    for (std::uint32_t i = 0; i < count; ++i)
      f(sorted[i]);
  }
  bool is_boundary(NodeID u) const {
    for (NetID e : hg_->incident_nets(u))
      if (pin_count(e, blocks_[u]) < hg_->net_size(e))
        return true;
    return false;
  }
  // True if u's weight fits into block `to` under max_weights (k * ncon entries).
  bool fits(NodeID u, BlockID to, std::span<const Weight> max_weights) const {
    for (int c = 0; c < ncon_; ++c)
      if (block_weight(to, c) + hg_->vertex_weight(u, c) >
          max_weights[static_cast<std::size_t>(to) * ncon_ + c])
        return false;
    return true;
  }
  bool overloaded(BlockID b, std::span<const Weight> max_weights) const {
    for (int c = 0; c < ncon_; ++c)
      if (block_weight(b, c) > max_weights[static_cast<std::size_t>(b) * ncon_ + c])
        return true;
    return false;
  }

  // The assignment's identity, for a gain cache to tell whether it still describes this
  // partition (Km1GainCache::built_for): `epoch` is new at every assign / recount, unique among
  // all partitions of the process (a partition made later at the same address never repeats
  // an older one's), and `moves` counts the moves since.
  struct State {
    std::uint64_t epoch = 0;
    std::uint64_t moves = 0;
    bool operator==(const State&) const = default;
  };
  State state() const { return state_; }

  // Moves u to block `to`; returns the decrease of the objective (positive = better).
  Weight move(NodeID u, BlockID to, Objective objective);
  // Calls on_net(e, pin count of from after, pin count of to after) for every incident net.
  template <typename F> Weight move(NodeID u, BlockID to, Objective objective, F&& on_net);

  // km1 (and volume) is kept up to date by recount() and move(), so reading it costs nothing;
  // cut and soed are summed over the nets (parallel).
  Weight objective(Objective objective) const;
  Weight objective_sequential(Objective objective) const; // twin for tests

private:
  // Sparse nets of fewer than this many pins keep no connectivity set.
  static constexpr std::uint32_t kSetlessPins = 8;
  bool keeps_set(NetID e) const { return (set_rank_[e / 64].with_set >> (e % 64) & 1) != 0; }
  std::size_t set_number(NetID e) const {
    const SetRank& r = set_rank_[e / 64];
    return r.before + ones(r.with_set & ((std::uint64_t{1} << (e % 64)) - 1));
  }
  // The objective of nets [first, last): walks the sets in order, so that no net's set is
  // found by its rank (pubmed k = 32, generic build: 13.2 M instructions in connectivity()).
  Weight objective_of(NetID first, NetID last, Objective objective) const;
  std::uint64_t* mutable_set(NetID e) {
    return keeps_set(e) ? conn_.data() + set_number(e) * words_ : nullptr;
  }
  template <typename F> void for_each_set_block(const std::uint64_t* set, F&& f) const {
    for (std::size_t i = 0; i < words_; ++i)
      for (std::uint64_t bits = set[i]; bits != 0; bits &= bits - 1)
        f(static_cast<BlockID>(i * 64 + std::countr_zero(bits)));
  }
  // f(b) for the blocks of a setless net's pairs in use, in the pairs' order. Every setless net
  // is sparse and under 256 pins, so its entries take setless_width_, not width_of(its size).
  template <typename F> void for_each_pair_block(NetID e, F&& f) const {
    const std::uint32_t size = hg_->net_size(e);
    const std::size_t first = offset(e);
    const auto scan = [&](const auto* p) {
      for (std::uint32_t i = 0; i < size && p[2 * i + 1] != 0; ++i)
        f(static_cast<BlockID>(p[2 * i]));
    };
    if (setless_width_ == 0)
      scan(pin_data8_.data() + first);
    else if (setless_width_ == 1)
      scan(pin_data16_.data() + first);
    else
      scan(pin_data32_.data() + first);
  }
  void recount(); // block weights, pin counts and connectivity sets from blocks_ (a new epoch)
  bool dense(NetID e) const {
    return all_dense_ || hg_->net_size(e) >= dense_size_;
  }
  std::size_t offset(NetID e) const {
    if (all_dense_)
      return static_cast<std::size_t>(e) * k_;
    return narrow_offsets_ ? pin_offset32_[e] : pin_offset_[e];
  }
  // Entry width of a net of `size` pins (not all_dense_): 0 = 8 bits, 1 = 16, 2 = 32.
  int width_of(std::uint32_t size) const {
    if (size < (1u << 8) && (size >= dense_size_ || k_ <= (1u << 8)))
      return 0;
    return size < (1u << 16) && k_ < (1u << 16) ? 1 : 2;
  }

  // A sparse net of `size` pins has `size` pairs: those in use first (each counts at least 1),
  // then free ones (count 0). Scans stop at the first free pair, so no number of pairs in use
  // is kept (it took 4 bytes a net, and a cache miss of its own per count).
  template <typename T> std::uint32_t pin_count_in(const T* p, NetID e, BlockID b) const {
    if (dense(e))
      return p[b];
    const std::uint32_t size = hg_->net_size(e);
    for (std::uint32_t i = 0; i < size && p[2 * i + 1] != 0; ++i)
      if (p[2 * i] == b)
        return p[2 * i + 1];
    return 0;
  }
  // Phi(e, b) - 1 (b holds a pin of e); returns the new count.
  template <typename T> std::uint32_t decrement_in(T* p, NetID e, BlockID b) {
    if (dense(e))
      return --p[b];
    std::uint32_t i = 0;
    while (p[2 * i] != b) // b's pair is in use, so it comes before every free one
      ++i;
    const std::uint32_t count = --p[2 * i + 1];
    if (count == 0) { // drop the pair; the last one in use takes its place and is freed
      const std::uint32_t size = hg_->net_size(e);
      std::uint32_t end = i + 1;
      while (end < size && p[2 * end + 1] != 0)
        ++end;
      const std::uint32_t last = end - 1;
      p[2 * i] = p[2 * last];
      p[2 * i + 1] = p[2 * last + 1];
      p[2 * last + 1] = 0;
    }
    return count;
  }
  // Phi(e, b) + 1; returns the new count.
  std::uint32_t increment(NetID e, BlockID b) {
    return with_counts(*this, e, [&](auto* p) { return increment_in(p, e, b); });
  }
  template <typename T> std::uint32_t increment_in(T* p, NetID e, BlockID b) {
    if (dense(e))
      return ++p[b];
    std::uint32_t i = 0; // a free pair remains while b has no pair: each pin counts once
    for (; p[2 * i + 1] != 0; ++i)
      if (p[2 * i] == b)
        return ++p[2 * i + 1];
    p[2 * i] = static_cast<T>(b);
    p[2 * i + 1] = 1;
    return 1;
  }

  const Hypergraph* hg_;
  BlockID k_;
  int ncon_;
  std::size_t words_;
  std::vector<BlockID> blocks_;
  std::vector<Weight> block_weights_;
  std::uint32_t dense_size_; // nets with at least this many pins count densely
  bool all_dense_;           // every net has a dense row at e * k
  int uniform_width_ = 1;    // of every net when all_dense_
  // Per net: its first entry in the array of its width; 4 bytes a net while every array has
  // fewer than 2^32 entries (narrow_offsets_), else 8.
  bool narrow_offsets_ = false;
  std::vector<std::uint32_t> pin_offset32_;
  std::vector<std::uint64_t> pin_offset_;
  std::vector<std::uint8_t> pin_data8_; // counts and sparse (block, count) pairs by width
  std::vector<std::uint16_t> pin_data16_;
  std::vector<std::uint32_t> pin_data32_;
  std::vector<SetRank> set_rank_;   // none when all_dense_
  int setless_width_ = 0;           // width_of every setless net
  std::vector<std::uint64_t> conn_; // words_ per net with a set, none when all_dense_
  State state_;
  // The km1 of the current assignment, counted by recount() and updated by every move:
  // refinement asks for it before and after each refiner on every level (a pass over all nets
  // each, 2.9% of wing k = 32's instructions).
  Weight km1_ = 0;
};

// Objective of one net with connectivity lambda, size and weight w.
inline Weight net_objective(Objective objective, BlockID lambda, Weight w) {
  switch (objective) {
  case Objective::kCut:
    return lambda > 1 ? w : 0;
  case Objective::kSoed:
    return lambda > 1 ? Weight{lambda} * w : 0;
  default:
    return lambda > 0 ? Weight{lambda - 1} * w : 0;
  }
}

template <typename F>
Weight PartitionedHypergraph::move(NodeID u, BlockID to, Objective objective, F&& on_net) {
  const BlockID from = blocks_[u];
  if (from == to)
    return 0;
  Weight delta = 0;
  for (NetID e : hg_->incident_nets(u)) {
    const Weight w = hg_->net_weight(e);
    const std::uint32_t size = hg_->net_size(e);
    // One dispatch on the net's count width for both counts.
    const auto [pf, pt] = with_counts(*this, e, [&](auto* p) {
      const std::uint32_t f = decrement_in(p, e, from);
      return std::pair<std::uint32_t, std::uint32_t>(f, increment_in(p, e, to));
    });
    const bool was_uncut = pf + 1 == size;
    if (pf == 0)
      km1_ -= w;
    if (pt == 1)
      km1_ += w;
    if (!all_dense_ && (pf == 0 || pt == 1))
      if (std::uint64_t* set = mutable_set(e)) {
        if (pf == 0)
          set[from / 64] &= ~(std::uint64_t{1} << (from % 64));
        if (pt == 1)
          set[to / 64] |= std::uint64_t{1} << (to % 64);
      }
    if (objective != Objective::kCut) {
      if (pf == 0)
        delta += w;
      if (pt == 1)
        delta -= w;
    }
    if (objective != Objective::kKm1 && objective != Objective::kVolume) {
      if (was_uncut && size > 1)
        delta -= w;
      if (pt == size && size > 1)
        delta += w;
    }
    on_net(e, pf, pt);
  }
  ++state_.moves;
  blocks_[u] = to;
  for (int c = 0; c < ncon_; ++c) {
    const Weight w = hg_->vertex_weight(u, c);
    block_weights_[static_cast<std::size_t>(from) * ncon_ + c] -= w;
    block_weights_[static_cast<std::size_t>(to) * ncon_ + c] += w;
  }
  return delta;
}

inline Weight PartitionedHypergraph::move(NodeID u, BlockID to, Objective objective) {
  return move(u, to, objective, [](NetID, std::uint32_t, std::uint32_t) {});
}

} // namespace gnnpart::hg
