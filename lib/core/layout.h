#pragma once
// Plain-array descriptions of what one worker of a distributed GNN trainer holds. Built by
// lib/layout/layout_plan.h, written and read by lib/layout/layout_io.h; the file format is in
// docs/layout.md. Per-neighbour lists are CSR-like: the entries for neighbours[i] are
// list[offsets[i] .. offsets[i + 1]).
#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "core/types.h"

namespace gnnpart {

// Block p of a vertex partition (1D row layout of a GCN's aggregation).
// Local ids: 0 .. num_owned-1 are the owned vertices in increasing global id; num_owned + s is
// halo slot s. Halo slots are grouped by owner block (increasing), increasing global id inside
// a group. For every pair (p, q), the rows p sends to q (send list, increasing global id) and
// the slots q fills from p (receive list) describe the same vertices in the same order.
struct LayoutPlan {
  BlockID block = 0;
  BlockID k = 0;
  NodeID n = 0; // vertices of the whole graph
  EdgeID m = 0; // undirected edges of the whole graph

  std::vector<NodeID> owned;       // global ids, increasing
  std::vector<EdgeID> row_offsets; // local CSR of the owned rows, num_owned + 1 entries
  std::vector<NodeID> columns;     // local ids, increasing inside a row (owned cols first)
  std::vector<NodeID> halo;        // global id per halo slot
  std::vector<BlockID> halo_owner; // owner block per halo slot
  std::vector<NodeID> degree;      // global degree (without self loop) per local id

  std::vector<BlockID> neighbors;   // blocks with a non-empty send or receive list, increasing
  std::vector<EdgeID> send_offsets; // neighbors.size() + 1
  std::vector<NodeID> send_local;   // local ids of owned rows
  std::vector<EdgeID> recv_offsets; // neighbors.size() + 1
  std::vector<NodeID> recv_local;   // local ids of halo slots (>= num_owned)

  // Optional: owned local ids in the train/val/test sets (increasing) and labels per owned row.
  std::vector<NodeID> train_local;
  std::vector<NodeID> val_local;
  std::vector<NodeID> test_local;
  std::vector<std::int64_t> labels; // empty or num_owned entries, -1 = unlabeled

  NodeID num_owned() const { return static_cast<NodeID>(owned.size()); }
  NodeID num_halo() const { return static_cast<NodeID>(halo.size()); }
  NodeID num_local() const { return num_owned() + num_halo(); }
  std::uint64_t send_rows() const { return send_local.size(); }
  std::uint64_t recv_rows() const { return recv_local.size(); }
};

// Sparse feature rows sliced to one block's owned vertices (CSR, float32 values).
struct FeatureSlice {
  std::uint32_t dim = 0;       // columns of the whole matrix
  std::vector<EdgeID> offsets; // num_owned + 1
  std::vector<std::uint32_t> cols;
  std::vector<float> values;
};

// Block p of an edge partition (vertex-cut). Local ids index `vertices` (the copies held by p,
// increasing global id). Every covered vertex has exactly one master copy; its other copies
// are mirrors. For each neighbour q: mirror list = local ids of p's mirrors whose master is in
// q; master list = local ids of p's masters with a mirror in q; both in increasing global id,
// so p's mirror list for q and q's master list for p name the same vertices in the same order.
// Reduction: mirrors send along the mirror list, masters add what arrives along the master
// list. Broadcast: the reverse direction on the same lists.
struct EdgeLayoutBlock {
  BlockID block = 0;
  BlockID k = 0;
  NodeID n = 0;
  EdgeID m = 0;

  std::vector<NodeID> vertices; // global ids of the copies, increasing
  std::vector<BlockID> master;  // master block per copy (== block: this is the master)
  std::vector<NodeID> degree;   // global degree per copy
  std::vector<EdgeID> edge_ids; // input positions of this block's edges, increasing
  std::vector<NodeID> edge_src; // local ids
  std::vector<NodeID> edge_dst; // local ids

  std::vector<BlockID> neighbors;
  std::vector<EdgeID> mirror_offsets; // neighbors.size() + 1
  std::vector<NodeID> mirror_local;
  std::vector<EdgeID> master_offsets; // neighbors.size() + 1
  std::vector<NodeID> master_local;

  std::uint64_t num_mirrors() const;
};

inline std::uint64_t EdgeLayoutBlock::num_mirrors() const {
  std::uint64_t count = 0;
  for (std::size_t i = 0; i < vertices.size(); ++i)
    count += master[i] != block;
  return count;
}

// Predicted traffic of a layout, for the manifest.
struct LayoutSummary {
  std::uint64_t rows_per_layer = 0; // vertex layout: sum of send rows; edge layout: mirrors
  std::uint64_t max_send_rows = 0;
  std::uint64_t max_recv_rows = 0;
  std::uint64_t messages = 0; // ordered (p, q) pairs with a message per layer
};

inline LayoutSummary summarize_layout(std::span<const LayoutPlan> plans) {
  LayoutSummary s;
  for (const LayoutPlan& plan : plans) {
    s.rows_per_layer += plan.send_rows();
    s.max_send_rows = std::max<std::uint64_t>(s.max_send_rows, plan.send_rows());
    s.max_recv_rows = std::max<std::uint64_t>(s.max_recv_rows, plan.recv_rows());
    for (std::size_t i = 0; i < plan.neighbors.size(); ++i) {
      s.messages += plan.send_offsets[i + 1] > plan.send_offsets[i];
    }
  }
  return s;
}

// Rows of one reduction (mirrors to masters); a broadcast moves as many rows back.
inline LayoutSummary summarize_layout(std::span<const EdgeLayoutBlock> blocks) {
  LayoutSummary s;
  for (const EdgeLayoutBlock& b : blocks) {
    const std::uint64_t sent = b.mirror_local.size();
    const std::uint64_t received = b.master_local.size();
    s.rows_per_layer += sent;
    s.max_send_rows = std::max(s.max_send_rows, sent);
    s.max_recv_rows = std::max(s.max_recv_rows, received);
    for (std::size_t i = 0; i < b.neighbors.size(); ++i) {
      s.messages += b.mirror_offsets[i + 1] > b.mirror_offsets[i];
    }
  }
  return s;
}

} // namespace gnnpart
