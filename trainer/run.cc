// Full-batch training: load the block, optionally verify one epoch against the single-process
// reference, train, evaluate, report.
#include "run.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "block_data.h"
#include "gcn.h"
#include "layout/layout_io.h"
#include "layout_warnings.h"
#include "reference.h"

namespace gnnpart::train {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

std::vector<std::uint32_t> layer_widths(const TrainOptions& options, std::uint32_t input,
                                        std::uint32_t classes) {
  std::vector<std::uint32_t> widths{input};
  for (int l = 1; l < options.layers; ++l)
    widths.push_back(options.hidden);
  widths.push_back(classes);
  return widths;
}

// Max |distributed - reference| over every layer's Z and every gradient. Rank 0 gathers the
// owned rows of each layer with their global ids; every rank returns the result.
double verify_epoch(const BlockData& data, DistributedGcn& gcn, HaloExchange& exchange,
                    const std::vector<Layer>& layers, const TrainOptions& options,
                    std::uint64_t train_total, BlockID k, MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const Matrix& logits = gcn.forward(layers, 0, true);
  Matrix dlogits(logits.rows, logits.cols);
  softmax_cross_entropy(logits, data.labels, data.train, 1.0 / train_total, &dlogits);
  std::vector<double> local = gcn.backward(layers, dlogits);
  std::vector<double> grads(local.size());
  MPI_Allreduce(local.data(), grads.data(), static_cast<int>(local.size()), MPI_DOUBLE, MPI_SUM,
                comm);
  exchange.take_stats();
  exchange.take_forward_rows();

  double diff = 0;
  ReferenceEpoch reference;
  if (rank == 0) {
    reference = reference_epoch(assemble_global_problem(options.layout_dir, k, options), layers,
                                options, 0);
    for (std::size_t i = 0; i < grads.size(); ++i) {
      diff = std::max(diff, std::abs(grads[i] - reference.grads[i]));
    }
  }
  int size = 1;
  MPI_Comm_size(comm, &size);
  const int own = static_cast<int>(data.plan.num_owned());
  std::vector<int> counts(size), displs(size);
  MPI_Gather(&own, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm);
  std::vector<NodeID> ids;
  if (rank == 0) {
    int total = 0;
    for (int r = 0; r < size; ++r) {
      displs[r] = total;
      total += counts[r];
    }
    ids.resize(total);
  }
  static_assert(sizeof(NodeID) == 4 || sizeof(NodeID) == 8);
  const MPI_Datatype id_type = sizeof(NodeID) == 4 ? MPI_UINT32_T : MPI_UINT64_T;
  MPI_Gatherv(data.plan.owned.data(), own, id_type, ids.data(), counts.data(), displs.data(),
              id_type, 0, comm);
  for (std::size_t l = 0; l < layers.size(); ++l) {
    const Matrix& z = gcn.pre_activations()[l];
    const int width = static_cast<int>(z.cols);
    std::vector<int> row_counts(size), row_displs(size);
    for (int r = 0; r < size && rank == 0; ++r) {
      row_counts[r] = counts[r] * width;
      row_displs[r] = displs[r] * width;
    }
    std::vector<double> rows(rank == 0 ? ids.size() * width : 0);
    MPI_Gatherv(z.data.data(), own * width, MPI_DOUBLE, rows.data(), row_counts.data(),
                row_displs.data(), MPI_DOUBLE, 0, comm);
    if (rank == 0) {
      if (ids.size() != reference.z[l].rows)
        throw std::runtime_error("verify: row count differs");
      for (std::size_t i = 0; i < ids.size(); ++i) {
        for (int j = 0; j < width; ++j) {
          diff = std::max(diff, std::abs(rows[i * width + j] - reference.z[l].at(ids[i], j)));
        }
      }
    }
  }
  MPI_Bcast(&diff, 1, MPI_DOUBLE, 0, comm);
  return diff;
}

} // namespace

int run(const TrainOptions& options, MPI_Comm comm) {
  if (options.batch_size > 0)
    return run_minibatch(options, comm);
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const io::LayoutManifest manifest = read_manifest(options.layout_dir);
  if (manifest.kind != "vertex") {
    throw ConfigError(options.layout_dir + ": a " + manifest.kind +
                      " layout; gnnpart-train trains on vertex layouts");
  }
  if (manifest.k != static_cast<BlockID>(size)) {
    throw ConfigError(fmt::format("{}: layout has {} blocks but mpirun started {} ranks",
                                  options.layout_dir, manifest.k, size));
  }
  const auto load_start = Clock::now();
  const BlockData data = load_block(options.layout_dir, static_cast<BlockID>(rank), options);
  warn_about_layout_gaps(data, options, comm);
  std::int64_t max_label = 0;
  for (std::int64_t y : data.labels)
    max_label = std::max(max_label, y);
  std::int64_t classes = 0;
  MPI_Allreduce(&max_label, &classes, 1, MPI_INT64_T, MPI_MAX, comm);
  classes = std::max<std::int64_t>(classes + 1, 2);
  const std::uint64_t train_total = allreduce_sum({data.train.size()}, comm)[0];
  if (train_total == 0)
    throw ConfigError("the layout has no training vertices");
  const std::uint32_t input_width = static_cast<std::uint32_t>(data.features.cols);
  const std::vector<std::uint32_t> widths =
      layer_widths(options, input_width, static_cast<std::uint32_t>(classes));
  std::vector<Layer> layers = init_layers(widths, options.seed);
  const double load_seconds = seconds_since(load_start);

  HaloExchange exchange(data.plan, comm);
  DistributedGcn gcn(data, exchange, options);

  double verify_diff = -1;
  if (options.verify) {
    verify_diff = verify_epoch(data, gcn, exchange, layers, options, train_total, manifest.k, comm);
  }
  // Per-phase times of the training epochs (the first one, which warms caches and the
  // allocator, is left out of the mean when there are others).
  PhaseClock clock;
  gcn.set_clock(&clock);
  exchange.set_clock(&clock);
  cost::PhaseSeconds phase_sums{};
  int timed_epochs = 0;

  Adam adam(layers, options.lr);
  std::vector<std::vector<RankEpoch>> epochs; // rank 0: per epoch, per rank
  std::vector<std::uint64_t> measured_rows_by_layer;
  std::vector<std::uint64_t> backward_rows;
  std::vector<double> epoch_seconds, losses;
  double train_accuracy = 0;
  for (int epoch = 0; epoch < options.epochs; ++epoch) {
    MPI_Barrier(comm);
    const auto start = Clock::now();
    clock.start(cost::Phase::kCopy);
    const Matrix& logits = gcn.forward(layers, epoch, true);
    clock.enter(cost::Phase::kLoss);
    Matrix dlogits(logits.rows, logits.cols);
    const double loss_local =
        softmax_cross_entropy(logits, data.labels, data.train, 1.0 / train_total, &dlogits);
    const std::uint64_t correct_local = count_correct(logits, data.labels, data.train);
    std::vector<double> grads = gcn.backward(layers, dlogits);
    const auto reduce_start = Clock::now();
    grads.push_back(loss_local);
    grads.push_back(static_cast<double>(correct_local));
    std::vector<double> summed(grads.size());
    MPI_Allreduce(grads.data(), summed.data(), static_cast<int>(grads.size()), MPI_DOUBLE, MPI_SUM,
                  comm);
    const double reduce_seconds = seconds_since(reduce_start);
    const double correct = summed.back();
    summed.pop_back();
    const double loss_sum = summed.back();
    summed.pop_back();
    // L2 on the first layer's weights (identical on every rank).
    clock.enter(cost::Phase::kAdam);
    double l2 = 0;
    for (std::size_t i = 0; i < layers[0].weight.data.size(); ++i) {
      const double w = layers[0].weight.data[i];
      summed[i] += options.weight_decay * w;
      l2 += w * w;
    }
    adam.step(layers, summed);
    const double seconds = seconds_since(start);
    const cost::PhaseSeconds phases = clock.stop();
    if (epoch > 0 || options.epochs == 1) {
      for (std::size_t i = 0; i < cost::kPhaseCount; ++i)
        phase_sums[i] += phases[i];
      ++timed_epochs;
    }

    const CommStats stats = exchange.take_stats();
    const std::vector<std::uint64_t> forward_rows = exchange.take_forward_rows();
    if (epoch == 0) {
      measured_rows_by_layer = allreduce_sum(forward_rows, comm);
      backward_rows = allreduce_sum({stats.rows_sent}, comm);
      backward_rows[0] -= std::accumulate(measured_rows_by_layer.begin(),
                                          measured_rows_by_layer.end(), std::uint64_t{0});
    }
    RankEpoch mine{
        static_cast<double>(stats.bytes_sent),         static_cast<double>(stats.bytes_received),
        static_cast<double>(stats.messages_sent),      static_cast<double>(stats.messages_received),
        seconds - stats.wait_seconds - reduce_seconds, stats.wait_seconds + reduce_seconds};
    std::vector<RankEpoch> all = gather_rank_epochs(mine, comm);
    double max_seconds = 0;
    MPI_Reduce(&seconds, &max_seconds, 1, MPI_DOUBLE, MPI_MAX, 0, comm);
    const double loss = loss_sum / train_total + 0.5 * options.weight_decay * l2;
    train_accuracy = correct / train_total;
    if (rank == 0) {
      epoch_seconds.push_back(max_seconds);
      losses.push_back(loss);
      if (options.per_rank) {
        for (std::size_t r = 0; r < all.size(); ++r) {
          std::printf("epoch %d rank %zu: sent %.0f B in %.0f msgs, received %.0f B in %.0f msgs, "
                      "compute %.4f s, comm %.4f s\n",
                      epoch, r, all[r].bytes_sent, all[r].messages_sent, all[r].bytes_received,
                      all[r].messages_received, all[r].compute_seconds, all[r].comm_seconds);
        }
      }
      if (epoch % 20 == 0 || epoch + 1 == options.epochs) {
        double bytes = 0, messages = 0;
        for (const RankEpoch& e : all) {
          bytes += e.bytes_sent;
          messages += e.messages_sent;
        }
        std::printf("epoch %4d  loss %.4f  train acc %.4f  sent %.0f B in %.0f msgs  %.4f s\n",
                    epoch, loss, train_accuracy, bytes, messages, max_seconds);
      }
      epochs.push_back(std::move(all));
    }
  }

  gcn.set_clock(nullptr);
  exchange.set_clock(nullptr);
  for (double& s : phase_sums)
    s /= std::max(timed_epochs, 1);
  const std::string phases = phases_json(phase_sums, comm);

  // Evaluation without dropout (its traffic is not part of the epoch figures).
  const Matrix& logits = gcn.forward(layers, options.epochs, false);
  exchange.take_stats();
  exchange.take_forward_rows();
  const std::vector<std::uint64_t> correct =
      allreduce_sum({count_correct(logits, data.labels, data.val), data.val.size(),
                     count_correct(logits, data.labels, data.test), data.test.size()},
                    comm);
  const double val_accuracy = correct[1] ? static_cast<double>(correct[0]) / correct[1] : 0;
  const double test_accuracy = correct[3] ? static_cast<double>(correct[2]) / correct[3] : 0;

  if (rank == 0) {
    const std::uint64_t measured = measured_rows_by_layer.empty() ? 0 : measured_rows_by_layer[0];
    double mean_epoch = 0;
    for (double s : epoch_seconds)
      mean_epoch += s;
    mean_epoch = epoch_seconds.empty() ? 0 : mean_epoch / epoch_seconds.size();
    double bytes = 0, messages = 0;
    for (const auto& e : epochs) {
      for (const RankEpoch& r : e) {
        bytes += r.bytes_sent;
        messages += r.messages_sent;
      }
    }
    std::printf("%s",
                fmt::format("gnnpart-train: {} on {} ranks, {} layers {} -> {} classes, {} epochs\n"
                            "  rows per layer  measured {} (layers: {}), predicted {}\n"
                            "  traffic         {:.0f} bytes in {:.0f} messages over all epochs\n"
                            "  epoch time      {:.4f} s (mean), load {:.3f} s\n"
                            "  accuracy        train {:.4f}  val {:.4f}  test {:.4f}\n",
                            manifest.graph_name, size, options.layers, input_width, classes,
                            options.epochs, measured, fmt::join(measured_rows_by_layer, " "),
                            manifest.predicted_rows_per_layer, bytes, messages, mean_epoch,
                            load_seconds, train_accuracy, val_accuracy, test_accuracy)
                    .c_str());
    if (options.verify) {
      std::printf("  verify          max abs diff %.3g: %s\n", verify_diff,
                  verify_diff <= 1e-5 ? "PASS" : "FAIL");
    }
    if (!options.json.empty()) {
      JsonWriter json;
      json.add("layout", options.layout_dir)
          .add("graph", manifest.graph_name)
          .add("ranks", static_cast<std::uint64_t>(size))
          .add("mode", std::string("full-batch"))
          .add("epochs", static_cast<std::uint64_t>(options.epochs))
          .add("layers", static_cast<std::uint64_t>(options.layers))
          .add("feature_dim", static_cast<std::uint64_t>(input_width))
          .add("real_features", static_cast<std::uint64_t>(data.real_features))
          .add("hidden", static_cast<std::uint64_t>(options.hidden))
          .add("classes", static_cast<std::uint64_t>(classes))
          .add("measured_rows_per_layer", measured)
          .add("measured_rows_by_layer", measured_rows_by_layer)
          .add("measured_backward_rows", backward_rows.empty() ? 0 : backward_rows[0])
          .add("predicted_rows_per_layer", manifest.predicted_rows_per_layer)
          .add("predicted_messages_per_layer", manifest.messages_per_layer)
          .add("bytes_sent_total", bytes)
          .add("messages_sent_total", messages)
          .add("train_accuracy", train_accuracy)
          .add("val_accuracy", val_accuracy)
          .add("test_accuracy", test_accuracy)
          .add("final_loss", losses.empty() ? 0.0 : losses.back())
          .add("epoch_time_s", mean_epoch)
          .add("epoch_times_s", epoch_seconds);
      if (options.verify)
        json.add("verify_max_abs_diff", verify_diff);
      json.add_raw("per_rank", rank_totals_json(epochs));
      json.add_raw("phases_s", phases);
      write_file_atomically(options.json, json.str());
    }
  }
  return options.verify && verify_diff > 1e-5 ? 2 : 0;
}

} // namespace gnnpart::train
