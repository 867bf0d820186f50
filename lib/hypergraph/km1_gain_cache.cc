#include "hypergraph/km1_gain_cache.h"

#include <algorithm>
#include <limits>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

namespace gnnpart::hg {

bool Km1GainCache::rebuild(const PartitionedHypergraph& phg) {
  k_ = phg.k();
  const Weight largest = compute_weights(phg);
  if (largest >= std::numeric_limits<std::int32_t>::max())
    return false;
  compute_connections(phg, largest);
  return true;
}

Km1GainCache::Km1GainCache(const PartitionedHypergraph& phg) : k_(phg.k()) {
  compute_connections(phg, compute_weights(phg));
}

namespace {

// At least `size` entries, uninitialised: the caller zeroes them row by row in parallel, so
// fresh pages are also faulted in by all threads.
template <typename T>
T* storage(std::unique_ptr<T[]>& data, std::size_t& capacity, std::size_t size) {
  if (capacity < size) {
    data.reset();
    data.reset(new T[size]);
    capacity = size;
  }
  return data.get();
}

} // namespace

Weight Km1GainCache::compute_weights(const PartitionedHypergraph& phg) {
  const Hypergraph& hg = phg.hypergraph();
  benefit_.assign(hg.num_nodes(), 0);
  incident_.assign(hg.num_nodes(), 0);
  return tbb::parallel_reduce(
      tbb::blocked_range<NodeID>(0, hg.num_nodes(), 256), Weight{0},
      [&](const auto& r, Weight best) {
        for (NodeID u = r.begin(); u != r.end(); ++u) {
          const BlockID from = phg.block(u);
          for (NetID e : hg.incident_nets(u)) {
            const Weight w = hg.net_weight(e);
            incident_[u] += w;
            if (phg.pin_count(e, from) == 1)
              benefit_[u] += w;
          }
          best = std::max(best, incident_[u]);
        }
        return best;
      },
      [](Weight a, Weight b) { return std::max(a, b); });
}

void Km1GainCache::compute_connections(const PartitionedHypergraph& phg, Weight largest) {
  const Hypergraph& hg = phg.hypergraph();
  wide_ = largest > std::numeric_limits<std::uint16_t>::max();
  const std::size_t size = static_cast<std::size_t>(phg.num_nodes()) * k_;
  if (wide_)
    storage(conn32_, capacity32_, size);
  else
    storage(conn16_, capacity16_, size);
  tbb::parallel_for(tbb::blocked_range<NodeID>(0, hg.num_nodes(), 256), [&](const auto& r) {
    for (NodeID u = r.begin(); u != r.end(); ++u) {
      if (wide_)
        std::fill_n(conn32_.get() + index(u, 0), k_, 0);
      else
        std::fill_n(conn16_.get() + index(u, 0), k_, 0);
      for (NetID e : hg.incident_nets(u)) {
        const auto w = static_cast<std::int32_t>(hg.net_weight(e));
        phg.for_each_block(e, [&](BlockID b) { add_conn(index(u, b), w); });
      }
    }
  });
}

MoveCandidate Km1GainCache::best_move(const PartitionedHypergraph& phg, NodeID u,
                                      std::span<const Weight> max_weights) const {
  return wide_ ? best_move_in(conn32_.get() + index(u, 0), phg, u, max_weights)
               : best_move_in(conn16_.get() + index(u, 0), phg, u, max_weights);
}

template <typename T>
MoveCandidate Km1GainCache::best_move_in(const T* c, const PartitionedHypergraph& phg, NodeID u,
                                         std::span<const Weight> max_weights) const {
  const BlockID from = phg.block(u);
  MoveCandidate best;
  Weight best_weight = 0;
  std::int32_t best_conn = -1;
  for (BlockID t = 0; t < k_; ++t) {
    const std::int32_t ct = c[t];
    if (t == from || ct == 0 || ct < best_conn)
      continue;
    const Weight bw = phg.block_weight(t);
    if (ct == best_conn && bw >= best_weight)
      continue;
    if (!phg.fits(u, t, max_weights))
      continue;
    best = {t, 0};
    best_conn = ct;
    best_weight = bw;
  }
  if (best.to != kInvalidBlockID)
    best.gain = gain(u, best.to);
  return best;
}

MoveCandidate Km1GainCache::best_of(const PartitionedHypergraph& phg, NodeID u,
                                    std::span<const BlockID> candidates,
                                    std::span<const Weight> max_weights) const {
  const BlockID from = phg.block(u);
  MoveCandidate best;
  Weight best_weight = 0;
  for (BlockID t : candidates) {
    if (t >= k_ || t == from || t == best.to)
      continue;
    const std::size_t i = index(u, t);
    if (conn(i) == 0 || !phg.fits(u, t, max_weights))
      continue;
    const Weight g = gain(u, t);
    const Weight bw = phg.block_weight(t);
    if (best.to == kInvalidBlockID || g > best.gain ||
        (g == best.gain && (bw < best_weight || (bw == best_weight && t < best.to)))) {
      best = {t, g};
      best_weight = bw;
    }
  }
  return best;
}

Weight Km1GainCache::move(PartitionedHypergraph& phg, NodeID u, BlockID to, NodeID max_touch_size,
                          std::vector<NetID>& touched_nets) {
  const Hypergraph& hg = phg.hypergraph();
  const BlockID from = phg.block(u);
  const Weight delta =
      phg.move(u, to, Objective::kKm1, [&](NetID e, std::uint32_t pf, std::uint32_t pt) {
        const std::int32_t w = static_cast<std::int32_t>(hg.net_weight(e));
        bool changed = false;
        if (pf == 0) {
          for (NodeID v : hg.pins(e))
            add_conn(index(v, from), -w);
          changed = true;
        } else if (pf == 1) {
          for (NodeID v : hg.pins(e))
            if (v != u && phg.block(v) == from) {
              benefit_[v] += w;
              break;
            }
          changed = true;
        }
        if (pt == 1) {
          for (NodeID v : hg.pins(e))
            add_conn(index(v, to), w);
          changed = true;
        } else if (pt == 2) {
          for (NodeID v : hg.pins(e))
            if (v != u && phg.block(v) == to) {
              benefit_[v] -= w;
              break;
            }
          changed = true;
        }
        if (changed && hg.net_size(e) <= max_touch_size)
          touched_nets.push_back(e);
      });
  Weight b = 0;
  for (NetID e : hg.incident_nets(u))
    if (phg.pin_count(e, to) == 1)
      b += hg.net_weight(e);
  benefit_[u] = b;
  return delta;
}

} // namespace gnnpart::hg
