#include "streaming/stream_options.h"

#include <string>

#include "core/errors.h"
#include "streaming/scoring.h"

namespace gnnpart::streaming {

std::string_view to_string(StreamAlgorithm algorithm) {
  switch (algorithm) {
  case StreamAlgorithm::kLdg:
    return "ldg";
  case StreamAlgorithm::kFennel:
    return "fennel";
  case StreamAlgorithm::kBuffered:
    return "buffered";
  case StreamAlgorithm::kHdrf:
    return "hdrf";
  case StreamAlgorithm::kDbh:
    return "dbh";
  case StreamAlgorithm::kTwoPhase:
    return "2ps";
  }
  return "?";
}

StreamAlgorithm parse_stream_algorithm(std::string_view name) {
  for (const auto algorithm :
       {StreamAlgorithm::kLdg, StreamAlgorithm::kFennel, StreamAlgorithm::kBuffered,
        StreamAlgorithm::kHdrf, StreamAlgorithm::kDbh, StreamAlgorithm::kTwoPhase}) {
    if (to_string(algorithm) == name)
      return algorithm;
  }
  if (name == "2ps-l" || name == "2psl")
    return StreamAlgorithm::kTwoPhase;
  throw InvalidParameter("unknown streaming algorithm '" + std::string(name) +
                         "' (ldg, fennel, buffered, hdrf, dbh, 2ps)");
}

bool is_edge_partitioner(StreamAlgorithm algorithm) {
  return algorithm == StreamAlgorithm::kHdrf || algorithm == StreamAlgorithm::kDbh ||
         algorithm == StreamAlgorithm::kTwoPhase;
}

int stream_passes(const StreamOptions& options) {
  if (options.passes > 0)
    return options.passes;
  return options.algorithm == StreamAlgorithm::kBuffered ? 2 : 1;
}

void check_stream_options(const StreamOptions& options) {
  if (options.k == 0)
    throw InvalidParameter("k must be at least 1");
  if (options.k >= kNetCut)
    throw InvalidParameter("k too large");
  if (!(options.epsilon >= 0))
    throw InvalidParameter("epsilon must be >= 0");
  if (options.passes < 0)
    throw InvalidParameter("passes must be at least 1 (0: the algorithm's default)");
  if (!(options.fennel_gamma > 1.0))
    throw InvalidParameter("fennel gamma must be > 1");
  if (options.fennel_alpha < 0)
    throw InvalidParameter("fennel alpha must be >= 0");
  if (!(options.hdrf_lambda >= 0))
    throw InvalidParameter("hdrf lambda must be >= 0");
  if (options.batch_vertices == 0)
    throw InvalidParameter("batch size must be at least 1");
  if (options.clustering_passes < 1)
    throw InvalidParameter("clustering passes must be >= 1");
  if (!options.train_path.empty() && options.minibatch_size == 0) {
    throw InvalidParameter("--train needs --batch-size B > 0");
  }
}

} // namespace gnnpart::streaming
