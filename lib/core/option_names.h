#pragma once
// The name of every value of the option enums (gnnpart/gnnpart_enums.hpp), as the CLI's flags,
// the Python keywords and the library's messages spell them: one table per enum, in the order of
// its values.
#include <cstddef>

#include "gnnpart/gnnpart_enums.hpp"

namespace gnnpart::api {

template <typename Enum> struct EnumName {
  const char* name;
  Enum value;
};

inline constexpr EnumName<Model> kModelNames[] = {{"graph", Model::kGraph},
                                                  {"hypergraph", Model::kHypergraph},
                                                  {"stochastic", Model::kStochastic}};
inline constexpr EnumName<Algorithm> kAlgorithmNames[] = {{"multilevel", Algorithm::kMultilevel},
                                                          {"metis", Algorithm::kMetis}};
inline constexpr EnumName<Objective> kObjectiveNames[] = {
    {"default", Objective::kDefault}, {"cut", Objective::kCut},
    {"volume", Objective::kVolume},   {"km1", Objective::kKm1},
    {"soed", Objective::kSoed},       {"max-volume", Objective::kMaxVolume},
    {"epoch", Objective::kEpoch}};
inline constexpr EnumName<Preset> kPresetNames[] = {
    {"fast", Preset::kFast}, {"default", Preset::kDefault}, {"strong", Preset::kStrong}};
inline constexpr EnumName<FlowRefinement> kFlowRefinementNames[] = {
    {"preset", FlowRefinement::kPreset},
    {"on", FlowRefinement::kOn},
    {"off", FlowRefinement::kOff}};
inline constexpr EnumName<VertexWeights> kVertexWeightsNames[] = {
    {"default", VertexWeights::kDefault},
    {"degree", VertexWeights::kDegree},
    {"unit", VertexWeights::kUnit},
    {"graph", VertexWeights::kGraph}};

// The name of value in table, or "?" for a value the table lacks.
template <typename Enum, std::size_t N>
constexpr const char* name_of(const EnumName<Enum> (&table)[N], Enum value) {
  for (const EnumName<Enum>& entry : table)
    if (entry.value == value)
      return entry.name;
  return "?";
}

} // namespace gnnpart::api
