#pragma once
// The adjacency of a distributed graph kept in a scratch file instead of memory while the graph
// is only read row by row: from the finest level's first clustering to its refinement, the
// finest graph is read only by the contractions of the first coarse level and by ghost
// updates, so its adjacency (4 B per entry, the largest array of a run) lives on disk then.
// The file is unlinked as soon as it is created, so it vanishes with the process however that
// ends. Reading rows with pread keeps them out of the process's resident memory.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/types.h"

namespace gnnpart::distributed {

struct DistGraph;

class SpilledAdjacency {
public:
  // Writes adjacency to a new file in dir (empty: $TMPDIR, else /tmp) and frees the array.
  // Throws SystemError.
  SpilledAdjacency(std::vector<NodeID>& adjacency, const std::string& dir);
  ~SpilledAdjacency();
  SpilledAdjacency(const SpilledAdjacency&) = delete;
  SpilledAdjacency& operator=(const SpilledAdjacency&) = delete;
  EdgeID entries() const { return entries_; }
  // Entries [begin, end) into out (end - begin values). Throws SystemError.
  void read(EdgeID begin, EdgeID end, NodeID* out) const;

private:
  int fd_ = -1;
  EdgeID entries_ = 0;
  std::string path_; // for messages; the name is unlinked already
};

// Moves graph.adjacency into a scratch file in dir (graph.spilled is set; offsets, weights and
// ghosts stay), and back. Only RowReader reads the rows of a spilled graph.
void spill_adjacency(DistGraph& graph, const std::string& dir);
void restore_adjacency(DistGraph& graph);

// The rows of a graph whose adjacency is in memory (returned in place) or spilled (read into a
// buffer: with `ahead`, a window of up to kWindow entries from the row on, for visits in
// increasing vertex order; otherwise the row alone).
class RowReader {
public:
  static constexpr EdgeID kWindow = EdgeID{1} << 16;
  RowReader(const DistGraph& graph, bool ahead);
  std::span<const NodeID> operator()(NodeID u);

private:
  const DistGraph& graph_;
  bool ahead_;
  std::vector<NodeID> buffer_;
  EdgeID low_ = 0, high_ = 0; // entries held in buffer_
};

} // namespace gnnpart::distributed
