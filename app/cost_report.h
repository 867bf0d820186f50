#pragma once
// `gnnpart evaluate --cost PROFILE`: the epoch-time model of lib/cost applied to one partition
// (per-rank breakdown) or several (ranked by predicted epoch time).
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/graph.h"
#include "core/partition.h"
#include "cost/epoch_model.h"

namespace gnnpart::app {

// --cost, --layers, --hidden, --classes, --dropout, --feature-density; the feature dimension
// comes from evaluate's --feature-dim (the trainer's default 16 when not given).
struct CostFlags {
  std::string profile;
  cost::GcnShape shape;
};
void add_cost_flags(CLI::App& command, CostFlags& flags);

struct CostCase {
  std::string name; // the partition file
  cost::EpochPrediction prediction;
  std::vector<cost::BlockTraffic> blocks;
};

// Predicts every partition with the flags' profile and shape.
std::vector<CostCase> predict_cases(const CsrGraph& graph, const std::vector<std::string>& names,
                                    const std::vector<Partition>& partitions,
                                    const CostFlags& flags);

// One partition: per-rank table; several: ranking by predicted epoch time (fastest first).
std::string cost_text(const std::vector<CostCase>& cases, const CostFlags& flags);
// JSON value: an object for one case, {"ranking": [...]} for several.
std::string cost_json(const std::vector<CostCase>& cases, const CostFlags& flags);

} // namespace gnnpart::app
