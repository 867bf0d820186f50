#pragma once
// One-pass and restreaming vertex partitioners over a vertex-ordered adjacency stream: LDG,
// Fennel, and the volume-aware (column-net lambda-1, FREIGHT-style) score, optionally weighted
// by mini-batch traffic. Every pass assigns every vertex; blocks never exceed
// max_block_weight(n, k, epsilon) (unit vertex weights). Later passes start from the previous
// assignment (a vertex is taken out of its block, rescored and placed again).
// Memory: 4 bytes per vertex for blocks, + 4 for net states (volume), + 4 for net weights.
#include <chrono>
#include <span>
#include <vector>

#include "core/partition.h"
#include "streaming/stream_options.h"
#include "streaming/vertex_stream.h"

namespace gnnpart::streaming {

class ProgressMeter;

// CPU seconds used by the calling thread so far (for throughput figures on a busy machine).
double thread_cpu_seconds();

struct VertexStreamStats {
  std::vector<double> pass_seconds;
  std::vector<double> pass_cpu_seconds; // CPU time of the calling thread per pass
  EdgeID edges_per_pass = 0;            // undirected edges streamed per pass
  std::uint64_t batches = 0;            // buffered mode: batches solved
  std::uint64_t engine_fallbacks = 0;   // batches the engine failed on (solved locally)
};

// Wall and calling-thread CPU time of one pass from construction; record() appends both to stats
// (nothing when stats is null).
class PassTimer {
public:
  void record(VertexStreamStats* stats) const;

private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  double cpu_start_ = thread_cpu_seconds();
};

// options.algorithm must be kLdg or kFennel (objective kCut or kVolume). net_weights: one per
// vertex (its column net), empty for unit weights.
Partition stream_partition_vertices(VertexStream& stream, const StreamOptions& options,
                                    std::span<const float> net_weights = {},
                                    ProgressMeter* progress = nullptr,
                                    VertexStreamStats* stats = nullptr,
                                    std::vector<BlockID> initial = {});

} // namespace gnnpart::streaming
