#pragma once
// Size-constrained label propagation on a distributed graph. Labels are global vertex ids (a
// cluster is named after a vertex; its weight is kept exactly by the rank owning that vertex).
// Ranks move their vertices batch by batch; after each batch the weight changes go to the
// clusters' owners and the new labels to the ranks holding the moved vertices as ghosts. A rank
// may add at most (max_weight - W(C)) / P to a cluster C per batch, W(C) its global weight at
// the batch start, so no cluster ever exceeds max_weight, on any number of ranks.
#include <vector>

#include "distributed/comm.h"
#include "distributed/context.h"
#include "distributed/dist_graph.h"

namespace gnnpart::distributed {

struct Clustering {
  std::vector<NodeID> labels;           // n_total: cluster of every owned and ghost vertex
  std::vector<Weight> owned_weight;     // n_local: weight of the cluster named after vertex u
  std::vector<std::int64_t> owned_size; // n_local: its member count
};

Clustering cluster(const Comm& comm, const DistGraph& graph, const DistContext& ctx, int level,
                   Weight max_cluster_weight);

} // namespace gnnpart::distributed
