#include "distributed/clustering.h"

#include <algorithm>
#include <bit>
#include <cstdint>

#include "core/random.h"
#include "distributed/fetch.h"
#include "distributed/label_index.h"
#include "distributed/memory_trace.h"

namespace gnnpart::distributed {

namespace {

// The smallest list of a batch's labels that is made distinct before the batch's end (1 MiB).
constexpr std::size_t kCompactAt = std::size_t{1} << 18;

// The filter of labels just listed: 2^12 slots, 16 KiB.
constexpr int kRecentBits = 12;

// No index in the batch's list of clusters looked up yet.
constexpr std::uint32_t kNoIndex = UINT32_MAX;

// The ratings of one row's clusters (the summed weights of its edges to each), in an
// open-addressing table sized to the row: at most 2 * kMaxRow slots of 12 B, 96 KiB, in cache.
// The batch's global arrays indexed by a hash of every neighbour's label took three cache
// misses per entry (label, index slot, rating) on the finest level (R-MAT 10^7, P = 4). A
// table of 2^16 slots (rows up to 2^15) raised the second clustering's peak by about 400 KiB
// on R-MAT 10^7 at P = 4, its run's peak.
class RowRatings {
public:
  static constexpr std::size_t kMaxRow = std::size_t{1} << 12;

  // Prepares for a row of `degree` entries (at most kMaxRow).
  void start(std::size_t degree) {
    const std::size_t capacity = std::bit_ceil(std::max<std::size_t>(16, 2 * degree));
    if (labels_.size() < capacity) {
      labels_.assign(capacity, kInvalidNodeID);
      ratings_.assign(capacity, 0);
    }
    shift_ = 64 - std::countr_zero(capacity);
    mask_ = capacity - 1;
  }
  void add(NodeID label, Weight weight) {
    std::size_t s = slot_of(label);
    while (labels_[s] != label) {
      if (labels_[s] == kInvalidNodeID) {
        labels_[s] = label;
        used_.push_back(static_cast<std::uint32_t>(s));
        break;
      }
      s = (s + 1) & mask_;
    }
    ratings_[s] += weight;
  }
  Weight get(NodeID label) const {
    for (std::size_t s = slot_of(label);; s = (s + 1) & mask_) {
      if (labels_[s] == label)
        return ratings_[s];
      if (labels_[s] == kInvalidNodeID)
        return 0;
    }
  }
  template <typename Visit> void for_each(Visit&& visit) const {
    for (const std::uint32_t s : used_)
      visit(labels_[s], ratings_[s]);
  }
  void clear() {
    for (const std::uint32_t s : used_) {
      labels_[s] = kInvalidNodeID;
      ratings_[s] = 0;
    }
    used_.clear();
  }

private:
  std::size_t slot_of(NodeID label) const {
    return static_cast<std::size_t>((label * 0x9e3779b97f4a7c15ULL) >> shift_) & mask_;
  }

  std::vector<NodeID> labels_;
  std::vector<Weight> ratings_;
  std::vector<std::uint32_t> used_; // at most kMaxRow
  int shift_ = 60;
  std::size_t mask_ = 15;
};

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
  RowRatings row_ratings;
  std::vector<NodeID> recent(std::size_t{1} << kRecentBits);
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
      // A label just listed is not listed again (a direct-mapped filter of the last label per
      // hash slot; R-MAT's hubs are in many rows of a batch), which shortens the list to sort.
      known.clear();
      std::fill(recent.begin(), recent.end(), kInvalidNodeID);
      const auto list = [&](NodeID label) {
        NodeID& slot = recent[(label * 0x9e3779b97f4a7c15ULL) >> (64 - kRecentBits)];
        if (slot != label) {
          slot = label;
          known.push_back(label);
        }
      };
      std::size_t compact_at = kCompactAt;
      for (NodeID u = begin; u < end; ++u) {
        list(labels[u]);
        for (const NodeID v : row(u))
          list(labels[v]);
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
      rating.clear(); // sized to the list at the batch's first long row
      known_index.assign(known);
      const auto index = [&](NodeID label) { return known_index.at(label); };
      std::vector<NodeID> moved;
      std::vector<WeightDelta> deltas;
      for (NodeID u = begin; u < end; ++u) {
        const Weight w = graph.vertex_weight(u);
        const NodeID own = labels[u];
        const std::span<const NodeID> neighbours = row(u);
        const EdgeID first_edge = graph.first_edge(u);
        // The best cluster: the largest rating above the own cluster's among those with room,
        // ties by the seeded hash of the label (distinct for distinct labels, so the result
        // does not depend on the order the clusters are looked at). The rating is tested
        // first: only a cluster that could win is looked up in the batch's index for its
        // weight and budget (room: (added + w) * P <= U - W(C), i.e. added + w <=
        // (U - W(C)) / P rounded down, without a division).
        NodeID best_label = own;
        std::uint32_t best = 0;
        Weight best_rating = 0;
        std::uint64_t best_tie = 0;
        const auto consider = [&](NodeID label, Weight r, std::uint32_t c) {
          if (label == own || r < best_rating || (r == best_rating && best_label == own))
            return;
          if (c == kNoIndex)
            c = known_index.at(label);
          if ((added[c] + w) * ranks > std::max<Weight>(0, max_cluster_weight - known_weight[c]))
            return;
          const std::uint64_t tie = derive_seed(seed, level, round, label);
          if (r > best_rating || tie > best_tie) {
            best_label = label;
            best = c;
            best_rating = r;
            best_tie = tie;
          }
        };
        if (neighbours.size() <= RowRatings::kMaxRow) {
          // Ratings in a table sized to the row (in cache), keyed by label.
          row_ratings.start(neighbours.size());
          for (std::size_t j = 0; j < neighbours.size(); ++j)
            row_ratings.add(labels[neighbours[j]], graph.edge_weight(first_edge + j));
          best_rating = row_ratings.get(own);
          row_ratings.for_each([&](NodeID label, Weight r) { consider(label, r, kNoIndex); });
          row_ratings.clear();
        } else {
          // A long row (a hub): ratings by the batch's index of the clusters.
          if (rating.empty())
            rating.assign(known.size(), 0);
          touched.clear();
          for (std::size_t j = 0; j < neighbours.size(); ++j) {
            const std::uint32_t c = index(labels[neighbours[j]]);
            if (rating[c] == 0)
              touched.push_back(c);
            rating[c] += graph.edge_weight(first_edge + j);
          }
          best_rating = rating[index(own)];
          for (const std::uint32_t c : touched)
            consider(known[c], rating[c], c);
          for (const std::uint32_t c : touched)
            rating[c] = 0;
        }
        if (best_label == own)
          continue;
        added[best] += w;
        deltas.push_back({own, -w, -1});
        deltas.push_back({best_label, w, 1});
        labels[u] = best_label;
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
