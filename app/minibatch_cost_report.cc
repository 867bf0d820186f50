#include "minibatch_cost_report.h"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/errors.h"
#include "cost/profile.h"
#include "io/json_reader.h"

namespace gnnpart::app {
namespace {

constexpr const char* kPartNames[] = {"sampling", "fetch", "layers", "adam"};

cost::GcnShape step_shape(const StepCostRequest& request) {
  cost::GcnShape shape = request.flags->shape;
  shape.layers = static_cast<int>(request.batches.fanouts.size());
  return shape;
}

// The part of the step after the last segment: Adam on the slowest rank.
double adam_seconds(const cost::StepPrediction& p) {
  return p.seconds - p.sampling - p.fetch - p.compute - p.allreduce;
}

std::vector<std::size_t> fastest_first(const std::vector<StepCostCase>& cases) {
  std::vector<std::size_t> order(cases.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return cases[a].time.seconds.mean < cases[b].time.seconds.mean;
  });
  return order;
}

std::string case_json(const StepCostCase& c) {
  const cost::StepPrediction& p = c.time.mean;
  std::string ranks;
  for (std::size_t r = 0; r < p.rank_work.size(); ++r) {
    ranks += fmt::format("{}{{\"rank\": {}, \"rows_fetched\": {:.6g}, \"work_s\": {:.6g}, "
                         "\"parts_s\": {{",
                         r ? ", " : "", r, c.rows.per_block[r], p.rank_work[r]);
    for (std::size_t i = 0; i < p.rank_parts[r].size(); ++i)
      ranks += fmt::format("{}\"{}\": {:.6g}", i ? ", " : "", kPartNames[i], p.rank_parts[r][i]);
    ranks += "}}";
  }
  return fmt::format(
      "{{\"partition\": {}, \"k\": {}, \"predicted_step_s\": {:.6g}, "
      "\"predicted_step_stderr_s\": {:.6g}, \"samples\": {}, \"sampling_s\": {:.6g}, "
      "\"fetch_s\": {:.6g}, \"layers_s\": {:.6g}, \"allreduce_s\": {:.6g}, \"adam_s\": {:.6g}, "
      "\"rows_per_step\": {:.6g}, \"rows_per_step_stderr\": {:.6g}, \"ranks\": [{}]}}",
      io::json_quoted(c.name), p.rank_work.size(), c.time.seconds.mean,
      c.time.seconds.standard_error, c.time.samples, p.sampling, p.fetch, p.compute, p.allreduce,
      adam_seconds(p), c.rows.mean, c.rows.standard_error, ranks);
}

} // namespace

std::vector<StepCostCase> predict_step_cases(const CsrGraph& graph,
                                             const std::vector<std::string>& names,
                                             const std::vector<Partition>& partitions,
                                             const StepCostRequest& request) {
  const cost::CostProfile profile = cost::read_profile(request.flags->profile);
  const cost::GcnShape shape = step_shape(request);
  std::vector<StepCostCase> cases;
  for (std::size_t i = 0; i < partitions.size(); ++i) {
    StepCostCase c;
    c.name = names[i];
    c.time = cost::expected_fetch_step_seconds(graph, partitions[i], request.train, request.batches,
                                               shape, profile, request.samples);
    c.rows = cost::expected_fetched_rows(graph, partitions[i], request.train, request.batches,
                                         request.samples);
    cases.push_back(std::move(c));
  }
  return cases;
}

std::string step_cost_text(const std::vector<StepCostCase>& cases, const StepCostRequest& request) {
  const cost::GcnShape s = step_shape(request);
  std::string text = fmt::format(
      "  step cost model gnnpart-train --batch-size {} --fanouts {} (fetch mode), {} -> {} -> {} "
      "classes, {} fresh steps, profile {}\n",
      request.batches.batch_size, fmt::join(request.batches.fanouts, ","), s.feature_dim, s.hidden,
      s.classes, request.samples, request.flags->profile);
  if (cases.size() == 1) {
    const StepCostCase& c = cases[0];
    const cost::StepPrediction& p = c.time.mean;
    text +=
        fmt::format("  predicted step  {:.6f} s (stderr {:.6f}): sampling {:.6f}, fetch {:.6f}, "
                    "layers {:.6f}, allreduce {:.6f}, Adam {:.6f}\n",
                    c.time.seconds.mean, c.time.seconds.standard_error, p.sampling, p.fetch,
                    p.compute, p.allreduce, adam_seconds(p));
    text += fmt::format("  rows per step   {:.3f} (stderr {:.3f})\n", c.rows.mean,
                        c.rows.standard_error);
    text += "  rank  rows fetched      work s  sampling s     fetch s    layers s      Adam s\n";
    for (std::size_t r = 0; r < p.rank_work.size(); ++r) {
      const cost::StepParts& parts = p.rank_parts[r];
      text +=
          fmt::format("  {:4} {:13.3f} {:11.6f} {:11.6f} {:11.6f} {:11.6f} {:11.6f}\n", r,
                      c.rows.per_block[r], p.rank_work[r], parts[0], parts[1], parts[2], parts[3]);
    }
    return text;
  }
  text += "  order  predicted step s  rows per step  k  partition\n";
  const std::vector<std::size_t> order = fastest_first(cases);
  for (std::size_t i = 0; i < order.size(); ++i) {
    const StepCostCase& c = cases[order[i]];
    text += fmt::format("  {:5}  {:16.6f} {:14.3f} {:2}  {}\n", i + 1, c.time.seconds.mean,
                        c.rows.mean, c.time.mean.rank_work.size(), c.name);
  }
  return text;
}

std::string step_cost_json(const std::vector<StepCostCase>& cases, const StepCostRequest& request) {
  if (cases.size() == 1)
    return case_json(cases[0]);
  std::string out =
      fmt::format("{{\"profile\": {}, \"ranking\": [", io::json_quoted(request.flags->profile));
  const std::vector<std::size_t> order = fastest_first(cases);
  for (std::size_t i = 0; i < order.size(); ++i)
    out += (i ? ", " : "") + case_json(cases[order[i]]);
  return out + "]}";
}

} // namespace gnnpart::app
