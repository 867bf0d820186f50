#pragma once
// The sampling of gnnpart-train's fetch mini-batches (DistDGL's scheme), as pure functions of
// global ids, so the distributed trainer and the single-process prediction
// (lib/cost/minibatch_rows.h) draw the same batches. Batch `batch` of `epoch` on rank r has the
// stream s = batch_stream(seed, epoch, batch, r); its seeds come from Rng(derive_seed(s, 0)),
// and frontier vertex v at layer l samples its neighbours with Rng(derive_seed(s, l + 1, v)),
// whoever does the sampling (the rank itself, or v's owner answering a sampling request).
#include <cstdint>
#include <span>
#include <vector>

#include "core/types.h"

namespace gnnpart::cost {

std::uint64_t batch_stream(std::uint64_t seed, std::uint64_t epoch, std::uint64_t batch,
                           std::uint64_t rank);

// min(batch_size, |train|) distinct vertices of `train` (uniform without replacement),
// returned sorted.
std::vector<NodeID> draw_seeds(std::span<const NodeID> train, NodeID batch_size,
                               std::uint64_t stream);

// DGL's neighbour sampling of v at layer l: all of `neighbors` when there are at most `fanout`,
// else `fanout` distinct ones uniformly without replacement. `neighbors` must be v's sorted
// adjacency (global ids), so the pick does not depend on who stores it. Appends to `out`.
void sample_neighbors(std::span<const NodeID> neighbors, std::uint32_t fanout, std::uint64_t stream,
                      std::size_t layer, NodeID v, std::vector<NodeID>& out);

} // namespace gnnpart::cost

namespace gnnpart::cost {

// Steps per epoch of the fetch mode: every rank runs the same number, enough for the k ranks'
// batches of batch_size to cover the training vertices once on average (at least 1).
std::uint64_t fetch_batches_per_epoch(std::uint64_t train_total, std::uint64_t ranks,
                                      NodeID batch_size);

} // namespace gnnpart::cost
