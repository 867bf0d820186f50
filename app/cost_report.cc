#include "cost_report.h"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "cost/profile.h"
#include "io/json_reader.h"

namespace gnnpart::app {
namespace {

std::vector<std::size_t> fastest_first(const std::vector<CostCase>& cases) {
  std::vector<std::size_t> order(cases.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return cases[a].prediction.epoch_seconds < cases[b].prediction.epoch_seconds;
  });
  return order;
}

std::string case_json(const CostCase& c) {
  const cost::EpochPrediction& p = c.prediction;
  std::string ranks;
  for (std::size_t r = 0; r < p.ranks.size(); ++r) {
    const cost::RankTime& t = p.ranks[r];
    const cost::BlockTraffic& b = c.blocks[r];
    ranks += fmt::format("{}{{\"rank\": {}, \"rows\": {}, \"halo\": {}, \"local_nnz\": {}, "
                         "\"halo_nnz\": {}, \"send_rows\": {}, \"recv_rows\": {}, "
                         "\"send_messages\": {}, \"recv_messages\": {}, \"compute_s\": {:.6g}, "
                         "\"send_s\": {:.6g}, \"receive_s\": {:.6g}, \"exposed_comm_s\": {:.6g}, "
                         "\"wait_s\": {:.6g}}}",
                         r ? ", " : "", r, b.rows, b.halo, b.local_nnz, b.halo_nnz, b.send_rows,
                         b.recv_rows, b.send_messages, b.recv_messages, t.compute, t.send,
                         t.receive, t.exposed_comm, t.wait);
    ranks.pop_back(); // the closing brace: the phases follow
    ranks += ", \"phases_s\": {";
    for (std::size_t i = 0; i < cost::kPhaseCount; ++i)
      ranks += fmt::format("{}\"{}\": {:.6g}", i ? ", " : "", cost::kPhaseNames[i], t.phases[i]);
    ranks += "}}";
  }
  return fmt::format("{{\"partition\": {}, \"k\": {}, \"predicted_epoch_s\": {:.6g}, "
                     "\"critical_rank\": {}, \"allreduce_s\": {:.6g}, \"ranks\": [{}]}}",
                     io::json_quoted(c.name), p.ranks.size(), p.epoch_seconds, p.critical_rank,
                     p.allreduce_seconds, ranks);
}

} // namespace

void add_cost_flags(CLI::App& command, CostFlags& flags) {
  command.add_option("--cost", flags.profile,
                     "predict the epoch time of gnnpart-train from this profile "
                     "(gnnpart-train --calibrate; docs/cost_model.md)");
  command.add_option("--layers", flags.shape.layers, "--cost: GCN layers")
      ->capture_default_str()
      ->check(CLI::Range(1, 16));
  command.add_option("--hidden", flags.shape.hidden, "--cost: hidden width")
      ->capture_default_str()
      ->check(CLI::Range(1u, 1u << 20));
  command.add_option("--classes", flags.shape.classes, "--cost: output classes")
      ->capture_default_str()
      ->check(CLI::Range(1u, 1u << 20));
  command.add_option("--dropout", flags.shape.dropout, "--cost: dropout rate of the trainer")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 0.95));
  command
      .add_option("--feature-density", flags.shape.feature_density,
                  "--cost: nonzero share of the input features (random features: 1)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
}

std::vector<CostCase> predict_cases(const CsrGraph& graph, const std::vector<std::string>& names,
                                    const std::vector<Partition>& partitions,
                                    const CostFlags& flags) {
  const cost::CostProfile profile = cost::read_profile(flags.profile);
  std::vector<CostCase> cases;
  for (std::size_t i = 0; i < partitions.size(); ++i) {
    CostCase c;
    c.name = names[i];
    c.blocks = cost::block_traffic(graph, partitions[i]);
    c.prediction = cost::predict_epoch(c.blocks, flags.shape, profile);
    cases.push_back(std::move(c));
  }
  return cases;
}

std::string cost_text(const std::vector<CostCase>& cases, const CostFlags& flags) {
  const cost::GcnShape& s = flags.shape;
  std::string text =
      fmt::format("  cost model      {} layers, {} -> {} -> {} classes, dropout {}, "
                  "profile {}\n",
                  s.layers, s.feature_dim, s.hidden, s.classes, s.dropout, flags.profile);
  if (cases.size() == 1) {
    const cost::EpochPrediction& p = cases[0].prediction;
    text += fmt::format("  predicted epoch {:.6f} s (critical rank {}, allreduce {:.6f} s)\n",
                        p.epoch_seconds, p.critical_rank, p.allreduce_seconds);
    text += "  rank       rows  send rows  recv rows   compute s      send s   receive s"
            "      wait s\n";
    for (std::size_t r = 0; r < p.ranks.size(); ++r) {
      const cost::RankTime& t = p.ranks[r];
      const cost::BlockTraffic& b = cases[0].blocks[r];
      text += fmt::format("  {:4} {:10} {:10} {:10} {:11.6f} {:11.6f} {:11.6f} {:11.6f}{}\n", r,
                          b.rows, b.send_rows, b.recv_rows, t.compute, t.send, t.receive, t.wait,
                          r == p.critical_rank ? "  critical" : "");
    }
    return text;
  }
  text += "  order  predicted epoch s  k  critical rank  partition\n";
  const std::vector<std::size_t> order = fastest_first(cases);
  for (std::size_t i = 0; i < order.size(); ++i) {
    const CostCase& c = cases[order[i]];
    text += fmt::format("  {:5}  {:17.6f} {:2}  {:13}  {}\n", i + 1, c.prediction.epoch_seconds,
                        c.prediction.ranks.size(), c.prediction.critical_rank, c.name);
  }
  return text;
}

std::string cost_json(const std::vector<CostCase>& cases, const CostFlags& flags) {
  if (cases.size() == 1)
    return case_json(cases[0]);
  std::string out =
      fmt::format("{{\"profile\": {}, \"ranking\": [", io::json_quoted(flags.profile));
  const std::vector<std::size_t> order = fastest_first(cases);
  for (std::size_t i = 0; i < order.size(); ++i)
    out += (i ? ", " : "") + case_json(cases[order[i]]);
  return out + "]}";
}

} // namespace gnnpart::app
