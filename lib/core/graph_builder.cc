#include "core/graph_builder.h"

#include <algorithm>
#include <atomic>
#include <utility>

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include "core/errors.h"
#include "core/prefix_sum.h"

namespace gnnpart {

namespace {

constexpr std::size_t kGrain = 4096;

struct Validation {
  NodeID bad_id = 0;
  EdgeID bad_index = kInvalidEdgeID; // first offending input index
  EdgeID self_loops = 0;
};

} // namespace

CsrGraph build_csr(const EdgeList& edges, const BuildOptions& options, BuildStats* stats) {
  const NodeID n = edges.n;
  const std::size_t input = edges.sources.size();
  if (edges.targets.size() != input)
    throw InvalidParameter(
        fmt::format("edge list has {} sources but {} targets", input, edges.targets.size()));
  const bool weighted = !edges.weights.empty();
  if (weighted && edges.weights.size() != input)
    throw InvalidParameter(
        fmt::format("edge list has {} edges but {} weights", input, edges.weights.size()));
  const auto& src = edges.sources;
  const auto& dst = edges.targets;

  // Phase 1: count degrees (relaxed atomics), validating ids and counting self loops.
  std::vector<EdgeID> degree(n, 0);
  const Validation validation = tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, input, kGrain), Validation{},
      [&](const tbb::blocked_range<std::size_t>& r, Validation acc) {
        for (std::size_t i = r.begin(); i != r.end(); ++i) {
          const NodeID u = src[i];
          const NodeID v = dst[i];
          if (u >= n || v >= n) {
            if (i < acc.bad_index) {
              acc.bad_index = i;
              acc.bad_id = u >= n ? u : v;
            }
            continue;
          }
          if (u == v) {
            ++acc.self_loops;
            if (options.drop_self_loops)
              continue;
            std::atomic_ref<EdgeID>(degree[u]).fetch_add(1, std::memory_order_relaxed);
            continue; // a self loop is its own reverse: stored once
          }
          std::atomic_ref<EdgeID>(degree[u]).fetch_add(1, std::memory_order_relaxed);
          if (options.symmetrize)
            std::atomic_ref<EdgeID>(degree[v]).fetch_add(1, std::memory_order_relaxed);
        }
        return acc;
      },
      [](Validation a, const Validation& b) {
        if (b.bad_index < a.bad_index) {
          a.bad_index = b.bad_index;
          a.bad_id = b.bad_id;
        }
        a.self_loops += b.self_loops;
        return a;
      });
  if (validation.bad_index != kInvalidEdgeID)
    throw InvalidParameter(fmt::format("edge {} has vertex id {} >= n = {}", validation.bad_index,
                                       validation.bad_id, n));

  // Phase 2: prefix sum.
  std::vector<EdgeID> offsets;
  offsets_from_counts<EdgeID>(degree, offsets);
  const EdgeID scattered = offsets[n];

  // Phase 3: scatter. Each vertex's cursor starts at its offset; the order inside a list
  // depends on scheduling, but the sort below makes the result deterministic.
  std::vector<NodeID> adjacency(scattered);
  std::vector<Weight> weights(weighted ? scattered : 0);
  std::vector<EdgeID>& cursor = degree; // reuse: cursor[u] = offsets[u] + placed so far
  tbb::parallel_for(tbb::blocked_range<NodeID>(0, n, kGrain),
                    [&](const tbb::blocked_range<NodeID>& r) {
                      for (NodeID u = r.begin(); u != r.end(); ++u)
                        cursor[u] = offsets[u];
                    });
  tbb::parallel_for(
      tbb::blocked_range<std::size_t>(0, input, kGrain),
      [&](const tbb::blocked_range<std::size_t>& r) {
        for (std::size_t i = r.begin(); i != r.end(); ++i) {
          const NodeID u = src[i];
          const NodeID v = dst[i];
          if (u == v && options.drop_self_loops)
            continue;
          const Weight w = weighted ? edges.weights[i] : 1;
          EdgeID pos = std::atomic_ref<EdgeID>(cursor[u]).fetch_add(1, std::memory_order_relaxed);
          adjacency[pos] = v;
          if (weighted)
            weights[pos] = w;
          if (options.symmetrize && u != v) {
            pos = std::atomic_ref<EdgeID>(cursor[v]).fetch_add(1, std::memory_order_relaxed);
            adjacency[pos] = u;
            if (weighted)
              weights[pos] = w;
          }
        }
      });

  // Phase 4: per vertex sort by (target, weight), then dedupe in place keeping the largest
  // weight (the last of each run). new_degree[u] is the kept length of u's list.
  std::vector<EdgeID>& new_degree = degree; // cursor no longer needed
  tbb::enumerable_thread_specific<std::vector<std::pair<NodeID, Weight>>> scratch;
  tbb::parallel_for(
      tbb::blocked_range<NodeID>(0, n, 1024), [&](const tbb::blocked_range<NodeID>& r) {
        auto& buffer = scratch.local();
        for (NodeID u = r.begin(); u != r.end(); ++u) {
          const EdgeID first = offsets[u];
          const EdgeID last = offsets[u + 1];
          const EdgeID len = last - first;
          if (!weighted) {
            std::sort(adjacency.begin() + first, adjacency.begin() + last);
            if (!options.dedupe) {
              new_degree[u] = len;
              continue;
            }
            const auto end = std::unique(adjacency.begin() + first, adjacency.begin() + last);
            new_degree[u] = static_cast<EdgeID>(end - (adjacency.begin() + first));
            continue;
          }
          buffer.resize(len);
          for (EdgeID e = 0; e < len; ++e)
            buffer[e] = {adjacency[first + e], weights[first + e]};
          std::sort(buffer.begin(), buffer.end());
          EdgeID write = first;
          for (EdgeID e = 0; e < len; ++e) {
            if (options.dedupe && e + 1 < len && buffer[e + 1].first == buffer[e].first)
              continue; // a later entry of this run has a weight at least as large
            adjacency[write] = buffer[e].first;
            weights[write] = buffer[e].second;
            ++write;
          }
          new_degree[u] = write - first;
        }
      });

  // Phase 5: compact into the final arrays.
  std::vector<EdgeID> final_offsets;
  offsets_from_counts<EdgeID>(new_degree, final_offsets);
  const EdgeID kept = final_offsets[n];
  std::vector<NodeID> final_adjacency;
  std::vector<Weight> final_weights;
  if (kept == scattered) {
    final_adjacency = std::move(adjacency);
    final_weights = std::move(weights);
  } else {
    final_adjacency.resize(kept);
    if (weighted)
      final_weights.resize(kept);
    tbb::parallel_for(tbb::blocked_range<NodeID>(0, n, 1024),
                      [&](const tbb::blocked_range<NodeID>& r) {
                        for (NodeID u = r.begin(); u != r.end(); ++u) {
                          const EdgeID from = offsets[u];
                          const EdgeID to = final_offsets[u];
                          const EdgeID len = new_degree[u];
                          std::copy_n(adjacency.begin() + from, len, final_adjacency.begin() + to);
                          if (weighted)
                            std::copy_n(weights.begin() + from, len, final_weights.begin() + to);
                        }
                      });
  }
  if (stats != nullptr) {
    stats->self_loops_dropped = options.drop_self_loops ? validation.self_loops : 0;
    stats->duplicates_dropped = scattered - kept;
  }
  return CsrGraph(std::move(final_offsets), std::move(final_adjacency), std::move(final_weights));
}

} // namespace gnnpart
