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
  if (phg.num_nodes() >= kMaxNodes ||
      compute_weights(phg) >= std::numeric_limits<std::int32_t>::max())
    return false;
  compute_connections(phg);
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
  vertex_.resize(hg.num_nodes());
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
          vertex_[u].incident = static_cast<std::int32_t>(incident);
          vertex_[u].benefit = static_cast<std::int32_t>(benefit);
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
  std::size_t rows[4] = {0, 0, 0, 0};
  for (NodeID u = 0; u < n; ++u) {
    const int c = width_class(vertex_[u].incident);
    row_[u] = counting && hg.incident_nets(u).size() * kRowDivisor < k_
                  ? kNoRow
                  : static_cast<std::uint32_t>(rows[c]++ << 2 | c);
  }
  // The sink row, last of class 0: its entries are updated but never read.
  rowless_ = static_cast<std::uint32_t>(rows[0]++ << 2);
  std::replace(row_.begin(), row_.end(), kNoRow, rowless_);
  const std::size_t row_bytes[4] = {nibble_row_bytes(), k_, 2 * std::size_t{k_},
                                    4 * std::size_t{k_}};
  const auto bytes = [](auto* p) { return reinterpret_cast<std::uint8_t*>(p); };
  std::uint8_t* bases[4] = {bytes(rows4_.reserve(rows[0] * row_bytes[0] + kSlack)),
                            bytes(rows8_.reserve(rows[1] * row_bytes[1] + kSlack)),
                            bytes(rows16_.reserve(rows[2] * k_ + (kSlack + 1) / 2)),
                            bytes(rows32_.reserve(rows[3] * k_ + (kSlack + 3) / 4))};
  for (int c = 0; c < 4; ++c) {
    classes_[c] = {bases[c], row_bytes[c], static_cast<unsigned>(2 + c),
                   c == 3 ? ~std::uint32_t{0} : (std::uint32_t{1} << (4 << c)) - 1};
    // The slack is read (and written back unchanged) by the 32-bit words: defined bytes.
    std::fill_n(bases[c] + rows[c] * row_bytes[c], kSlack, std::uint8_t{0});
  }
  // Zeroed once, so that its words are defined when move() adds to them.
  std::fill_n(bases[0] + (rows[0] - 1) * row_bytes[0], row_bytes[0], std::uint8_t{0});
  tbb::parallel_for(tbb::blocked_range<NodeID>(0, hg.num_nodes(), 256), [&](const auto& r) {
    for (NodeID u = r.begin(); u != r.end(); ++u) {
      if (!has_row(u))
        continue;
      with_row(u, [&](auto row) {
        row.clear(k_);
        for (NetID e : hg.incident_nets(u)) {
          const auto w = static_cast<std::int32_t>(hg.net_weight(e));
          phg.for_each_block(e, [&](BlockID b) { row.add(b, w); });
        }
      });
    }
  });
}

Weight Km1GainCache::gain_bound(NodeID u, BlockID from) const {
  const VertexGains& g = vertex_[u];
  if (!has_row(u)) {
    const Hypergraph& hg = phg_->hypergraph();
    const std::size_t words = phg_->conn_words();
    Weight reach = 0; // the weight of u's nets that touch a block other than `from`
    for (NetID e : hg.incident_nets(u)) {
      const std::uint64_t* set = phg_->connectivity_set(e);
      bool other = false;
      for (std::size_t i = 0; i < words && !other; ++i)
        other = (i == from / 64 ? set[i] & ~(std::uint64_t{1} << (from % 64)) : set[i]) != 0;
      if (other)
        reach += hg.net_weight(e);
    }
    return Weight{g.benefit} - g.incident + reach;
  }
  return Weight{g.benefit} - g.incident +
         with_row(u, [&](auto row) { return row.max_except(k_, from); });
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
    const VertexGains& g = cache.vertex_[u_];
    return {best_, Weight{g.benefit} - g.incident + best_conn_};
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
  BestTarget best(phg, u, max_weights);
  if (has_row(u))
    with_row(u, [&](auto row) {
      for (BlockID t = 0; t < k_; ++t)
        best.offer(t, row.get(t));
    });
  else
    for_each_counted(u, [&](BlockID t, Weight ct) { best.offer(t, ct); });
  return best.result(*this);
}

MoveCandidate Km1GainCache::best_of(const PartitionedHypergraph& phg, NodeID u,
                                    std::span<const BlockID> candidates,
                                    std::span<const Weight> max_weights) const {
  // Without a row, the few candidates' connections are counted in one pass over u's nets.
  constexpr std::size_t kFused = 4;
  Weight counted[kFused] = {};
  const bool fused = !has_row(u) && candidates.size() <= kFused;
  if (fused) {
    const Hypergraph& hg = phg.hypergraph();
    for (NetID e : hg.incident_nets(u)) {
      const Weight w = hg.net_weight(e);
      for (std::size_t i = 0; i < candidates.size(); ++i) {
        if (candidates[i] < k_ && phg.in_connectivity_set(e, candidates[i]))
          counted[i] += w;
      }
    }
  }
  const BlockID from = phg.block(u);
  const Weight base = Weight{vertex_[u].benefit} - vertex_[u].incident;
  MoveCandidate best;
  Weight best_weight = 0;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const BlockID t = candidates[i];
    if (t >= k_ || t == from || t == best.to)
      continue;
    const Weight ct = fused ? counted[i] : conn(u, t);
    if (ct == 0 || !phg.fits(u, t, max_weights))
      continue;
    const Weight g = base + ct;
    const Weight bw = phg.block_weight(t);
    if (best.to == kInvalidBlockID || g > best.gain ||
        (g == best.gain && (bw < best_weight || (bw == best_weight && t < best.to)))) {
      best = {t, g};
      best_weight = bw;
    }
  }
  return best;
}

void Km1GainCache::add_to_pins(std::span<const NodeID> pins, BlockID b, std::int32_t w) {
  // In locals: the stores go through byte pointers, after which members would be read again.
  const std::uint32_t* rows = row_.data();
  std::uint8_t* first[4];
  std::size_t row_bytes[4];
  std::uint32_t delta[4];
  for (int c = 0; c < 4; ++c) {
    const std::size_t bit = static_cast<std::size_t>(b) << classes_[c].log_bits;
    first[c] = classes_[c].base + bit / 8;
    row_bytes[c] = classes_[c].row_bytes;
    delta[c] = static_cast<std::uint32_t>(w) << (bit % 8);
  }
  work_ += pins.size();
  for (NodeID v : pins) {
    const std::uint32_t x = rows[v];
    const unsigned c = x & 3;
    std::uint8_t* p = first[c] + std::size_t{x >> 2} * row_bytes[c];
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
  Weight benefit = 0;
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
              vertex_[v].benefit += w;
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
              vertex_[v].benefit -= w;
              break;
            }
          changed = true;
        }
        if (changed && hg.net_size(e) <= max_touch_size)
          touched_nets.push_back(e);
        if (pt == 1) // u's benefit in `to`: its nets where it is alone there
          benefit += w;
      });
  vertex_[u].benefit = static_cast<std::int32_t>(benefit);
  return delta;
}

} // namespace gnnpart::hg
