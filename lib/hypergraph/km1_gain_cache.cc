#include "hypergraph/km1_gain_cache.h"

#include <algorithm>
#include <limits>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

namespace gnnpart::hg {

bool Km1GainCache::rebuild(const PartitionedHypergraph& phg) {
  k_ = phg.k();
  phg_ = &phg;
  built_ = false;
  if (phg.num_nodes() >= kMaxNodes ||
      compute_weights(phg) >= std::numeric_limits<std::int32_t>::max())
    return false;
  compute_connections(phg);
  built_ = true;
  state_ = phg.state();
  return true;
}

void Km1GainCache::release() {
  const std::uint64_t work = work_;
  *this = Km1GainCache();
  work_ = work;
}

Km1GainCache::Km1GainCache(const PartitionedHypergraph& phg) : k_(phg.k()), phg_(&phg) {
  compute_weights(phg);
  compute_connections(phg);
  built_ = true;
  state_ = phg.state();
}

// At least `entries` entries, uninitialised: the caller zeroes them row by row in parallel, so
// fresh pages are also faulted in by all threads.
template <typename T> T* Km1GainCache::Rows<T>::reserve(std::size_t entries) {
  if (capacity < entries) {
    data.reset();
    data.reset(new T[entries]);
    capacity = entries;
  }
  return data.get();
}

Weight Km1GainCache::compute_weights(const PartitionedHypergraph& phg) {
  const Hypergraph& hg = phg.hypergraph();
  base_.resize(hg.num_nodes());
  row_.resize(hg.num_nodes());
  return tbb::parallel_reduce(
      tbb::blocked_range<NodeID>(0, hg.num_nodes(), 256), Weight{0},
      [&](const auto& r, Weight best) {
        for (NodeID u = r.begin(); u != r.end(); ++u) {
          const BlockID from = phg.block(u);
          Weight incident = 0, benefit = 0;
          for (NetID e : hg.incident_nets(u)) {
            const Weight w = hg.net_weight(e);
            incident += w;
            if (phg.pin_count(e, from) == 1)
              benefit += w;
          }
          // Truncated only when rebuild() then refuses the hypergraph.
          base_[u] = static_cast<std::int32_t>(benefit - incident);
          row_[u] = static_cast<std::uint32_t>(width_class(static_cast<std::int32_t>(incident)));
          best = std::max(best, incident);
        }
        return best;
      },
      [](Weight a, Weight b) { return std::max(a, b); });
}

void Km1GainCache::compute_connections(const PartitionedHypergraph& phg) {
  const Hypergraph& hg = phg.hypergraph();
  const NodeID n = hg.num_nodes();
  row_.resize(n);
  const bool counting = phg.has_connectivity_sets() && phg.conn_words() <= kMaxCountedWords;
  constexpr std::uint32_t kNoRow = ~std::uint32_t{0}; // no row number reaches it (kMaxNodes)
  std::size_t rows[kClasses] = {};
  for (NodeID u = 0; u < n; ++u) {
    const auto c = static_cast<int>(row_[u]); // compute_weights' class
    row_[u] = counting && hg.incident_nets(u).size() * kRowDivisor < k_
                  ? kNoRow
                  : static_cast<std::uint32_t>(rows[c]++ << 3 | c);
  }
  // The sink row, last of class 0: its entries are updated but never read.
  rowless_ = static_cast<std::uint32_t>(rows[0]++ << 3);
  std::replace(row_.begin(), row_.end(), kNoRow, rowless_);
  const auto bytes = [](auto* p) { return reinterpret_cast<std::uint8_t*>(p); };
  for (int c = 0; c < kClasses; ++c) {
    const std::size_t size = rows[c] * row_bytes(c);
    std::uint8_t* base = c < 6    ? byte_rows_[c].reserve(size + kSlack)
                         : c == 6 ? bytes(rows16_.reserve(size / 2 + (kSlack + 1) / 2))
                                  : bytes(rows32_.reserve(size / 4 + (kSlack + 3) / 4));
    const unsigned bits = kClassBits[c];
    classes_[c] = {base, row_bytes(c), bits,
                   bits == 32 ? ~std::uint32_t{0} : (std::uint32_t{1} << bits) - 1};
    // The slack is read (and written back unchanged) by the 32-bit words: defined bytes.
    std::fill_n(base + size, kSlack, std::uint8_t{0});
  }
  // Zeroed once, so that its words are defined when move() adds to them.
  std::fill_n(classes_[0].base + (rows[0] - 1) * row_bytes(0), row_bytes(0), std::uint8_t{0});
  // `nets` reads the blocks: the partition itself below k = 16, else a BlockReader, whose
  // pointers stay in registers across the byte stores of the counting loop.
  const auto count_rows = [&](const auto& nets) {
    tbb::parallel_for(tbb::blocked_range<NodeID>(0, hg.num_nodes(), 256), [&](const auto& r) {
      std::vector<std::uint8_t> counts; // a packed row's entries, a byte each, while counted
      for (NodeID u = r.begin(); u != r.end(); ++u) {
        if (!has_row(u))
          continue;
        with_row(u, [&](auto row) {
          if constexpr (requires { row.pack(counts.data(), k_); }) {
            counts.assign(k_, 0);
            std::uint8_t* count = counts.data(); // not reloaded after each byte store
            for (NetID e : hg.incident_nets(u)) {
              const auto w = static_cast<std::uint8_t>(hg.net_weight(e)); // below 2^7
              nets.for_each_block_unordered(
                  e, [&](BlockID b) { count[b] = static_cast<std::uint8_t>(count[b] + w); });
            }
            row.pack(count, k_);
          } else {
            row.clear(k_);
            for (NetID e : hg.incident_nets(u)) {
              const auto w = static_cast<std::int32_t>(hg.net_weight(e));
              nets.for_each_block_unordered(e, [&](BlockID b) { row.add(b, w); });
            }
          }
        });
      }
    });
  };
  if (phg.has_connectivity_sets())
    phg.with_block_reader(count_rows);
  else
    count_rows(phg);
}

Weight Km1GainCache::gain_bound(NodeID u, BlockID from) const {
  if (!has_row(u)) {
    const Hypergraph& hg = phg_->hypergraph();
    Weight reach = 0; // the weight of u's nets that touch a block other than `from`
    for (NetID e : hg.incident_nets(u))
      if (phg_->touches_other_than(e, from))
        reach += hg.net_weight(e);
    return Weight{base_[u]} + reach;
  }
  return Weight{base_[u]} + with_row(u, [&](auto row) { return row.max_except(k_, from); });
}

// Offered blocks in increasing order: the most connected feasible one, then the lighter, then
// the lower id.
class Km1GainCache::BestTarget {
public:
  BestTarget(const PartitionedHypergraph& phg, NodeID u, std::span<const Weight> max_weights)
      : phg_(phg), u_(u), from_(phg.block(u)), max_weights_(max_weights) {}
  void offer(BlockID t, Weight ct) {
    if (t == from_ || ct == 0 || ct < best_conn_)
      return;
    const Weight bw = phg_.block_weight(t);
    if (ct == best_conn_ && bw >= best_weight_)
      return;
    if (!phg_.fits(u_, t, max_weights_))
      return;
    best_ = t;
    best_conn_ = ct;
    best_weight_ = bw;
  }
  MoveCandidate result(const Km1GainCache& cache) const {
    if (best_ == kInvalidBlockID)
      return {};
    return {best_, Weight{cache.base_[u_]} + best_conn_};
  }

private:
  const PartitionedHypergraph& phg_;
  NodeID u_;
  BlockID from_;
  std::span<const Weight> max_weights_;
  BlockID best_ = kInvalidBlockID;
  Weight best_conn_ = -1;
  Weight best_weight_ = 0;
};

MoveCandidate Km1GainCache::best_move(const PartitionedHypergraph& phg, NodeID u,
                                      std::span<const Weight> max_weights) const {
  if (!has_row(u))
    return counted_best_move(phg, u, max_weights);
  std::uint8_t bytes[kMaxSpreadBlocks + 8]; // a packed row's last group writes 8
  BestTarget best(phg, u, max_weights);
  const bool spread = with_row(u, [&](auto row) {
    if constexpr (requires(std::uint8_t * b) { row.spread(b, k_); }) {
      if (k_ <= kMaxSpreadBlocks) {
        row.spread(bytes, k_);
        return true;
      }
    }
    row.for_each_nonzero(k_, [&](BlockID t, std::int32_t ct) { best.offer(t, ct); });
    return false;
  });
  return spread ? best_of_bytes(phg, u, bytes, max_weights) : best.result(*this);
}

// The same choice as BestTarget's (the most connected feasible block, then the lighter, then
// the lower id) from u's connections as bytes, in loops without a branch per block: the blocks
// u does not fit into and its own block are set to 0, the largest entry left is the best
// connection, and the first scan for it sees few equal entries. The row's own loop branched on
// every nonzero entry and tested the fit of each entry above the best so far; FM's re-rating
// falls back to a full best move about a million times on wiki-vote k = 32.
MoveCandidate Km1GainCache::best_of_bytes(const PartitionedHypergraph& phg, NodeID u,
                                          std::uint8_t* bytes,
                                          std::span<const Weight> max_weights) const {
  if (phg.ncon() == 1) {
    const Weight* weights = phg.block_weights().data();
    const Weight* limits = max_weights.data();
    const Weight own = phg.hypergraph().vertex_weight(u, 0);
    for (BlockID t = 0; t < k_; ++t)
      bytes[t] = weights[t] + own <= limits[t] ? bytes[t] : std::uint8_t{0};
  } else {
    for (BlockID t = 0; t < k_; ++t)
      if (!phg.fits(u, t, max_weights))
        bytes[t] = 0;
  }
  bytes[phg.block(u)] = 0;
  std::uint8_t top = 0;
  for (BlockID t = 0; t < k_; ++t)
    top = std::max(top, bytes[t]);
  if (top == 0)
    return {};
  BlockID best = kInvalidBlockID;
  Weight best_weight = 0;
  for (BlockID t = 0; t < k_; ++t)
    if (bytes[t] == top && (best == kInvalidBlockID || phg.block_weight(t) < best_weight)) {
      best = t;
      best_weight = phg.block_weight(t);
    }
  return {best, Weight{base_[u]} + top};
}

MoveCandidate Km1GainCache::counted_best_move(const PartitionedHypergraph& phg, NodeID u,
                                              std::span<const Weight> max_weights) const {
  BestTarget best(phg, u, max_weights);
  for_each_counted(u, [&](BlockID t, Weight ct) { best.offer(t, ct); });
  return best.result(*this);
}

MoveCandidate Km1GainCache::counted_best_of(const PartitionedHypergraph& phg, NodeID u,
                                            std::span<const BlockID> candidates,
                                            std::span<const Weight> max_weights) const {
  // The few candidates' connections are counted in one pass over u's nets.
  constexpr std::size_t kFused = 4;
  Weight counted[kFused] = {};
  const bool fused = candidates.size() <= kFused;
  if (fused) {
    const Hypergraph& hg = phg.hypergraph();
    for (NetID e : hg.incident_nets(u)) {
      const Weight w = hg.net_weight(e);
      if (const std::uint64_t* set = phg.connectivity_set(e)) {
        for (std::size_t i = 0; i < candidates.size(); ++i) {
          const BlockID t = candidates[i];
          if (t < k_ && (set[t / 64] >> (t % 64) & 1) != 0)
            counted[i] += w;
        }
      } else { // a setless net: its few blocks against the few candidates
        phg.for_each_block_unordered(e, [&](BlockID b) {
          for (std::size_t i = 0; i < candidates.size(); ++i)
            if (candidates[i] == b)
              counted[i] += w;
        });
      }
    }
  }
  const BlockID from = phg.block(u);
  const Weight base = base_[u];
  BestMove best;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const BlockID t = candidates[i];
    if (t >= k_ || t == from || t == best.move.to)
      continue;
    const Weight ct = fused ? counted[i] : counted_conn(u, t);
    if (ct == 0 || !phg.fits(u, t, max_weights))
      continue;
    best.offer(t, base + ct, phg.block_weight(t));
  }
  return best.move;
}

void Km1GainCache::add_to_pins(std::span<const NodeID> pins, BlockID b, std::int32_t w) {
  // In locals: the stores go through byte pointers, after which members would be read again.
  const std::uint32_t* rows = row_.data();
  std::uint8_t* first[kClasses];
  std::size_t bytes[kClasses];
  std::uint32_t delta[kClasses];
  for (int c = 0; c < kClasses; ++c) {
    const std::size_t bit = static_cast<std::size_t>(b) * classes_[c].bits;
    first[c] = classes_[c].base + bit / 8;
    bytes[c] = classes_[c].row_bytes;
    delta[c] = static_cast<std::uint32_t>(w) << (bit % 8);
  }
  work_ += pins.size();
  for (NodeID v : pins) {
    const std::uint32_t x = rows[v];
    const unsigned c = x & 7;
    std::uint8_t* p = first[c] + std::size_t{x >> 3} * bytes[c];
    std::uint32_t word;
    std::memcpy(&word, p, sizeof word);
    word += delta[c];
    std::memcpy(p, &word, sizeof word);
  }
}

Weight Km1GainCache::move(PartitionedHypergraph& phg, NodeID u, BlockID to, NodeID max_touch_size,
                          std::vector<NetID>& touched_nets) {
  const Hypergraph& hg = phg.hypergraph();
  const BlockID from = phg.block(u);
  const bool in_step = state_ == phg.state(); // else phg changed behind the cache's back
  Weight base = 0; // u's in `to`: minus the weight of its nets with another pin there
  const Weight delta =
      phg.move(u, to, Objective::kKm1, [&](NetID e, std::uint32_t pf, std::uint32_t pt) {
        const std::int32_t w = static_cast<std::int32_t>(hg.net_weight(e));
        bool changed = false;
        if (pf == 0) {
          add_to_pins(hg.pins(e), from, -w);
          changed = true;
        } else if (pf == 1) {
          for (NodeID v : hg.pins(e))
            if (v != u && phg.block(v) == from) {
              base_[v] += w;
              break;
            }
          changed = true;
        }
        if (pt == 1) {
          add_to_pins(hg.pins(e), to, w);
          changed = true;
        } else if (pt == 2) {
          for (NodeID v : hg.pins(e))
            if (v != u && phg.block(v) == to) {
              base_[v] -= w;
              break;
            }
          changed = true;
        }
        if (changed && hg.net_size(e) <= max_touch_size)
          touched_nets.push_back(e);
        if (pt != 1)
          base -= w;
      });
  base_[u] = static_cast<std::int32_t>(base);
  if (in_step)
    state_ = phg.state();
  return delta;
}

} // namespace gnnpart::hg
