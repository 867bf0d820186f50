#pragma once
// External-memory sort of an undirected edge stream into a binary adjacency stream: directed
// entries u->v and v->u go into a buffer of at most memory_bytes; each full buffer is radix
// sorted, deduplicated and written as a sorted run to a temporary file; a k-way merge of the
// runs (deduplicating across runs) writes the adjacency stream. Self loops are dropped.
// Memory is O(memory_bytes), independent of m.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "core/types.h"
#include "streaming/temp_file.h"
#include "streaming/edge_stream.h"

namespace gnnpart::streaming {

class ProgressMeter;

struct ExternalSortOptions {
  std::size_t memory_bytes = std::size_t{256} << 20; // buffer: keys + radix scratch
  std::string temp_dir;                              // empty: $TMPDIR or /tmp
};

struct ExternalSortStats {
  NodeID n = 0;
  EdgeID m = 0;                  // undirected simple edges written
  std::uint64_t input_edges = 0; // edges read
  std::uint64_t self_loops = 0;
  std::uint64_t duplicate_entries = 0; // directed entries merged away
  std::uint32_t runs = 0;
};

class AdjacencySorter {
public:
  explicit AdjacencySorter(const ExternalSortOptions& options);
  ~AdjacencySorter();
  AdjacencySorter(const AdjacencySorter&) = delete;
  AdjacencySorter& operator=(const AdjacencySorter&) = delete;

  // Adds the undirected edge {u, v} (both directions); self loops are counted and dropped.
  void add(NodeID u, NodeID v) {
    ++stats_.input_edges;
    if (u == v) {
      ++stats_.self_loops;
      return;
    }
    if (keys_.size() + 2 > capacity_)
      spill();
    keys_.push_back((static_cast<std::uint64_t>(u) << 32) | v);
    keys_.push_back((static_cast<std::uint64_t>(v) << 32) | u);
  }
  // Writes the adjacency stream to path with n = max(n, max id + 1) vertices.
  // progress (optional) reports the merge of the runs.
  ExternalSortStats finish(const std::string& path, NodeID n, ProgressMeter* progress = nullptr);

private:
  void sort_buffer();
  void spill();

  ExternalSortOptions options_;
  std::size_t capacity_;
  std::vector<std::uint64_t> keys_;
  std::vector<std::uint64_t> scratch_;
  std::vector<TempFile> runs_;
  std::uint64_t run_keys_ = 0;
  ExternalSortStats stats_;
};

// Sorts every edge of the stream (one pass) into an adjacency stream at path.
ExternalSortStats sort_edge_stream(EdgeStream& edges, const std::string& path,
                                   const ExternalSortOptions& options,
                                   ProgressMeter* progress = nullptr);

// LSD radix sort of 64-bit keys (bytes that are equal in all keys are skipped); scratch is
// resized to keys.size(). Exposed for tests.
void radix_sort(std::vector<std::uint64_t>& keys, std::vector<std::uint64_t>& scratch);

} // namespace gnnpart::streaming
