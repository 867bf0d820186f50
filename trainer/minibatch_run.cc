// The mini-batch training loop (both modes, trainer/minibatch.h): per step the mode's forward
// and backward, one allreduce of gradients and loss, Adam; then full-neighbourhood inference
// with the trained weights and the report. In fetch mode rank 0 also recounts the run's own
// steps and predicts the expectation on fresh ones (trainer/minibatch_predict.h).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "block_data.h"
#include "core/errors.h"
#include "cost/minibatch_rows.h"
#include "cost/minibatch_time.h"
#include "fetch_reference.h"
#include "gcn.h"
#include "io/graph_io.h"
#include "layout/layout_io.h"
#include "layout_warnings.h"
#include "minibatch.h"
#include "minibatch_predict.h"
#include "run.h"

namespace gnnpart::train {
namespace {

using Clock = std::chrono::steady_clock;

// The layout's stochastic prediction takes its fanouts hop 1 first, the trainer input layer
// first: the prediction is for this run only when one list is the other reversed.
bool same_layers_reversed(const std::vector<int>& hop_first,
                          const std::vector<std::uint32_t>& input_first) {
  return hop_first.size() == input_first.size() &&
         std::equal(
             hop_first.rbegin(), hop_first.rend(), input_first.begin(),
             [](int a, std::uint32_t b) { return a >= 0 && static_cast<std::uint32_t>(a) == b; });
}

std::string id_list(const NodeID* ids, std::size_t count) {
  return fmt::format("[{}]", fmt::join(ids, ids + count, ","));
}

// --dump-batches: every rank's seeds and fetched ids of one step, gathered on rank 0 as one
// JSON object of the "steps" array.
std::string gather_step_json(const BatchStep& step, int epoch, std::uint64_t batch, MPI_Comm comm) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  std::vector<NodeID> mine{static_cast<NodeID>(step.seeds.size())};
  mine.insert(mine.end(), step.seeds.begin(), step.seeds.end());
  mine.insert(mine.end(), step.fetched.begin(), step.fetched.end());
  const int count = static_cast<int>(mine.size());
  std::vector<int> counts(size), displs(size);
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm);
  for (int r = 1; r < size; ++r)
    displs[r] = displs[r - 1] + counts[r - 1];
  std::vector<NodeID> all(rank == 0 ? displs.back() + counts.back() : 0);
  MPI_Gatherv(mine.data(), count, MPI_UINT32_T, all.data(), counts.data(), displs.data(),
              MPI_UINT32_T, 0, comm);
  if (rank != 0)
    return {};
  std::string out = fmt::format("{{\"epoch\": {}, \"batch\": {}, \"ranks\": [", epoch, batch);
  for (int r = 0; r < size; ++r) {
    const NodeID* p = all.data() + displs[r];
    const std::size_t seeds = p[0];
    out += fmt::format("{}{{\"seeds\": {}, \"fetched\": {}}}", r ? ", " : "", id_list(p + 1, seeds),
                       id_list(p + 1 + seeds, counts[r] - 1 - seeds));
  }
  return out + "]}";
}

constexpr double kVerifyTolerance = 1e-9;

// Max |summed gradients and loss - the single-process step| of step (0, 0), on every rank.
double verify_fetch_step(const TrainOptions& options, BlockID k, const std::vector<Layer>& layers,
                         const std::vector<double>& summed, MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  double diff = 0;
  if (rank == 0) {
    const GlobalProblem problem = assemble_global_problem(options.layout_dir, k, options);
    const Partition partition =
        io::read_partition(options.layout_dir + "/assignment.txt", problem.n, k);
    SampledPass reference = fetch_reference_step(problem, partition, layers, options, 0, 0);
    reference.grads.push_back(reference.loss);
    if (reference.grads.size() != summed.size())
      throw std::runtime_error("verify: gradient sizes differ");
    for (std::size_t i = 0; i < summed.size(); ++i)
      diff = std::max(diff, std::abs(summed[i] - reference.grads[i]));
  }
  MPI_Bcast(&diff, 1, MPI_DOUBLE, 0, comm);
  return diff;
}

// [[sampling, fetch, layers, Adam] per rank]
std::string parts_json(const std::vector<cost::StepParts>& ranks) {
  std::string json = "[";
  for (std::size_t r = 0; r < ranks.size(); ++r)
    json += fmt::format("{}[{:.9f}]", r ? ", " : "", fmt::join(ranks[r], ", "));
  return json + "]";
}

} // namespace

int run_minibatch(const TrainOptions& options, MPI_Comm comm) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  if (options.fanouts.empty())
    throw ConfigError("--batch-size needs --fanouts");
  const bool fetch = options.minibatch_mode == "fetch";
  if (options.verify && !fetch)
    throw ConfigError("--verify checks full-batch training and fetch mini-batches only");
  if (!fetch && options.minibatch_mode != "layerwise")
    throw ConfigError("--minibatch-mode is fetch or layerwise, not " + options.minibatch_mode);
  if (!fetch && !options.dump_batches.empty())
    throw ConfigError("--dump-batches needs --minibatch-mode fetch");
  const io::LayoutManifest manifest = read_manifest(options.layout_dir);
  if (manifest.kind != "vertex" || manifest.k != static_cast<BlockID>(size)) {
    throw ConfigError(
        fmt::format("{}: need a vertex layout with {} blocks", options.layout_dir, size));
  }
  if (!options.cost_profile.empty() && !fetch)
    throw ConfigError("--cost needs --minibatch-mode fetch");
  // Read before training, on every rank, so that a bad profile stops all of them at once (with
  // one line, from rank 0).
  cost::CostProfile profile;
  if (!options.cost_profile.empty()) {
    try {
      profile = cost::read_profile(options.cost_profile);
    } catch (const InputError& e) {
      throw ConfigError(e.what());
    }
  }
  TrainOptions opts = options;
  opts.layers = static_cast<int>(options.fanouts.size());
  const BlockData data = load_block(opts.layout_dir, static_cast<BlockID>(rank), opts);
  warn_about_layout_gaps(data, opts, comm);
  if (allreduce_sum({data.train.size()}, comm)[0] == 0)
    throw ConfigError("the layout has no training vertices");
  std::int64_t max_label = 0, classes = 0;
  for (std::int64_t y : data.labels)
    max_label = std::max(max_label, y);
  MPI_Allreduce(&max_label, &classes, 1, MPI_INT64_T, MPI_MAX, comm);
  classes = std::max<std::int64_t>(classes + 1, 2);
  std::vector<std::uint32_t> widths{static_cast<std::uint32_t>(data.features.cols)};
  for (int l = 1; l < opts.layers; ++l)
    widths.push_back(opts.hidden);
  widths.push_back(static_cast<std::uint32_t>(classes));
  std::vector<Layer> layers = init_layers(widths, opts.seed);
  Adam adam(layers, opts.lr);

  std::unique_ptr<MinibatchMode> mode =
      fetch ? make_fetch_mode(data, opts, comm) : make_layerwise_mode(data, opts, comm);
  std::vector<std::uint64_t> rows_per_batch;
  std::vector<std::pair<int, std::uint64_t>> steps; // (epoch, batch) of every step run
  std::vector<std::vector<RankEpoch>> batches;
  std::vector<double> batch_seconds;
  cost::StepParts parts_cpu{}; // this rank's CPU seconds by part, summed over the steps
  std::string dump;
  double last_loss = 0, verify_diff = -1;
  for (int epoch = 0; epoch < opts.epochs; ++epoch) {
    double loss_sum = 0, seeds = 0;
    for (std::uint64_t b = 0; b < mode->batches_per_epoch(); ++b) {
      const auto start = Clock::now();
      BatchStep step = mode->step(epoch, b, layers);
      step.grads.push_back(step.loss);
      std::vector<double> summed(step.grads.size());
      const auto reduce_start = Clock::now();
      MPI_Allreduce(step.grads.data(), summed.data(), static_cast<int>(summed.size()), MPI_DOUBLE,
                    MPI_SUM, comm);
      const double reduce_seconds =
          std::chrono::duration<double>(Clock::now() - reduce_start).count();
      if (opts.verify && epoch == 0 && b == 0)
        verify_diff = verify_fetch_step(opts, manifest.k, layers, summed, comm);
      loss_sum += summed.back();
      seeds += static_cast<double>(step.seeds_total);
      summed.pop_back();
      const double adam_start = thread_cpu_seconds();
      for (std::size_t i = 0; i < layers[0].weight.data.size(); ++i)
        summed[i] += opts.weight_decay * layers[0].weight.data[i];
      adam.step(layers, summed);
      step.cpu[static_cast<std::size_t>(cost::StepPart::kAdam)] = thread_cpu_seconds() - adam_start;
      for (std::size_t i = 0; i < parts_cpu.size(); ++i)
        parts_cpu[i] += step.cpu[i];
      const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
      const std::uint64_t rows = allreduce_sum({step.rows}, comm)[0];
      const CommStats& s = step.stats;
      const RankEpoch me{
          static_cast<double>(s.bytes_sent),         static_cast<double>(s.bytes_received),
          static_cast<double>(s.messages_sent),      static_cast<double>(s.messages_received),
          seconds - s.wait_seconds - reduce_seconds, s.wait_seconds + reduce_seconds};
      std::vector<RankEpoch> all = gather_rank_epochs(me, comm);
      if (!opts.dump_batches.empty()) {
        const std::string one = gather_step_json(step, epoch, b, comm);
        dump += (dump.empty() ? "\n    " : ",\n    ") + one;
      }
      if (rank == 0) {
        rows_per_batch.push_back(rows);
        steps.emplace_back(epoch, b);
        batches.push_back(std::move(all));
        batch_seconds.push_back(seconds);
      }
    }
    last_loss = seeds > 0 ? loss_sum / seeds : 0;
    if (rank == 0 && (epoch % 20 == 0 || epoch + 1 == opts.epochs)) {
      std::printf("epoch %4d  loss %.4f  rows/batch (last) %llu\n", epoch, last_loss,
                  static_cast<unsigned long long>(rows_per_batch.back()));
    }
  }

  // Full-neighbourhood inference with the trained weights.
  TrainOptions eval = opts;
  eval.dropout = 0;
  HaloExchange exchange(data.plan, comm);
  DistributedGcn gcn(data, exchange, eval);
  const Matrix& logits = gcn.forward(layers, 0, false);
  const std::vector<std::uint64_t> correct =
      allreduce_sum({count_correct(logits, data.labels, data.test), data.test.size()}, comm);
  const double test_accuracy = correct[1] ? static_cast<double>(correct[0]) / correct[1] : 0;
  // Every rank's CPU seconds per step by part (rank 0 reports them beside the prediction).
  std::vector<double> all_parts_cpu(parts_cpu.size() * static_cast<std::size_t>(size));
  MPI_Gather(parts_cpu.data(), static_cast<int>(parts_cpu.size()), MPI_DOUBLE, all_parts_cpu.data(),
             static_cast<int>(parts_cpu.size()), MPI_DOUBLE, 0, comm);
  // The input features' nonzero share (the model's GEMMs skip zero entries).
  std::uint64_t nonzeros = 0;
  for (double x : data.features.data)
    nonzeros += x != 0;
  const std::vector<std::uint64_t> feature_counts =
      allreduce_sum({nonzeros, data.features.data.size()}, comm);
  const double feature_density =
      feature_counts[1] > 0 ? static_cast<double>(feature_counts[0]) / feature_counts[1] : 1.0;
  if (rank != 0)
    return 0;

  double mean_rows = 0, mean_seconds = 0;
  for (std::uint64_t r : rows_per_batch)
    mean_rows += static_cast<double>(r);
  for (double s : batch_seconds)
    mean_seconds += s;
  mean_rows /= static_cast<double>(std::max<std::size_t>(rows_per_batch.size(), 1));
  mean_seconds /= static_cast<double>(std::max<std::size_t>(batch_seconds.size(), 1));
  const std::uint64_t full = manifest.predicted_rows_per_layer * opts.layers;
  // The prediction: fetch mode recounts its own steps on the whole graph (exact) and estimates
  // the expectation on fresh steps; layerwise mode has the manifest's stochastic-model figure
  // when the layout was written for this batch size (it counts input rows of per-seed trees,
  // not the hidden rows this mode exchanges).
  double predicted = -1, predicted_stderr = 0;
  cost::StepPrediction predicted_step; // the mean of these steps' predictions
  double fresh_seconds = -1, fresh_stderr = 0;
  std::vector<std::uint64_t> recounted;
  if (fetch) {
    const FetchProblem problem = load_fetch_problem(opts.layout_dir, manifest.k);
    const auto train = cost::train_by_block(problem.partition, problem.train);
    for (const auto& [epoch, b] : steps) {
      std::uint64_t sum = 0;
      for (std::uint64_t r : cost::fetched_rows(problem.graph, problem.partition, train,
                                                fetch_batch_options(opts), epoch, b))
        sum += r;
      recounted.push_back(sum);
    }
    if (opts.predict_samples > 0) {
      const cost::FetchRowsEstimate est =
          cost::expected_fetched_rows(problem.graph, problem.partition, problem.train,
                                      fetch_batch_options(opts), opts.predict_samples);
      predicted = est.mean;
      predicted_stderr = est.standard_error;
    }
    // The time per step: the model priced on the work of these steps (recounted on the whole
    // graph), and its expectation over fresh steps.
    if (!options.cost_profile.empty()) {
      cost::GcnShape shape;
      shape.layers = opts.layers;
      shape.feature_dim = widths.front();
      shape.hidden = opts.hidden;
      shape.classes = widths.back();
      shape.feature_density = feature_density;
      const double share = 1.0 / static_cast<double>(std::max<std::size_t>(steps.size(), 1));
      for (const auto& [epoch, b] : steps) {
        const cost::FetchStepWork work = cost::fetch_step_work(
            problem.graph, problem.partition, train, fetch_batch_options(opts), epoch, b,
            shape.feature_dim, shape.value_bytes);
        cost::add_scaled(predicted_step, cost::predict_fetch_step(work, shape, profile), share);
      }
      if (opts.predict_samples > 0) {
        const cost::StepTimeEstimate est = cost::expected_fetch_step_seconds(
            problem.graph, problem.partition, problem.train, fetch_batch_options(opts), shape,
            profile, opts.predict_samples);
        fresh_seconds = est.seconds.mean;
        fresh_stderr = est.seconds.standard_error;
      }
    }
  } else if (manifest.minibatch_batch_size == opts.batch_size &&
             same_layers_reversed(manifest.minibatch_fanouts, opts.fanouts)) {
    predicted = manifest.predicted_rows_per_batch;
  }
  const std::string predicted_text =
      predicted >= 0 ? fmt::format("{:.3f}", predicted)
                     : std::string(fetch ? "- (--predict-samples 0)"
                                         : "- (gnnpart layout --batch-size B --fanouts, "
                                           "hop 1 first, gives it)");
  std::string text = fmt::format(
      "gnnpart-train (mini-batch, {}): {} on {} ranks, batch {}, fanouts {}, {} batches\n"
      "  rows per batch  measured {:.3f} (mean), predicted {}, full-batch epoch {}\n",
      opts.minibatch_mode, manifest.graph_name, size, opts.batch_size, fmt::join(opts.fanouts, ","),
      rows_per_batch.size(), mean_rows, predicted_text, full);
  if (fetch) {
    text += fmt::format("  recount of these {} steps on the whole graph: {}\n", steps.size(),
                        recounted == rows_per_batch ? "equal, step by step" : "DIFFERENT");
  }
  // Per rank and step: CPU seconds in sampling, fetching, the layers and Adam.
  std::vector<cost::StepParts> measured_parts(static_cast<std::size_t>(size));
  for (std::size_t r = 0; r < measured_parts.size(); ++r) {
    for (std::size_t i = 0; i < parts_cpu.size(); ++i)
      measured_parts[r][i] = all_parts_cpu[r * parts_cpu.size() + i] /
                             static_cast<double>(std::max<std::size_t>(steps.size(), 1));
  }
  if (!options.cost_profile.empty()) {
    const cost::StepPrediction& p = predicted_step;
    text += fmt::format("  seconds per step measured {:.6f} (mean), predicted {:.6f} (these steps)",
                        mean_seconds, p.seconds);
    text += fresh_seconds >= 0 ? fmt::format(", {:.6f} (stderr {:.6f}, fresh steps)\n",
                                             fresh_seconds, fresh_stderr)
                               : std::string("\n");
    text += fmt::format("    predicted: sampling {:.6f}, fetch {:.6f}, layers {:.6f}, allreduce "
                        "{:.6f}, Adam {:.6f}\n",
                        p.sampling, p.fetch, p.compute, p.allreduce,
                        p.seconds - p.sampling - p.fetch - p.compute - p.allreduce);
  }
  text += fmt::format("  test accuracy   {:.4f}\n", test_accuracy);
  std::printf("%s", text.c_str());
  if (!opts.dump_batches.empty()) {
    write_file_atomically(
        opts.dump_batches,
        fmt::format("{{\n  \"seed\": {},\n  \"batch_size\": {},\n  \"fanouts\": [{}],\n  "
                    "\"steps\": [{}\n  ]\n}}\n",
                    opts.seed, opts.batch_size, fmt::join(opts.fanouts, ", "), dump));
  }
  if (!opts.json.empty()) {
    JsonWriter json;
    json.add("layout", opts.layout_dir)
        .add("graph", manifest.graph_name)
        .add("ranks", static_cast<std::uint64_t>(size))
        .add("mode", std::string("mini-batch"))
        .add("minibatch_mode", opts.minibatch_mode)
        .add("batch_size", static_cast<std::uint64_t>(opts.batch_size))
        .add("epochs", static_cast<std::uint64_t>(opts.epochs))
        .add("measured_rows_per_batch", mean_rows)
        .add("measured_rows_by_batch", rows_per_batch)
        .add("recounted_rows_by_batch", recounted)
        .add("predicted_rows_per_layer", manifest.predicted_rows_per_layer)
        .add("predicted_rows_per_batch", predicted)
        .add("predicted_rows_stderr", predicted_stderr)
        .add("full_batch_rows_per_epoch", full)
        .add("final_loss", last_loss)
        .add("test_accuracy", test_accuracy)
        .add("batch_time_s", mean_seconds)
        .add("predicted_batch_time_s", options.cost_profile.empty() ? -1.0 : predicted_step.seconds)
        .add("predicted_batch_time_fresh_s", fresh_seconds)
        .add("predicted_rank_work_s", predicted_step.rank_work)
        .add_raw("measured_step_parts_cpu_s", parts_json(measured_parts))
        .add_raw("predicted_step_parts_s", parts_json(predicted_step.rank_parts))
        .add("predicted_batch_time_stderr", fresh_stderr)
        .add("verify_max_abs_diff", verify_diff)
        .add_raw("per_rank", rank_totals_json(batches));
    write_file_atomically(opts.json, json.str());
  }
  if (opts.verify)
    std::printf("  verify          max |distributed - reference| %.3g over the first step\n",
                verify_diff);
  return (fetch && recounted != rows_per_batch) || verify_diff > kVerifyTolerance ? 2 : 0;
}

} // namespace gnnpart::train
