#include "distributed/clustering.h"

#include <algorithm>
#include <cstdint>

#include "core/random.h"
#include "distributed/fetch.h"
#include "distributed/label_index.h"
#include "distributed/memory_trace.h"

namespace gnnpart::distributed {

namespace {

// The smallest list of a batch's labels that is made distinct before the batch's end (1 MiB).
constexpr std::size_t kCompactAt = std::size_t{1} << 18;

struct WeightDelta {
  NodeID cluster;
  Weight weight;
  std::int64_t size;
};

// Two-hop clustering (as KaMinPar's): vertices still alone after label propagation -- typically
// the low-degree neighbours of hubs whose clusters are full -- are grouped with the other
// singletons of this rank that prefer the same cluster (isolated vertices with each other), in
// clusters named after their first member and bounded by max_weight. Every cluster involved
// is owned here, so only the ghost labels need an exchange. Collective.
void cluster_singletons_by_favourite(const Comm& comm, const DistGraph& graph, Weight max_weight,
                                     Clustering& result) {
  std::vector<std::pair<NodeID, NodeID>> by_favourite; // (favourite cluster, vertex)
  std::vector<std::pair<NodeID, Weight>> ratings;
  RowReader row(graph, true);
  for (NodeID u = 0; u < graph.n_local; ++u) {
    if (result.labels[u] != graph.first() + u || result.owned_size[u] != 1)
      continue;
    ratings.clear();
    const std::span<const NodeID> neighbours = row(u);
    for (std::size_t j = 0; j < neighbours.size(); ++j)
      ratings.emplace_back(result.labels[neighbours[j]],
                           graph.edge_weight(graph.first_edge(u) + j));
    std::sort(ratings.begin(), ratings.end());
    NodeID favourite = kInvalidNodeID;
    Weight best = 0;
    for (std::size_t i = 0; i < ratings.size();) {
      Weight sum = 0;
      const NodeID label = ratings[i].first;
      for (; i < ratings.size() && ratings[i].first == label; ++i)
        sum += ratings[i].second;
      if (sum > best) {
        best = sum;
        favourite = label;
      }
    }
    by_favourite.emplace_back(favourite, u);
  }
  std::sort(by_favourite.begin(), by_favourite.end());
  std::vector<NodeID> changed;
  NodeID leader = kInvalidNodeID;
  for (std::size_t i = 0; i < by_favourite.size(); ++i) {
    const NodeID u = by_favourite[i].second;
    const Weight w = graph.vertex_weight(u);
    const bool new_group = i == 0 || by_favourite[i - 1].first != by_favourite[i].first;
    if (new_group || leader == kInvalidNodeID || result.owned_weight[leader] + w > max_weight) {
      leader = u;
      continue;
    }
    result.labels[u] = graph.first() + leader;
    result.owned_weight[leader] += w;
    result.owned_size[leader] += 1;
    result.owned_weight[u] -= w;
    result.owned_size[u] -= 1;
    changed.push_back(u);
  }
  update_ghosts<NodeID>(comm, graph, changed, result.labels);
}

} // namespace

Clustering cluster(const Comm& comm, const DistGraph& graph, const DistContext& ctx, int level,
                   Weight max_cluster_weight) {
  Clustering result;
  const NodeID n_local = graph.n_local;
  result.labels.resize(graph.n_total());
  for (NodeID u = 0; u < graph.n_total(); ++u)
    result.labels[u] = graph.global_id(u);
  result.owned_weight.resize(n_local);
  result.owned_size.assign(n_local, 1);
  for (NodeID u = 0; u < n_local; ++u)
    result.owned_weight[u] = graph.vertex_weight(u);
  std::vector<NodeID>& labels = result.labels;
  const Weight ranks = comm.size;
  const std::uint64_t seed = ctx.partition.seed;

  std::vector<NodeID> known; // clusters seen by this batch, sorted
  LabelIndex known_index;    // their positions in known
  std::vector<NodeID> known_scratch;
  std::vector<Weight> known_weight;
  std::vector<Weight> added; // weight this rank added to a known cluster in this batch
  std::vector<Weight> rating;
  std::vector<std::uint32_t> touched;
  RowReader row(graph, true); // each batch visits its rows in order, twice
  for (int round = 0; round < ctx.cluster_rounds; ++round) {
    std::uint64_t moved_round = 0;
    for (int batch = 0; batch < ctx.batches; ++batch) {
      const NodeID begin = static_cast<NodeID>(std::uint64_t{n_local} * batch / ctx.batches);
      const NodeID end = static_cast<NodeID>(std::uint64_t{n_local} * (batch + 1) / ctx.batches);
      // Global weights of every cluster this batch may look at. The labels are made distinct
      // whenever the list reaches twice its last distinct size (at least kCompactAt), so that
      // it and the sort's scratch follow the batch's distinct clusters, not its entries (on
      // R-MAT's long coarse rows, where most labels repeat, both held 4 B per entry of the
      // batch). The same sorted list in the end.
      known.clear();
      std::size_t compact_at = kCompactAt;
      for (NodeID u = begin; u < end; ++u) {
        known.push_back(labels[u]);
        for (const NodeID v : row(u))
          known.push_back(labels[v]);
        if (known.size() >= compact_at) {
          const std::size_t listed = known.size();
          sort_unique_labels(known, known_scratch);
          // A list that did not halve is within twice its distinct labels already (the finest
          // level's batches): no more sorts for this batch.
          compact_at =
              2 * known.size() > listed ? SIZE_MAX : std::max(kCompactAt, 2 * known.size());
        }
      }
      sort_unique_labels(known, known_scratch);
      known_weight = fetch<Weight>(comm, graph.vtxdist, known,
                                   [&](NodeID local) { return result.owned_weight[local]; });
      added.assign(known.size(), 0);
      rating.assign(known.size(), 0);
      known_index.assign(known);
      const auto index = [&](NodeID label) { return known_index.at(label); };
      std::vector<NodeID> moved;
      std::vector<WeightDelta> deltas;
      for (NodeID u = begin; u < end; ++u) {
        const Weight w = graph.vertex_weight(u);
        touched.clear();
        const std::span<const NodeID> neighbours = row(u);
        for (std::size_t j = 0; j < neighbours.size(); ++j) {
          const std::uint32_t c = index(labels[neighbours[j]]);
          if (rating[c] == 0)
            touched.push_back(c);
          rating[c] += graph.edge_weight(graph.first_edge(u) + j);
        }
        const std::uint32_t current = index(labels[u]);
        std::uint32_t best = current;
        Weight best_rating = rating[current];
        std::uint64_t best_tie = 0;
        for (const std::uint32_t c : touched) {
          if (c == current)
            continue;
          const Weight budget = std::max<Weight>(0, max_cluster_weight - known_weight[c]) / ranks;
          if (added[c] + w > budget)
            continue;
          const std::uint64_t tie = derive_seed(seed, level, round, known[c]);
          if (rating[c] > best_rating ||
              (rating[c] == best_rating && best != current && tie > best_tie)) {
            best = c;
            best_rating = rating[c];
            best_tie = tie;
          }
        }
        for (const std::uint32_t c : touched)
          rating[c] = 0;
        if (best == current)
          continue;
        added[best] += w;
        deltas.push_back({known[current], -w, -1});
        deltas.push_back({known[best], w, 1});
        labels[u] = known[best];
        moved.push_back(u);
      }
      // Weight changes to the clusters' owners, new labels to the ghost copies.
      const auto arrived = route<WeightDelta>(comm, [&](auto&& send) {
        for (const WeightDelta& d : deltas)
          send(owner_of(graph.vtxdist, d.cluster), d);
      });
      for (const WeightDelta& d : arrived) {
        result.owned_weight[d.cluster - graph.first()] += d.weight;
        result.owned_size[d.cluster - graph.first()] += d.size;
      }
      update_ghosts<NodeID>(comm, graph, moved, labels);
      moved_round += moved.size();
    }
    if (sum_all(comm, moved_round) * 1000 < graph.global_n)
      break;
  }
  cluster_singletons_by_favourite(comm, graph, max_cluster_weight, result);
  mark_memory_phase("cluster");
  return result;
}

} // namespace gnnpart::distributed
