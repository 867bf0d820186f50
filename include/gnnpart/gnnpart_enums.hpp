#pragma once
// The option enums of gnnpart, one set for the C++ API (gnnpart.hpp), the library's own
// options (lib/core/options.h), the CLI and the Python module. Their values are the C API's
// (gnnpart_defaults.h), so a C option converts by value.
#include "gnnpart_defaults.h"

namespace gnnpart::api {

enum class Model {
  kGraph = GNNPART_MODEL_GRAPH,
  kHypergraph = GNNPART_MODEL_HYPERGRAPH,
  kStochastic = GNNPART_MODEL_STOCHASTIC
};
enum class Algorithm {
  kMultilevel = GNNPART_ALGORITHM_MULTILEVEL,
  kMetis = GNNPART_ALGORITHM_METIS // graph model only
};
// kDefault: cut for the graph model, km1 (= communication volume) for the hypergraph models.
enum class Objective {
  kDefault = GNNPART_OBJECTIVE_DEFAULT,
  kCut = GNNPART_OBJECTIVE_CUT,
  kVolume = GNNPART_OBJECTIVE_VOLUME,
  kKm1 = GNNPART_OBJECTIVE_KM1,
  kSoed = GNNPART_OBJECTIVE_SOED,
  kMaxVolume = GNNPART_OBJECTIVE_MAX_VOLUME,
  kEpoch = GNNPART_OBJECTIVE_EPOCH
};
enum class Preset {
  kFast = GNNPART_PRESET_FAST,
  kDefault = GNNPART_PRESET_DEFAULT,
  kStrong = GNNPART_PRESET_STRONG
};
// Flow-based refinement of the hypergraph models. kPreset: on in the default preset for
// hypergraph inputs and in strong, off on a graph's column-net start in the default preset
// and in fast.
enum class FlowRefinement {
  kPreset = GNNPART_FLOWS_PRESET,
  kOn = GNNPART_FLOWS_ON,
  kOff = GNNPART_FLOWS_OFF
};
// Vertex weights of the hypergraph models. kDefault: the view's weights when given, else unit
// (blocks keep their share of vertices); kDegree: deg(u) + 1, the SpMM work of row u.
enum class VertexWeights {
  kDefault = GNNPART_VERTEX_WEIGHTS_DEFAULT,
  kDegree = GNNPART_VERTEX_WEIGHTS_DEGREE,
  kUnit = GNNPART_VERTEX_WEIGHTS_UNIT,
  kGraph = GNNPART_VERTEX_WEIGHTS_GRAPH
};

} // namespace gnnpart::api
