#pragma once
// The adjacency of a distributed graph kept in a scratch file instead of memory while the graph
// is only read row by row: from the finest level's first clustering through its refinement,
// the finest graph is read only by its clustering, the contractions of the first coarse
// level, ghost updates and its refinement's passes in vertex order, so its adjacency (4 B per
// entry, the largest array of a run) lives on disk then.
// The file is unlinked as soon as it is created, so it vanishes with the process however that
// ends. Reading rows with pread keeps them out of the process's resident memory.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/types.h"

namespace gnnpart::distributed {

struct DistGraph;

// An unlinked scratch file in dir (empty: $TMPDIR, else /tmp), written in order and read back
// with pread. Throws SystemError.
class ScratchFile {
public:
  explicit ScratchFile(const std::string& dir);
  ~ScratchFile();
  ScratchFile(ScratchFile&& other) noexcept
      : fd_(std::exchange(other.fd_, -1)), size_(other.size_), path_(std::move(other.path_)) {}
  ScratchFile& operator=(ScratchFile&&) = delete;
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;
  void append(const void* bytes, std::size_t size);
  void read(std::uint64_t offset, void* out, std::size_t size) const;

private:
  int fd_ = -1;
  std::uint64_t size_ = 0;
  std::string path_; // for messages; the name is unlinked already
};

class SpilledAdjacency {
public:
  // Writes adjacency to a new file in dir (empty: $TMPDIR, else /tmp) and frees the array.
  // Throws SystemError.
  SpilledAdjacency(std::vector<NodeID>& adjacency, const std::string& dir);
  EdgeID entries() const { return entries_; }
  // Entries [begin, end) into out (end - begin values). Throws SystemError.
  void read(EdgeID begin, EdgeID end, NodeID* out) const;

private:
  ScratchFile file_;
  EdgeID entries_ = 0;
};

// Moves graph.adjacency into a scratch file in dir (graph.spilled is set; offsets, weights and
// ghosts stay), and back. Only RowReader reads the rows of a spilled graph.
void spill_adjacency(DistGraph& graph, const std::string& dir);
void restore_adjacency(DistGraph& graph);

// The offsets and ghost ids of a graph, also kept in a scratch file while the graph is not read
// at all, or read without them: the finest graph from its first contraction to the projection
// onto it (8 B per owned vertex and 4 B per ghost under the coarser levels' clusterings,
// contractions, the initial partitioning and the coarse refinements; until session 25 they were
// taken back for the recontractions of the first coarse level), and its ghost ids in the
// contraction of that level, which reads the finest graph's rows and the coarse ids of its
// ghosts but not the ghosts' global ids (4 B per ghost under the merged rows). Written once;
// park() and park_ghosts() free the arrays, unpark() reads back what is parked. While parked
// the graph has no offsets (no rows) or no ghosts: nothing may read them.
class ParkedIndex {
public:
  ParkedIndex(const DistGraph& graph, const std::string& dir); // throws SystemError
  void park(DistGraph& graph) const;
  void park_ghosts(DistGraph& graph) const;
  void unpark(DistGraph& graph) const; // throws SystemError

private:
  ScratchFile file_;
  std::size_t offsets_ = 0, ghosts_ = 0;
};

// A coarse level that waits whole in a scratch file while it is not read: the levels freed
// during the initial partitioning and around a level refined as a copy (multilevel.cc). Every
// array of the graph (offsets, adjacency, edge and vertex weights, ghost ids) is written in
// order and freed; take() reads them back, one sequential read straight into each array, so the
// level comes back array for array as it went (until session 25 such a level was contracted
// again from its finer level instead: on R-MAT 10^9 at P = 4, the first coarse level's two
// recontractions took 1033.3 s of wall time). The graph must not be spilled (the finest graph's
// adjacency has SpilledAdjacency and ParkedIndex).
class SpilledLevel {
public:
  // Writes graph's arrays to a new file in dir and leaves graph empty. Throws SystemError.
  SpilledLevel(DistGraph& graph, const std::string& dir);
  SpilledLevel(SpilledLevel&&) noexcept;
  ~SpilledLevel();
  DistGraph take() const; // throws SystemError

private:
  ScratchFile file_;
  std::unique_ptr<DistGraph> shape_; // the level's ranges and counts; its arrays sized 0
  std::size_t offsets_ = 0, adjacency_ = 0, edge_weights_ = 0, edge_weights32_ = 0,
              vertex_weights_ = 0, ghosts_ = 0;
};

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
