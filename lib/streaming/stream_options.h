#pragma once
// Options of one streaming run, passed down as const&; the CLI binds its flags into it.
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "core/types.h"
#include "gnnpart/gnnpart_defaults.h"

namespace gnnpart::streaming {

enum class StreamAlgorithm { kLdg, kFennel, kBuffered, kHdrf, kDbh, kTwoPhase };
// kCut: edges to each block (LDG/Fennel); kVolume: lambda-1 of the column nets (FREIGHT-style).
enum class StreamObjective { kCut, kVolume };
// How the buffered mode solves a batch: the multilevel engine (falling back to the local
// solver when it fails) or the local Fennel + label propagation solver alone.
enum class BatchSolver { kMultilevel, kLocal };

struct StreamOptions {
  BlockID k = 2;
  double epsilon = 0.03;
  std::uint64_t seed = 0;
  StreamAlgorithm algorithm = StreamAlgorithm::kFennel;
  StreamObjective objective = StreamObjective::kCut;
  int passes = GNNPART_DEFAULT_STREAM_PASSES; // vertex partitioners: later passes restream
  double fennel_gamma = 1.5;
  double fennel_alpha = 0; // 0: sqrt(k) * m / n^1.5 (general: m k^(g-1) / n^g)
  double hdrf_lambda = 1.1;
  // Buffered mode (HeiStream style).
  NodeID batch_vertices = 32768;   // vertices per batch solved at once
  NodeID buffer_vertices = 0;      // priority buffer capacity (0: 2 * batch_vertices)
  double high_degree_factor = 100; // degree > factor * average: placed at once
  int batch_refinement_rounds = 8; // label-propagation rounds per batch
  BatchSolver batch_solver = BatchSolver::kMultilevel;
  // 2PS-L clustering passes over the edges.
  int clustering_passes = 1;
  // Mini-batch weighting of the volume score (train ids in a file, one per line).
  std::string train_path;
  std::uint64_t minibatch_size = 0;
  int threads = GNNPART_DEFAULT_THREADS; // <= 0: all hardware threads
};

std::string_view to_string(StreamAlgorithm algorithm);
// "ldg", "fennel", "buffered", "hdrf", "dbh", "2ps"; throws InvalidParameter otherwise.
StreamAlgorithm parse_stream_algorithm(std::string_view name);
bool is_edge_partitioner(StreamAlgorithm algorithm);
// The passes a vertex partitioner makes: options.passes, or the algorithm's own when it is 0.
int stream_passes(const StreamOptions& options);
// Throws InvalidParameter for k = 0, epsilon < 0, passes < 0, ...
void check_stream_options(const StreamOptions& options);

} // namespace gnnpart::streaming
