#pragma once
// `gnnpart evaluate --minibatch --cost PROFILE`: the time per step of gnnpart-train's fetch
// mini-batches (DistDGL's scheme, lib/cost/minibatch_time.h), expected over fresh steps, for one
// partition (split and per-rank work) or several (ranked by predicted step time).
#include <string>
#include <vector>

#include "core/graph.h"
#include "core/partition.h"
#include "cost/minibatch_rows.h"
#include "cost/minibatch_time.h"
#include "cost_report.h"

namespace gnnpart::app {

struct StepCostCase {
  std::string name; // the partition file
  cost::StepTimeEstimate time;
  cost::FetchRowsEstimate rows;
};

struct StepCostRequest {
  const CostFlags* flags = nullptr;
  cost::FetchBatchOptions batches; // fanouts input layer first, as gnnpart-train takes them
  std::vector<NodeID> train;       // the training vertices (sorted)
  std::uint32_t samples = 0;       // fresh steps each expectation averages
};

std::vector<StepCostCase> predict_step_cases(const CsrGraph& graph,
                                             const std::vector<std::string>& names,
                                             const std::vector<Partition>& partitions,
                                             const StepCostRequest& request);

// One partition: the split and a per-rank table; several: ranking by predicted step time.
std::string step_cost_text(const std::vector<StepCostCase>& cases, const StepCostRequest& request);
// JSON value: an object for one case, {"ranking": [...]} for several.
std::string step_cost_json(const std::vector<StepCostCase>& cases, const StepCostRequest& request);

} // namespace gnnpart::app
