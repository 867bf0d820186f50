#include "core/hypergraph.h"

#include <algorithm>
#include <atomic>
#include <functional>
#include <utility>

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>
#include <tbb/task_arena.h>

#include "core/errors.h"
#include "core/vertex_weights.h"

namespace gnnpart {

Hypergraph::Hypergraph(NodeID num_nodes, std::vector<EdgeID> net_offsets, std::vector<NodeID> pins,
                       std::vector<Weight> net_weights, int ncon,
                       std::vector<Weight> vertex_weights)
    : num_nodes_(num_nodes), net_offsets_(std::move(net_offsets)), pins_(std::move(pins)),
      net_weights_(std::move(net_weights)) {
  if (net_offsets_.empty() || net_offsets_.front() != 0 || net_offsets_.back() != pins_.size())
    throw InvalidParameter("net offsets do not match the pin array");
  const NetID m = num_nets();
  if (!net_weights_.empty() && net_weights_.size() != m)
    throw InvalidParameter("net weight array must have one entry per net");

  for (NetID e = 0; e < m; ++e) {
    if (net_offsets_[e] > net_offsets_[e + 1])
      throw InvalidParameter(fmt::format("net offsets decrease at net {}", e));
  }

  // Sort each net's pins and drop repeats in place (in parallel), then compact. Nets that are
  // strictly increasing already (a contraction's, a packed level's, a column-net model's) are
  // only checked: a sort costs n log n even on sorted input.
  std::vector<EdgeID> kept(m, 0);
  const std::size_t bad_net = tbb::parallel_reduce(
      tbb::blocked_range<NetID>(0, m, 1024), std::size_t{m},
      [&](const tbb::blocked_range<NetID>& r, std::size_t bad) {
        for (NetID e = r.begin(); e != r.end(); ++e) {
          const auto first = pins_.begin() + net_offsets_[e];
          const auto last = pins_.begin() + net_offsets_[e + 1];
          const bool increasing = std::adjacent_find(first, last, std::greater_equal<>()) == last;
          if (!increasing)
            std::sort(first, last);
          if (first != last && *(last - 1) >= num_nodes)
            bad = std::min<std::size_t>(bad, e);
          kept[e] =
              static_cast<EdgeID>(increasing ? last - first : std::unique(first, last) - first);
        }
        return bad;
      },
      [](std::size_t a, std::size_t b) { return std::min(a, b); });
  if (bad_net != m)
    throw InvalidParameter(fmt::format("net {} has a pin id >= n = {}", bad_net, num_nodes));
  std::vector<EdgeID> new_offsets(static_cast<std::size_t>(m) + 1, 0);
  for (NetID e = 0; e < m; ++e)
    new_offsets[e + 1] = new_offsets[e] + kept[e];
  if (new_offsets[m] != pins_.size()) {
    std::vector<NodeID> compact(new_offsets[m]);
    tbb::parallel_for(
        tbb::blocked_range<NetID>(0, m, 1024), [&](const tbb::blocked_range<NetID>& r) {
          for (NetID e = r.begin(); e != r.end(); ++e)
            std::copy_n(pins_.begin() + net_offsets_[e], kept[e], compact.begin() + new_offsets[e]);
        });
    pins_ = std::move(compact);
  }
  net_offsets_ = std::move(new_offsets);
  shared_incidence_ = pin_matrix_symmetric();
  if (!shared_incidence_)
    build_incidence();
  set_vertex_weights(ncon, std::move(vertex_weights));
}

// Net e holds v exactly when net v holds e: then the sorted nets of every vertex u are the
// sorted pins of net u. For each vertex v, the nets e > v holding v, met in increasing order, must
// be the pins of net v above v, in order: a cursor into net v follows them, one step a pin (a
// binary search a pin before, which missed the cache on every step of rows of random vertices).
// The vertices are cut into ranges, one task each; a task reads the nets from its range's first
// vertex on, and only their pins in its range.
bool Hypergraph::pin_matrix_symmetric() const {
  constexpr std::size_t kMaxRanges = 8;
  constexpr NodeID kMinRangeNodes = 4096;
  if (num_nets() != num_nodes_)
    return false;
  const NodeID n = num_nodes_;
  const std::size_t ranges = std::clamp<std::size_t>(
      std::min<std::size_t>(static_cast<std::size_t>(tbb::this_task_arena::max_concurrency()),
                            n / kMinRangeNodes),
      1, kMaxRanges);
  std::vector<NodeID> next(n); // net v's pins above v matched so far
  std::atomic<bool> symmetric = true;
  tbb::parallel_for(
      tbb::blocked_range<std::size_t>(0, ranges, 1),
      [&](const tbb::blocked_range<std::size_t>& r) {
        for (std::size_t range = r.begin(); range != r.end(); ++range) {
          const auto lo = static_cast<NodeID>(range * n / ranges);
          const auto hi = static_cast<NodeID>((range + 1) * n / ranges);
          for (NetID e = lo; e < n; ++e) {
            if (!symmetric.load(std::memory_order_relaxed))
              return;
            const auto net = pins(e);
            if (e < hi)
              next[e] =
                  static_cast<NodeID>(std::upper_bound(net.begin(), net.end(), e) - net.begin());
            const NodeID end = std::min<NodeID>(hi, e); // the pins v in [lo, end) of net e
            for (auto v = lo == 0 ? net.begin() : std::lower_bound(net.begin(), net.end(), lo);
                 v != net.end() && *v < end; ++v) {
              const EdgeID at = net_offsets_[*v] + next[*v]++;
              if (at == net_offsets_[*v + 1] || pins_[at] != e) {
                symmetric.store(false, std::memory_order_relaxed);
                return;
              }
            }
          }
          for (NodeID v = lo; v < hi; ++v) // every pin above its net matched
            if (net_offsets_[v] + next[v] != net_offsets_[v + 1]) {
              symmetric.store(false, std::memory_order_relaxed);
              return;
            }
        }
      },
      tbb::simple_partitioner());
  return symmetric.load();
}

// Vertex -> nets from chunks of consecutive nets, each counted and then scattered by one task in
// net order: a vertex's list is its chunks' parts one after another, so it comes out sorted
// without atomics or a sort, and the same for any number of chunks (the arena's threads, at most
// kMaxChunks: 4 bytes a vertex and chunk while it runs; the cursors it replaced took 8).
void Hypergraph::build_incidence() {
  constexpr std::size_t kMaxChunks = 4;
  constexpr EdgeID kMinChunkPins = EdgeID{1} << 16;
  const NodeID num_nodes = num_nodes_;
  const NetID m = num_nets();
  const EdgeID num_pins = pins_.size();
  const std::size_t chunks = std::clamp<std::size_t>(
      std::min<std::size_t>(static_cast<std::size_t>(tbb::this_task_arena::max_concurrency()),
                            num_pins / kMinChunkPins),
      1, kMaxChunks);
  std::vector<NetID> first_net(chunks + 1, m); // chunk c: nets [first_net[c], first_net[c + 1])
  for (std::size_t c = 0; c < chunks; ++c)
    first_net[c] = static_cast<NetID>(
        std::lower_bound(net_offsets_.begin(), net_offsets_.end(), c * num_pins / chunks) -
        net_offsets_.begin());
  // position[c][u]: u's pins in chunk c, then where chunk c's part of u's list starts in it.
  std::vector<std::vector<NodeID>> position(chunks);
  auto each_chunk = [&](auto&& f) {
    tbb::parallel_for(
        tbb::blocked_range<std::size_t>(0, chunks, 1),
        [&](const tbb::blocked_range<std::size_t>& r) {
          for (std::size_t c = r.begin(); c != r.end(); ++c)
            f(c);
        },
        tbb::simple_partitioner());
  };
  each_chunk([&](std::size_t c) {
    position[c].assign(num_nodes, 0);
    NodeID* count = position[c].data();
    for (EdgeID i = net_offsets_[first_net[c]]; i != net_offsets_[first_net[c + 1]]; ++i)
      ++count[pins_[i]];
  });
  node_offsets_.assign(static_cast<std::size_t>(num_nodes) + 1, 0);
  tbb::parallel_for(tbb::blocked_range<NodeID>(0, num_nodes, 4096),
                    [&](const tbb::blocked_range<NodeID>& r) {
                      for (NodeID u = r.begin(); u != r.end(); ++u) {
                        NodeID degree = 0;
                        for (std::size_t c = 0; c < chunks; ++c)
                          degree += std::exchange(position[c][u], degree);
                        node_offsets_[u + 1] = degree;
                      }
                    });
  for (NodeID u = 0; u < num_nodes; ++u)
    node_offsets_[u + 1] += node_offsets_[u];
  incident_nets_.resize(num_pins);
  each_chunk([&](std::size_t c) {
    NodeID* next = position[c].data();
    for (NetID e = first_net[c]; e != first_net[c + 1]; ++e)
      for (EdgeID i = net_offsets_[e]; i != net_offsets_[e + 1]; ++i) {
        const NodeID u = pins_[i];
        incident_nets_[node_offsets_[u] + next[u]++] = e;
      }
  });
}

Hypergraph::Arrays Hypergraph::release() {
  Arrays arrays{std::move(net_offsets_), std::move(pins_), std::move(net_weights_), ncon_,
                std::move(vertex_weights_)};
  *this = Hypergraph();
  return arrays;
}

Hypergraph::Nets Hypergraph::take_nets() {
  taken_nets_ = num_nets();
  return {std::exchange(net_offsets_, {}), std::exchange(pins_, {})};
}

void Hypergraph::put_nets(Nets nets) {
  if (!net_offsets_.empty() || nets.offsets.size() != std::size_t{taken_nets_} + 1 ||
      nets.offsets.back() != nets.pins.size())
    throw InvalidParameter("put_nets: not the net arrays that were taken");
  net_offsets_ = std::move(nets.offsets);
  pins_ = std::move(nets.pins);
}

Weight Hypergraph::total_vertex_weight(int c) const {
  return sum_vertex_weights(vertex_weights_, ncon_, c, num_nodes());
}

void Hypergraph::set_vertex_weights(int ncon, std::vector<Weight> vertex_weights) {
  check_vertex_weights(ncon, vertex_weights, num_nodes());
  ncon_ = ncon;
  vertex_weights_ = std::move(vertex_weights);
}

} // namespace gnnpart
