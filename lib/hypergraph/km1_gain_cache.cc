#include "hypergraph/km1_gain_cache.h"

#include <algorithm>
#include <limits>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

namespace gnnpart::hg {

bool Km1GainCache::rebuild(const PartitionedHypergraph& phg) {
  k_ = phg.k();
  if (compute_weights(phg) >= std::numeric_limits<std::int32_t>::max())
    return false;
  compute_connections(phg);
  return true;
}

void Km1GainCache::release() {
  *this = Km1GainCache();
}

Km1GainCache::Km1GainCache(const PartitionedHypergraph& phg) : k_(phg.k()) {
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
  std::size_t rows[4] = {0, 0, 0, 0};
  for (VertexGains& g : vertex_)
    g.row = static_cast<std::uint32_t>(rows[static_cast<int>(width(g.incident))]++);
  rows4_.reserve(rows[0] * nibble_row_bytes());
  rows8_.reserve(rows[1] * k_);
  rows16_.reserve(rows[2] * k_);
  rows32_.reserve(rows[3] * k_);
  tbb::parallel_for(tbb::blocked_range<NodeID>(0, hg.num_nodes(), 256), [&](const auto& r) {
    for (NodeID u = r.begin(); u != r.end(); ++u) {
      with_row(vertex_[u], [&](auto row) {
        row.clear(k_);
        for (NetID e : hg.incident_nets(u)) {
          const auto w = static_cast<std::int32_t>(hg.net_weight(e));
          phg.for_each_block(e, [&](BlockID b) { row.add(b, w); });
        }
      });
    }
  });
}

MoveCandidate Km1GainCache::best_move(const PartitionedHypergraph& phg, NodeID u,
                                      std::span<const Weight> max_weights) const {
  return with_row(vertex_[u], [&](auto row) { return best_move_in(row, phg, u, max_weights); });
}

template <typename Row>
MoveCandidate Km1GainCache::best_move_in(Row c, const PartitionedHypergraph& phg, NodeID u,
                                         std::span<const Weight> max_weights) const {
  const BlockID from = phg.block(u);
  MoveCandidate best;
  Weight best_weight = 0;
  std::int32_t best_conn = -1;
  for (BlockID t = 0; t < k_; ++t) {
    const std::int32_t ct = c.get(t);
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
    if (conn(vertex_[u], t) == 0 || !phg.fits(u, t, max_weights))
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
            add_conn(v, from, -w);
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
          for (NodeID v : hg.pins(e))
            add_conn(v, to, w);
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
      });
  Weight b = 0;
  for (NetID e : hg.incident_nets(u))
    if (phg.pin_count(e, to) == 1)
      b += hg.net_weight(e);
  vertex_[u].benefit = static_cast<std::int32_t>(b);
  return delta;
}

} // namespace gnnpart::hg
