#include "core/options.h"

#include <cmath>

#include <fmt/format.h>

#include "core/errors.h"

namespace gnnpart {

void check_options(const PartitionOptions& options, NodeID n) {
  if (options.k < 1) throw InvalidParameter("k must be at least 1");
  if (!(options.epsilon >= 0) || !std::isfinite(options.epsilon))
    throw InvalidParameter(fmt::format("epsilon = {} must be a finite value >= 0", options.epsilon));
  if (options.k > n && n > 0)
    throw InvalidParameter(fmt::format("k = {} exceeds the number of vertices n = {}", options.k, n));
}

void validate_options(const PartitionOptions& options, NodeID n) {
  check_options(options, n);
  const bool graph_model = options.model == Model::kGraph;
  if (graph_model && (options.objective == Objective::kKm1 || options.objective == Objective::kSoed))
    throw InvalidParameter(fmt::format("--objective {} needs --model hypergraph or stochastic",
                                       to_string(options.objective)));
  if (is_bottleneck(options.objective) && options.model != Model::kHypergraph)
    throw InvalidParameter(fmt::format(
        "--objective {} refines the column-net model: use --model hypergraph (the {} model has "
        "no per-block volumes)",
        to_string(options.objective), to_string(options.model)));
  if (!graph_model && options.algorithm == Algorithm::kMetis)
    throw InvalidParameter("--algo metis partitions the graph model only; use --model graph");
}

std::string_view to_string(Model model) {
  switch (model) {
    case Model::kGraph: return "graph";
    case Model::kHypergraph: return "hypergraph";
    case Model::kStochastic: return "stochastic";
  }
  return "?";
}

std::string_view to_string(Algorithm algorithm) {
  switch (algorithm) {
    case Algorithm::kMultilevel: return "multilevel";
    case Algorithm::kMetis: return "metis";
  }
  return "?";
}

std::string_view to_string(Objective objective) {
  switch (objective) {
    case Objective::kCut: return "cut";
    case Objective::kVolume: return "volume";
    case Objective::kKm1: return "km1";
    case Objective::kSoed: return "soed";
    case Objective::kMaxVolume: return "max-volume";
    case Objective::kEpoch: return "epoch";
  }
  return "?";
}

std::string_view to_string(Preset preset) {
  switch (preset) {
    case Preset::kFast: return "fast";
    case Preset::kDefault: return "default";
    case Preset::kStrong: return "strong";
  }
  return "?";
}

std::string_view to_string(FlowRefinement flows) {
  switch (flows) {
    case FlowRefinement::kPreset: return "preset";
    case FlowRefinement::kOn: return "on";
    case FlowRefinement::kOff: return "off";
  }
  return "?";
}

}  // namespace gnnpart
