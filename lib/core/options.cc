#include "core/options.h"

#include <cmath>

#include <fmt/format.h>

#include "core/errors.h"
#include "core/option_names.h"

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
  return api::name_of(api::kModelNames, model);
}

std::string_view to_string(Algorithm algorithm) {
  return api::name_of(api::kAlgorithmNames, algorithm);
}

std::string_view to_string(Objective objective) {
  return api::name_of(api::kObjectiveNames, static_cast<api::Objective>(objective));
}

std::string_view to_string(Preset preset) {
  return api::name_of(api::kPresetNames, preset);
}

std::string_view to_string(FlowRefinement flows) {
  return api::name_of(api::kFlowRefinementNames, flows);
}

}  // namespace gnnpart
