// gnnpart-train: reference distributed GCN trainer over MPI. Rank r loads block r of a layout
// directory written by `gnnpart layout` and trains a full-batch GCN (or mini-batches with
// --batch-size), exchanging halo rows along the layout's send/receive lists.
//   mpirun -np K gnnpart-train LAYOUT_DIR [--epochs E] [--verify] [--json FILE] ...
//   mpirun -np K gnnpart-train LAYOUT_DIR --batch-size B --fanouts 10,25 [--minibatch-mode M]
//   gnnpart-train LAYOUT_DIR --predict --batch-size B --fanouts 10,25 [--check-batches DUMP]
//   mpirun -np K gnnpart-train --calibrate -o PROFILE.json
#include <cstdio>
#include <exception>
#include <string>

#include <malloc.h>

#include <CLI/CLI.hpp>
#include <mpi.h>

#include "calibrate.h"
#include "minibatch_predict.h"
#include "model.h"
#include "run.h"

namespace {

// The trainer allocates matrices of the same sizes at every step and epoch (a mini-batch's
// gathered input rows, a layer's activations). glibc maps a block above its (adaptive) threshold
// afresh and unmaps it on free, and trims the heap's free top, so every step paid the page
// faults of its largest matrices again: Cora, 2 ranks, width 1433, fanouts 10,25 took 16.1 ms
// per step against 10.1 ms with the memory kept (docs/cost_model.md, "Mini-batches: time per
// step"). Blocks up to 32 MiB (glibc's largest threshold) come from the heap, which keeps
// what was freed for the next step.
void keep_freed_memory() {
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
}

} // namespace

int main(int argc, char** argv) {
  keep_freed_memory();
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  using gnnpart::train::TrainOptions;
  TrainOptions options;
  CLI::App app("gnnpart-train: distributed GCN training on a gnnpart layout (one rank per block)");
  app.add_option("LAYOUT_DIR", options.layout_dir, "layout directory (gnnpart layout)");
  app.add_option("--epochs", options.epochs, "training epochs")->capture_default_str();
  app.add_option("--feature-dim", options.feature_dim,
                 "width of the random features used when the layout has none")
      ->capture_default_str();
  app.add_option("--hidden", options.hidden, "hidden width")->capture_default_str();
  app.add_option("--layers", options.layers, "GCN layers")
      ->capture_default_str()
      ->check(CLI::Range(1, 16));
  app.add_option("--lr", options.lr, "Adam learning rate")->capture_default_str();
  app.add_option("--weight-decay", options.weight_decay, "L2 on the first layer's weights")
      ->capture_default_str();
  app.add_option("--dropout", options.dropout, "dropout rate on every layer's input")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 0.95));
  app.add_option("--seed", options.seed, "seed of weights, dropout, features and batches")
      ->capture_default_str();
  app.add_flag("--verify", options.verify,
               "check one epoch's activations and gradients against a single-process run");
  app.add_option("--json", options.json, "write the measurements as JSON (rank 0)");
  app.add_option("--batch-size", options.batch_size, "mini-batch mode: seeds per batch");
  app.add_option("--fanouts", options.fanouts, "mini-batch fanouts, input layer first")
      ->delimiter(',');
  app.add_option("--minibatch-mode", options.minibatch_mode,
                 "fetch: DistDGL's scheme, input rows fetched once per batch; layerwise: rows "
                 "exchanged at every layer")
      ->capture_default_str()
      ->check(CLI::IsMember({"fetch", "layerwise"}));
  app.add_option("--predict-samples", options.predict_samples,
                 "fetch mode: fresh steps the predicted rows per step average (0: none)")
      ->capture_default_str();
  app.add_option("--dump-batches", options.dump_batches,
                 "fetch mode: write every step's seeds and fetched ids per rank (JSON)");
  app.add_option("--cost", options.cost_profile,
                 "fetch mode: predict the time per step with this cost profile (--calibrate; "
                 "docs/cost_model.md) and print it beside the measured one");
  app.add_flag("--predict", options.predict,
               "print the fetch mode's predicted rows per step (one process, whole layout)");
  app.add_option("--check-batches", options.check_batches,
                 "--predict: recount a --dump-batches file; exit 2 when it differs");
  app.add_flag("--per-rank", options.per_rank, "print every rank's traffic of every epoch");
  app.add_flag("--calibrate", options.calibrate,
               "measure the cost profile of this machine and rank count (docs/cost_model.md)");
  app.add_option("-o,--output", options.output, "--calibrate: profile JSON to write");
  app.add_option("--transport", options.transport,
                 "--calibrate: how the ranks talk, recorded in the profile (e.g. shm, tcp-1gbit)");
  app.add_option("--calibrate-repeats", options.calibrate_repeats,
                 "--calibrate: measure this many times and keep each field's median")
      ->capture_default_str()
      ->check(CLI::Range(1u, 15u));
  app.add_option("--calibrate-rows", options.calibrate_rows,
                 "--calibrate: rows of the synthetic block the kernels are timed on")
      ->capture_default_str()
      ->check(CLI::Range(100u, 1u << 24));
  int code = 0;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    code = rank == 0 ? app.exit(e) : (e.get_exit_code() == 0 ? 0 : 1);
    MPI_Finalize();
    return code;
  }
  try {
    if (options.calibrate) {
      code = gnnpart::train::run_calibration(options, MPI_COMM_WORLD);
    } else if (options.layout_dir.empty()) {
      throw gnnpart::train::ConfigError("LAYOUT_DIR is required (or --calibrate -o PROFILE)");
    } else if (options.predict) {
      code = gnnpart::train::run_predict(options, MPI_COMM_WORLD);
    } else if (!options.check_batches.empty()) {
      throw gnnpart::train::ConfigError("--check-batches needs --predict");
    } else {
      code = gnnpart::train::run(options, MPI_COMM_WORLD);
    }
  } catch (const gnnpart::train::ConfigError& e) {
    if (rank == 0)
      std::fprintf(stderr, "gnnpart-train: error: %s\n", e.what());
    MPI_Finalize();
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gnnpart-train: rank %d: error: %s\n", rank, e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
  }
  MPI_Finalize();
  return code;
}
