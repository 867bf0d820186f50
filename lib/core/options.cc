#include "core/options.h"

#include <fmt/format.h>

#include "core/errors.h"

namespace gnnpart {

void check_options(const PartitionOptions& options, NodeID n) {
  if (options.k < 1) throw InvalidParameter("k must be at least 1");
  if (!(options.epsilon >= 0)) throw InvalidParameter("epsilon must be >= 0");
  if (options.k > n && n > 0)
    throw InvalidParameter(fmt::format("k = {} exceeds the number of vertices n = {}", options.k, n));
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
