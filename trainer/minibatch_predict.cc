#include "minibatch_predict.h"

#include <algorithm>
#include <cstdio>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cost/neighbor_sampling.h"
#include "io/json_reader.h"
#include "layout/layout_io.h"
#include "run.h"

namespace gnnpart::train {

FetchProblem load_fetch_problem(const std::string& dir, BlockID k) {
  FetchProblem problem;
  std::vector<std::vector<NodeID>> adjacency;
  for (BlockID p = 0; p < k; ++p) {
    const LayoutPlan plan = io::read_layout_plan(dir, p);
    if (p == 0) {
      adjacency.resize(plan.n);
      problem.partition.k = k;
      problem.partition.blocks.assign(plan.n, k);
    }
    for (NodeID i = 0; i < plan.num_owned(); ++i) {
      const NodeID u = plan.owned[i];
      problem.partition.blocks[u] = p;
      for (EdgeID e = plan.row_offsets[i]; e < plan.row_offsets[i + 1]; ++e) {
        const NodeID c = plan.columns[e];
        adjacency[u].push_back(c < plan.num_owned() ? plan.owned[c]
                                                    : plan.halo[c - plan.num_owned()]);
      }
    }
    // The trainer's training set (block_data.cc): the layout's, or every vertex unlabeled.
    if (plan.labels.empty()) {
      problem.train.insert(problem.train.end(), plan.owned.begin(), plan.owned.end());
    } else {
      for (NodeID i : plan.train_local)
        problem.train.push_back(plan.owned[i]);
    }
  }
  std::vector<EdgeID> offsets{0};
  std::vector<NodeID> flat;
  for (auto& list : adjacency) {
    std::sort(list.begin(), list.end());
    flat.insert(flat.end(), list.begin(), list.end());
    offsets.push_back(flat.size());
  }
  problem.graph = CsrGraph(std::move(offsets), std::move(flat));
  std::sort(problem.train.begin(), problem.train.end());
  return problem;
}

cost::FetchBatchOptions fetch_batch_options(const TrainOptions& options) {
  cost::FetchBatchOptions o;
  o.batch_size = options.batch_size;
  o.fanouts = options.fanouts;
  o.seed = options.seed;
  return o;
}

namespace {

std::vector<NodeID> id_array(const io::Json* value, const std::string& path) {
  if (value == nullptr || value->type != io::Json::Type::kArray)
    throw ConfigError(fmt::format("{}: expected an array of vertex ids", path));
  std::vector<NodeID> ids;
  for (const io::Json& item : value->items) {
    if (item.type != io::Json::Type::kNumber || item.number < 0)
      throw ConfigError(fmt::format("{}:{}: expected a vertex id", path, item.line));
    ids.push_back(static_cast<NodeID>(item.number));
  }
  return ids;
}

std::uint64_t uint_field(const io::Json& object, const std::string& key, const std::string& path) {
  const io::Json* value = object.find(key);
  if (value == nullptr || value->type != io::Json::Type::kNumber || value->number < 0)
    throw ConfigError(fmt::format("{}:{}: missing or bad \"{}\"", path, object.line, key));
  return static_cast<std::uint64_t>(value->number);
}

struct CheckResult {
  std::uint64_t steps = 0, mismatches = 0;
  std::vector<std::uint64_t> dumped_rows, recounted_rows; // per step, all ranks
};

// Recounts every dumped step from the graph and partition: the seeds must be the ones the
// sampler draws, and the fetched set F_0 \ block r must equal the recount, rank by rank.
CheckResult check_dump(const FetchProblem& problem, const std::string& path) {
  const io::Json dump = io::read_json_file(path);
  cost::FetchBatchOptions o;
  o.seed = uint_field(dump, "seed", path);
  o.batch_size = static_cast<NodeID>(uint_field(dump, "batch_size", path));
  for (NodeID f : id_array(dump.find("fanouts"), path))
    o.fanouts.push_back(f);
  const auto train = cost::train_by_block(problem.partition, problem.train);
  const io::Json* steps = dump.find("steps");
  if (steps == nullptr || steps->type != io::Json::Type::kArray)
    throw ConfigError(path + ": no \"steps\" array");
  CheckResult result;
  for (const io::Json& step : steps->items) {
    const std::uint64_t epoch = uint_field(step, "epoch", path);
    const std::uint64_t batch = uint_field(step, "batch", path);
    const io::Json* ranks = step.find("ranks");
    if (ranks == nullptr || ranks->items.size() != problem.partition.k)
      throw ConfigError(fmt::format("{}:{}: need one entry per block", path, step.line));
    std::uint64_t dumped = 0, recounted = 0;
    bool same = true;
    for (BlockID r = 0; r < problem.partition.k; ++r) {
      const io::Json& entry = ranks->items[r];
      const std::vector<NodeID> seeds = id_array(entry.find("seeds"), path);
      const std::vector<NodeID> fetched = id_array(entry.find("fetched"), path);
      for (NodeID u : seeds)
        if (u >= problem.graph.num_nodes())
          throw ConfigError(fmt::format("{}:{}: vertex {} out of range", path, entry.line, u));
      const std::uint64_t stream = cost::batch_stream(o.seed, epoch, batch, r);
      const std::vector<NodeID> expected =
          cost::remote_inputs(problem.graph, problem.partition, r, seeds, o.fanouts, stream);
      same =
          same && seeds == cost::draw_seeds(train[r], o.batch_size, stream) && fetched == expected;
      dumped += fetched.size();
      recounted += expected.size();
    }
    result.steps += 1;
    result.mismatches += !same;
    result.dumped_rows.push_back(dumped);
    result.recounted_rows.push_back(recounted);
  }
  return result;
}

int predict_on_rank0(const TrainOptions& options, const io::LayoutManifest& manifest);

} // namespace

int run_predict(const TrainOptions& options, MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (options.batch_size == 0 || options.fanouts.empty())
    throw ConfigError("--predict needs --batch-size and --fanouts");
  const io::LayoutManifest manifest = read_manifest(options.layout_dir);
  if (manifest.kind != "vertex")
    throw ConfigError(options.layout_dir + ": --predict needs a vertex layout");
  int code = 0;
  if (rank == 0) {
    try {
      code = predict_on_rank0(options, manifest);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "gnnpart-train: error: %s\n", e.what());
      code = 1;
    }
  }
  MPI_Bcast(&code, 1, MPI_INT, 0, comm);
  return code;
}

namespace {

int predict_on_rank0(const TrainOptions& options, const io::LayoutManifest& manifest) {
  int code = 0;
  {
    const FetchProblem problem = load_fetch_problem(options.layout_dir, manifest.k);
    JsonWriter json;
    json.add("layout", options.layout_dir)
        .add("graph", manifest.graph_name)
        .add("k", static_cast<std::uint64_t>(manifest.k))
        .add("batch_size", static_cast<std::uint64_t>(options.batch_size));
    std::string text = fmt::format("gnnpart-train --predict: {} k={}, batch {} per rank, fanouts "
                                   "{}\n",
                                   manifest.graph_name, manifest.k, options.batch_size,
                                   fmt::join(options.fanouts, ","));
    if (options.predict_samples > 0) {
      const cost::FetchRowsEstimate est =
          cost::expected_fetched_rows(problem.graph, problem.partition, problem.train,
                                      fetch_batch_options(options), options.predict_samples);
      text += fmt::format("  predicted rows per step {:.3f} (stderr {:.3f}, {} fresh steps); "
                          "per rank {:.3f}\n",
                          est.mean, est.standard_error, est.samples, fmt::join(est.per_block, " "));
      json.add("predicted_rows_per_batch", est.mean)
          .add("predicted_rows_stderr", est.standard_error)
          .add("predicted_rows_by_rank", est.per_block)
          .add("predict_samples", static_cast<std::uint64_t>(est.samples));
    }
    if (!options.check_batches.empty()) {
      const CheckResult check = check_dump(problem, options.check_batches);
      std::uint64_t dumped = 0, recounted = 0;
      for (std::size_t i = 0; i < check.steps; ++i) {
        dumped += check.dumped_rows[i];
        recounted += check.recounted_rows[i];
      }
      text += fmt::format("  {}: {} steps, {} differ from the recount; {} rows dumped, {} "
                          "recounted\n",
                          options.check_batches, check.steps, check.mismatches, dumped, recounted);
      json.add("checked_steps", check.steps)
          .add("mismatched_steps", check.mismatches)
          .add("dumped_rows_by_batch", check.dumped_rows)
          .add("recounted_rows_by_batch", check.recounted_rows);
      code = check.mismatches == 0 && check.dumped_rows == check.recounted_rows ? 0 : 2;
    }
    std::printf("%s", text.c_str());
    if (!options.json.empty())
      write_file_atomically(options.json, json.str());
  }
  return code;
}

} // namespace

} // namespace gnnpart::train
