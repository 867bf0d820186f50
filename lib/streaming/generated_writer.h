#pragma once
// Writes generated edges (keys (u << 32) | v) as they come, in one of the formats of
// `gnnpart generate`: an edge list ("# vertices: N" / "# edges: M" headers, then "u v" lines;
// gzip for .gz), the binary edge stream, or the binary adjacency stream (symmetrized by an
// external sort under memory_bytes). The edge count goes into the headers first, so it must be
// known before the edges; finish() checks it and renames the file into place (io::OutputFile).
// Used by write_generated (a graph in memory) and by the streaming R-MAT generator.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/types.h"
#include "io/output_file.h"
#include "streaming/external_sort.h"
#include "streaming/generator.h"

namespace gnnpart::streaming {

class GeneratedWriter {
public:
  GeneratedWriter(const std::string& path, GeneratedFormat format, NodeID n, EdgeID m,
                  const std::vector<std::string>& comments, std::size_t memory_bytes,
                  const std::string& temp_dir);
  ~GeneratedWriter();
  GeneratedWriter(const GeneratedWriter&) = delete;
  GeneratedWriter& operator=(const GeneratedWriter&) = delete;

  void add(std::span<const std::uint64_t> keys);
  // Throws InvalidParameter when the edges added are not the m announced.
  void finish();

private:
  void flush();

  std::string path_;
  GeneratedFormat format_;
  NodeID n_;
  EdgeID m_;
  EdgeID added_ = 0;
  std::unique_ptr<io::OutputFile> out_;
  std::unique_ptr<AdjacencySorter> sorter_;
  std::string text_;
  std::vector<NodeID> ids_;
};

} // namespace gnnpart::streaming
