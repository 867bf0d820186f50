#pragma once
// gnnpart C++ API for embedding in trainers. Views borrow caller-owned arrays (nothing is
// copied until the library needs its own CSR); every call runs inside a tbb::task_arena of
// Options::threads workers; there is no global state, so calls from several threads at once
// are safe. Errors are thrown as gnnpart::api::Error (what() is a one-line message).
//
//   gnnpart::api::CsrView g{indptr, indices};           // spans of int32/int64/uint32/uint64
//   gnnpart::api::Options o;                           // defaults: gnnpart_defaults.h
//   o.model = gnnpart::api::Model::kHypergraph;
//   gnnpart::api::Result r = gnnpart::api::partition(g, 8, o);
//   // r.blocks[u] in [0, 8), r.objective = communication volume, r.metrics ...
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "gnnpart_defaults.h"
#include "gnnpart_enums.hpp"

namespace gnnpart::api {

// A read-only borrowed integer array of any of the common widths (zero-copy).
class IndexArray {
public:
  enum class Kind : std::uint8_t { kInt32, kInt64, kUInt32, kUInt64 };
  IndexArray() = default;
  IndexArray(std::span<const std::int32_t> s)
      : data_(s.data()), size_(s.size()), kind_(Kind::kInt32) {}
  IndexArray(std::span<const std::int64_t> s)
      : data_(s.data()), size_(s.size()), kind_(Kind::kInt64) {}
  IndexArray(std::span<const std::uint32_t> s)
      : data_(s.data()), size_(s.size()), kind_(Kind::kUInt32) {}
  IndexArray(std::span<const std::uint64_t> s)
      : data_(s.data()), size_(s.size()), kind_(Kind::kUInt64) {}
  IndexArray(const std::vector<std::int32_t>& v) : IndexArray(std::span<const std::int32_t>(v)) {}
  IndexArray(const std::vector<std::int64_t>& v) : IndexArray(std::span<const std::int64_t>(v)) {}
  IndexArray(const std::vector<std::uint32_t>& v) : IndexArray(std::span<const std::uint32_t>(v)) {}
  IndexArray(const std::vector<std::uint64_t>& v) : IndexArray(std::span<const std::uint64_t>(v)) {}
  // Raw pointer form for bindings (data may be null only when size is 0).
  IndexArray(const void* data, std::size_t size, Kind kind)
      : data_(data), size_(size), kind_(kind) {}

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const void* data() const { return data_; }
  Kind kind() const { return kind_; }
  // Element i widened to int64 (uint64 values above INT64_MAX wrap negative and are rejected
  // by the library's checks).
  std::int64_t operator[](std::size_t i) const {
    switch (kind_) {
    case Kind::kInt32:
      return static_cast<const std::int32_t*>(data_)[i];
    case Kind::kInt64:
      return static_cast<const std::int64_t*>(data_)[i];
    case Kind::kUInt32:
      return static_cast<const std::uint32_t*>(data_)[i];
    case Kind::kUInt64:
      return static_cast<std::int64_t>(static_cast<const std::uint64_t*>(data_)[i]);
    }
    return 0;
  }

private:
  const void* data_ = nullptr;
  std::size_t size_ = 0;
  Kind kind_ = Kind::kInt64;
};

// Symmetric CSR (every undirected edge stored in both directions, as METIS expects).
// Empty weights mean unit weights; vertex_weights holds ncon values per vertex, row-major.
// Self loops are ignored.
struct CsrView {
  IndexArray offsets;   // n + 1 entries, offsets[0] = 0
  IndexArray adjacency; // offsets[n] entries
  IndexArray edge_weights = {};
  IndexArray vertex_weights = {};
  int ncon = 1;
};

// Edge arrays (e.g. PyG edge_index rows): sources[i] - targets[i]; directed input is
// symmetrized, duplicates merged, self loops dropped. num_nodes 0 means max id + 1.
struct EdgeView {
  IndexArray sources;
  IndexArray targets;
  std::uint64_t num_nodes = 0;
  IndexArray vertex_weights = {}; // ncon values per vertex, row-major, as in CsrView
  int ncon = 1;
};

// All defaults come from gnnpart_defaults.h, the same as the C API's, the CLI's and Python's.
struct Options {
  Model model = static_cast<Model>(GNNPART_DEFAULT_MODEL);
  Algorithm algorithm = static_cast<Algorithm>(GNNPART_DEFAULT_ALGORITHM);
  Objective objective = static_cast<Objective>(GNNPART_DEFAULT_OBJECTIVE);
  Preset preset = static_cast<Preset>(GNNPART_DEFAULT_PRESET);
  FlowRefinement flows = static_cast<FlowRefinement>(GNNPART_DEFAULT_FLOWS);
  VertexWeights vertex_weights = static_cast<VertexWeights>(GNNPART_DEFAULT_VERTEX_WEIGHTS);
  double epsilon = GNNPART_DEFAULT_EPSILON; // blocks weigh at most floor((1+epsilon)*ceil(W/k))
  std::uint64_t seed = GNNPART_DEFAULT_SEED;
  int threads = GNNPART_DEFAULT_THREADS; // task_arena size; <= 0: all hardware threads
  // Stochastic model: mini-batches sampled from the training set (empty: all vertices, which
  // rarely matches a real training run; the CLI and Python warn).
  std::vector<std::uint32_t> training_set;
  std::uint32_t batch_size = GNNPART_DEFAULT_BATCH_SIZE;
  std::uint32_t num_batches = GNNPART_DEFAULT_NUM_BATCHES;
  std::vector<int> fanouts; // per layer; empty: one layer of all neighbours

  static Options preset_fast();
  static Options preset_default();
  static Options preset_strong();
  static Options preset_metis(); // graph model through the METIS backend
};

struct Metrics {
  std::uint64_t n = 0;
  std::uint64_t m = 0;
  std::uint32_t k = 0;
  std::uint64_t edge_cut = 0;
  std::int64_t weighted_edge_cut = 0;
  std::int64_t comm_volume = 0; // sum over u of lambda(u) - 1 (rows sent per GCN layer)
  std::int64_t max_send_volume = 0;
  std::int64_t max_recv_volume = 0;
  std::int64_t max_block_volume = 0; // largest send + recv of one block (--objective max-volume)
  std::uint64_t boundary_vertices = 0;
  std::uint32_t empty_blocks = 0;
  std::vector<std::int64_t> block_sizes;
  std::vector<double> imbalance; // per constraint
  std::uint64_t num_comm_pairs = 0; // ordered block pairs (p, q) with p sending rows to q
  double halo_ratio = 0;            // halo vertices over all blocks / n
  double imbalance_vertices = 0;    // by vertex count, as evalpart
};

struct Result {
  std::vector<std::uint32_t> blocks; // blocks[u] in [0, k)
  std::int64_t objective = 0;        // the model's objective value (see Objective)
  Metrics metrics;                   // graph metrics of the partition
};

class Error : public std::runtime_error {
public:
  enum class Code { kInput, kMemory, kInfeasible, kUnsupported, kSystem, kInternal };
  Error(Code code, const std::string& message) : std::runtime_error(message), code_(code) {}
  Code code() const { return code_; }

private:
  Code code_;
};

Result partition(const CsrView& graph, std::uint32_t k, const Options& options = {});
Result partition(const EdgeView& edges, std::uint32_t k, const Options& options = {});

Metrics evaluate(const CsrView& graph, IndexArray blocks, std::uint32_t k,
                 int threads = GNNPART_DEFAULT_THREADS);
Metrics evaluate(const EdgeView& edges, IndexArray blocks, std::uint32_t k,
                 int threads = GNNPART_DEFAULT_THREADS);

struct LayoutOptions {
  std::string graph_name = "graph";
  std::string model = "graph";
  std::string objective = "unspecified";
  int threads = GNNPART_DEFAULT_THREADS;
};
struct LayoutInfo {
  std::uint64_t rows_per_layer = 0;
  std::uint64_t max_send_rows = 0;
  std::uint64_t max_recv_rows = 0;
  std::uint64_t messages = 0;
};
// Writes the trainer layout directory (docs/layout.md) atomically; replaces an existing one.
LayoutInfo build_layout(const CsrView& graph, IndexArray blocks, std::uint32_t k,
                        const std::string& dir, const LayoutOptions& options = {});
LayoutInfo build_layout(const EdgeView& edges, IndexArray blocks, std::uint32_t k,
                        const std::string& dir, const LayoutOptions& options = {});

// gnnpart-train's time model (docs/cost_model.md) on a machine profile that
// `mpirun -np P gnnpart-train --calibrate -o profile.json` measured: the time of a full-batch
// epoch, or of one fetch-mode mini-batch step (DistDGL's scheme), for a partition with one rank
// per block. The same figures as `gnnpart evaluate --cost` / `--minibatch --cost`.
struct GcnShape {
  int layers = 2; // full batch; a mini-batch step has one layer per fanout
  std::uint32_t feature_dim = 16;
  std::uint32_t hidden = 16;
  std::uint32_t classes = 4;
  double dropout = 0.5;         // gnnpart-train's default
  double feature_density = 1.0; // nonzero share of the input features (random ones: 1)
};
struct StepSampling {
  std::vector<std::uint32_t> training_set;               // empty: every vertex trains
  std::uint32_t batch_size = GNNPART_DEFAULT_BATCH_SIZE; // seeds per rank and step
  std::vector<int> fanouts; // per layer, hop 1 first (as Options::fanouts); required
  std::uint32_t samples = GNNPART_DEFAULT_PREDICT_SAMPLES; // fresh steps averaged
  std::uint64_t seed = GNNPART_DEFAULT_SEED;
};
struct TimePrediction {
  double seconds = 0;               // the epoch, or the expected step
  double standard_error = 0;        // over the sampled steps (0 for an epoch)
  std::uint32_t critical_rank = 0;  // the epoch's slowest rank; the busiest rank of a step
  std::vector<double> rank_seconds; // epoch: every rank's total; step: every rank's own work
};
TimePrediction predict_epoch_time(const CsrView& graph, IndexArray blocks, std::uint32_t k,
                                  const std::string& profile, const GcnShape& shape = {},
                                  int threads = GNNPART_DEFAULT_THREADS);
TimePrediction predict_epoch_time(const EdgeView& edges, IndexArray blocks, std::uint32_t k,
                                  const std::string& profile, const GcnShape& shape = {},
                                  int threads = GNNPART_DEFAULT_THREADS);
TimePrediction predict_step_time(const CsrView& graph, IndexArray blocks, std::uint32_t k,
                                 const std::string& profile, const StepSampling& sampling,
                                 const GcnShape& shape = {}, int threads = GNNPART_DEFAULT_THREADS);
TimePrediction predict_step_time(const EdgeView& edges, IndexArray blocks, std::uint32_t k,
                                 const std::string& profile, const StepSampling& sampling,
                                 const GcnShape& shape = {}, int threads = GNNPART_DEFAULT_THREADS);

struct StreamingOptions {
  double epsilon = GNNPART_DEFAULT_EPSILON;
  std::uint64_t seed = GNNPART_DEFAULT_SEED;
  bool fennel = true;  // false: LDG
  bool volume = false; // score lambda-1 of column nets instead of edges cut
  int passes = GNNPART_DEFAULT_STREAM_PASSES; // > 1: restreaming; 0: the default (1 here)
  int threads = GNNPART_DEFAULT_THREADS;
};

// One-pass vertex partitioner fed edge by edge. Edges are gathered per vertex (O(m) memory)
// and streamed in vertex order through Fennel/LDG at finish().
class StreamingPartitioner {
public:
  StreamingPartitioner(std::uint64_t num_nodes, std::uint32_t k,
                       const StreamingOptions& options = {});
  ~StreamingPartitioner();
  StreamingPartitioner(StreamingPartitioner&&) noexcept;
  StreamingPartitioner& operator=(StreamingPartitioner&&) noexcept;
  StreamingPartitioner(const StreamingPartitioner&) = delete;
  StreamingPartitioner& operator=(const StreamingPartitioner&) = delete;

  // Undirected edges sources[i] - targets[i]; throws on ids >= num_nodes or length mismatch.
  void add_edges(IndexArray sources, IndexArray targets);
  // Partitions the vertices; the object can not take edges afterwards.
  Result finish();

private:
  struct State;
  std::unique_ptr<State> state_;
};

const char* version();

} // namespace gnnpart::api
