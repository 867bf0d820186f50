#pragma once
// One options struct per run, passed down as const&. The CLI binds its flags straight into it;
// nothing writes run-time state into it.
#include <cstdint>
#include <string>
#include <string_view>

#include "core/logging.h"
#include "core/progress_status.h"
#include "core/types.h"
#include "gnnpart/gnnpart_defaults.h"
#include "gnnpart/gnnpart_enums.hpp"

namespace gnnpart {

// One set of enums for the library, the CLI, the C, C++ and Python APIs
// (include/gnnpart/gnnpart_enums.hpp; values and defaults: gnnpart_defaults.h).
using api::Algorithm;
using api::FlowRefinement;
using api::Model;
using api::Preset;
// The objective an engine minimises, resolved (the API's kDefault is not one): kCut: edge cut
// (graph) or cut-net (hypergraph); kVolume: sum of lambda-1 over the column nets of a graph;
// kKm1 / kSoed: hypergraph connectivity objectives; kMaxVolume / kEpoch: bottleneck objectives of
// the column-net model (largest per-block send + receive volume; epoch model's slowest rank).
enum class Objective {
  kCut = GNNPART_OBJECTIVE_CUT,
  kVolume = GNNPART_OBJECTIVE_VOLUME,
  kKm1 = GNNPART_OBJECTIVE_KM1,
  kSoed = GNNPART_OBJECTIVE_SOED,
  kMaxVolume = GNNPART_OBJECTIVE_MAX_VOLUME,
  kEpoch = GNNPART_OBJECTIVE_EPOCH
};

inline bool is_bottleneck(Objective objective) {
  return objective == Objective::kMaxVolume || objective == Objective::kEpoch;
}

struct PartitionOptions {
  BlockID k = 2;
  double epsilon = GNNPART_DEFAULT_EPSILON;
  std::uint64_t seed = GNNPART_DEFAULT_SEED;
  int threads = GNNPART_DEFAULT_THREADS;  // <= 0: all hardware threads
  Model model = static_cast<Model>(GNNPART_DEFAULT_MODEL);
  Algorithm algorithm = static_cast<Algorithm>(GNNPART_DEFAULT_ALGORITHM);
  Objective objective = Objective::kCut;  // the default model's default objective
  Preset preset = static_cast<Preset>(GNNPART_DEFAULT_PRESET);
  FlowRefinement flows = static_cast<FlowRefinement>(GNNPART_DEFAULT_FLOWS);
  Logger logger;  // quiet unless the caller asks
  ProgressStatus* progress = nullptr; // where the run reports its current phase (null: nowhere)
};

// The objective a model minimises unless told otherwise: cut for the graph model, km1 (the
// communication volume) for the hypergraph models.
inline Objective default_objective(Model model) {
  return model == Model::kGraph ? Objective::kCut : Objective::kKm1;
}

// Validates everything an entry point (CLI command, C/C++/Python function) is given, once:
// check_options plus an objective the model has and the METIS backend only for the graph
// model. Throws InvalidParameter with a readable message (flags as the CLI spells them).
void validate_options(const PartitionOptions& options, NodeID n);
// k >= 1, epsilon >= 0 and finite, k <= n (the engines' own entry checks).
void check_options(const PartitionOptions& options, NodeID n);

std::string_view to_string(Model model);
std::string_view to_string(Algorithm algorithm);
std::string_view to_string(Objective objective);
std::string_view to_string(Preset preset);
std::string_view to_string(FlowRefinement flows);

}  // namespace gnnpart
