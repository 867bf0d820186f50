#pragma once
// One options struct per run, passed down as const&. The CLI binds its flags straight into it;
// nothing writes run-time state into it.
#include <cstdint>
#include <string>
#include <string_view>

#include "core/logging.h"
#include "core/types.h"

namespace gnnpart {

enum class Model { kGraph, kHypergraph, kStochastic };
enum class Algorithm { kMultilevel, kMetis };
// kCut: edge cut (graph) or cut-net (hypergraph); kVolume: sum of lambda-1 over the column
// nets of a graph; kKm1 / kSoed: hypergraph connectivity objectives.
enum class Objective { kCut, kVolume, kKm1, kSoed };
enum class Preset { kFast, kDefault, kStrong };
// Flow-based refinement of the hypergraph models: as the preset says (strong: on; default: on
// for hypergraph inputs, off on a graph's column-net start; fast: off), or forced.
enum class FlowRefinement { kPreset, kOn, kOff };

struct PartitionOptions {
  BlockID k = 2;
  double epsilon = 0.03;
  std::uint64_t seed = 0;
  int threads = 1;  // <= 0: all hardware threads
  Model model = Model::kGraph;
  Algorithm algorithm = Algorithm::kMultilevel;
  Objective objective = Objective::kCut;
  Preset preset = Preset::kDefault;
  FlowRefinement flows = FlowRefinement::kPreset;
  Logger logger;  // quiet unless the caller asks
};

// Validates k >= 1, epsilon >= 0, and k <= n; throws InvalidParameter with a readable message.
void check_options(const PartitionOptions& options, NodeID n);

std::string_view to_string(Model model);
std::string_view to_string(Algorithm algorithm);
std::string_view to_string(Objective objective);
std::string_view to_string(Preset preset);
std::string_view to_string(FlowRefinement flows);

}  // namespace gnnpart
