// Python module `gnnpart` (pybind11): partition / evaluate / write_layout over NumPy arrays.
// int32/int64/uint32/uint64 C-contiguous arrays are read in place (zero-copy); other dtypes or
// layouts are converted once. The GIL is released while the library works.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "gnnpart/gnnpart.hpp"

namespace py = pybind11;
namespace api = gnnpart::api;

namespace {

// A borrowed (or, for odd dtypes, converted) 1-D integer array kept alive with its view.
struct Ints {
  py::array array; // owns or references the data
  api::IndexArray view;
};

Ints as_ints(const py::handle& object, const char* what) {
  py::array array = py::array::ensure(object);
  if (!array)
    throw py::value_error(std::string(what) + " must be an integer array");
  if (array.ndim() != 1)
    throw py::value_error(std::string(what) + " must be one-dimensional");
  const auto contiguous = py::array::c_style;
  if ((array.flags() & contiguous) == contiguous) {
    const auto n = static_cast<std::size_t>(array.size());
    if (py::isinstance<py::array_t<std::int64_t>>(array))
      return {array, api::IndexArray(array.data(), n, api::IndexArray::Kind::kInt64)};
    if (py::isinstance<py::array_t<std::int32_t>>(array))
      return {array, api::IndexArray(array.data(), n, api::IndexArray::Kind::kInt32)};
    if (py::isinstance<py::array_t<std::uint32_t>>(array))
      return {array, api::IndexArray(array.data(), n, api::IndexArray::Kind::kUInt32)};
    if (py::isinstance<py::array_t<std::uint64_t>>(array))
      return {array, api::IndexArray(array.data(), n, api::IndexArray::Kind::kUInt64)};
  }
  if (array.dtype().kind() != 'i' && array.dtype().kind() != 'u')
    throw py::value_error(std::string(what) + " must hold integers, not " +
                          std::string(py::str(array.dtype())));
  auto copy = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>::ensure(array);
  return {copy, api::IndexArray(copy.data(), static_cast<std::size_t>(copy.size()),
                                api::IndexArray::Kind::kInt64)};
}

// The graph argument: a (2, m) edge_index array, or an (indptr, indices) pair (CSR).
struct GraphArg {
  std::vector<Ints> keep;
  bool csr = false;
  api::CsrView csr_view;
  api::EdgeView edge_view;
};

GraphArg as_graph(const py::object& graph, std::optional<std::uint64_t> num_nodes) {
  GraphArg g;
  if (py::isinstance<py::tuple>(graph) || py::isinstance<py::list>(graph)) {
    const py::sequence pair = graph;
    if (pair.size() != 2)
      throw py::value_error("graph must be edge_index (2 x m) or a pair (indptr, indices)");
    g.keep.push_back(as_ints(pair[0], "indptr"));
    g.keep.push_back(as_ints(pair[1], "indices"));
    g.csr = true;
    g.csr_view.offsets = g.keep[0].view;
    g.csr_view.adjacency = g.keep[1].view;
    if (num_nodes && *num_nodes + 1 != g.csr_view.offsets.size())
      throw py::value_error("num_nodes does not match len(indptr) - 1");
    return g;
  }
  py::array edge_index = py::array::ensure(graph);
  if (!edge_index || edge_index.ndim() != 2 || edge_index.shape(0) != 2)
    throw py::value_error("graph must be edge_index (2 x m) or a pair (indptr, indices)");
  if ((edge_index.flags() & py::array::c_style) != py::array::c_style)
    edge_index =
        py::array::ensure(py::module_::import("numpy").attr("ascontiguousarray")(edge_index));
  // Rows of a C-contiguous (2, m) array are contiguous: view them without copying.
  py::object rows = edge_index;
  g.keep.push_back(as_ints(rows[py::int_(0)], "edge_index[0]"));
  g.keep.push_back(as_ints(rows[py::int_(1)], "edge_index[1]"));
  g.edge_view.sources = g.keep[0].view;
  g.edge_view.targets = g.keep[1].view;
  g.edge_view.num_nodes = num_nodes.value_or(0);
  return g;
}

// The names of the API's enum values: parsing and the defaults shown in Python both read these
// tables; the default values themselves come from api::Options (gnnpart_defaults.h).
template <typename Enum> struct Named {
  const char* name;
  Enum value;
};
constexpr Named<api::Model> kModels[] = {{"graph", api::Model::kGraph},
                                         {"hypergraph", api::Model::kHypergraph},
                                         {"stochastic", api::Model::kStochastic}};
constexpr Named<api::Preset> kPresets[] = {{"fast", api::Preset::kFast},
                                           {"default", api::Preset::kDefault},
                                           {"strong", api::Preset::kStrong}};
constexpr Named<api::Objective> kObjectives[] = {
    {"default", api::Objective::kDefault}, {"cut", api::Objective::kCut},
    {"volume", api::Objective::kVolume},   {"km1", api::Objective::kKm1},
    {"soed", api::Objective::kSoed}};
constexpr Named<api::VertexWeights> kVertexWeights[] = {
    {"default", api::VertexWeights::kDefault},
    {"degree", api::VertexWeights::kDegree},
    {"unit", api::VertexWeights::kUnit}};
constexpr Named<api::Algorithm> kAlgorithms[] = {{"multilevel", api::Algorithm::kMultilevel},
                                                 {"metis", api::Algorithm::kMetis}};

template <typename Enum, std::size_t N>
Enum parse_named(const Named<Enum> (&table)[N], const std::string& name, const char* what) {
  std::string choices;
  for (const auto& entry : table) {
    if (name == entry.name)
      return entry.value;
    choices += choices.empty() ? "'" : ", '";
    choices += entry.name;
    choices += "'";
  }
  throw py::value_error(std::string(what) + " must be one of " + choices + ", not '" + name +
                        "'");
}

template <typename Enum, std::size_t N>
const char* name_of(const Named<Enum> (&table)[N], Enum value) {
  for (const auto& entry : table)
    if (entry.value == value)
      return entry.name;
  return "default";
}

api::Model parse_model(const std::string& name) {
  return parse_named(kModels, name, "model");
}

api::Preset parse_preset(const std::string& name) {
  return parse_named(kPresets, name, "preset");
}

api::Objective parse_objective(const std::string& name) {
  return parse_named(kObjectives, name.empty() ? "default" : name, "objective");
}

api::VertexWeights parse_vertex_weights(const std::string& name) {
  return parse_named(kVertexWeights, name.empty() ? "default" : name, "vertex_weights");
}

// None: the API's default (all hardware threads), as the CLI's -t and the C API's.
int thread_count(std::optional<int> threads) {
  return threads.value_or(api::Options{}.threads);
}

py::array_t<std::int64_t> to_numpy(const std::vector<std::uint32_t>& blocks) {
  py::array_t<std::int64_t> out(static_cast<py::ssize_t>(blocks.size()));
  auto* data = out.mutable_data();
  for (std::size_t i = 0; i < blocks.size(); ++i)
    data[i] = blocks[i];
  return out;
}

py::dict to_dict(const api::Metrics& m) {
  py::dict d;
  d["n"] = m.n;
  d["m"] = m.m;
  d["k"] = m.k;
  d["edge_cut"] = m.edge_cut;
  d["weighted_edge_cut"] = m.weighted_edge_cut;
  d["comm_volume"] = m.comm_volume;
  d["max_send_volume"] = m.max_send_volume;
  d["max_recv_volume"] = m.max_recv_volume;
  d["boundary_vertices"] = m.boundary_vertices;
  d["empty_blocks"] = m.empty_blocks;
  d["block_sizes"] = m.block_sizes;
  d["imbalance"] = m.imbalance.empty() ? 0.0 : m.imbalance.front();
  return d;
}

std::uint32_t parts_of(const Ints& parts, std::optional<std::uint32_t> num_parts) {
  if (num_parts)
    return *num_parts;
  std::int64_t max_block = -1;
  for (std::size_t i = 0; i < parts.view.size(); ++i)
    max_block = std::max(max_block, parts.view[i]);
  if (max_block < 0)
    throw py::value_error("parts is empty; pass num_parts");
  return static_cast<std::uint32_t>(max_block + 1);
}

py::array_t<std::int64_t> partition(const py::object& graph, std::uint32_t num_parts,
                                    const std::string& model, double epsilon, std::uint64_t seed,
                                    std::optional<int> threads, const std::string& preset,
                                    const std::string& objective, const std::string& algorithm,
                                    const std::string& vertex_weights,
                                    std::optional<std::uint64_t> num_nodes) {
  const GraphArg g = as_graph(graph, num_nodes);
  api::Options options;
  options.model = parse_model(model);
  if (options.model == api::Model::kStochastic &&
      PyErr_WarnEx(PyExc_UserWarning,
                   "model='stochastic' samples its mini-batches from all vertices here, not "
                   "your training set; the CLI's --train FILE gives the stochastic model the "
                   "real one",
                   1) < 0)
    throw py::error_already_set(); // warnings turned into errors
  options.preset = parse_preset(preset);
  options.objective = parse_objective(objective);
  options.vertex_weights = parse_vertex_weights(vertex_weights);
  options.algorithm = parse_named(kAlgorithms, algorithm, "algorithm");
  options.epsilon = epsilon;
  options.seed = seed;
  options.threads = thread_count(threads);
  api::Result result;
  {
    py::gil_scoped_release release;
    result = g.csr ? api::partition(g.csr_view, num_parts, options)
                   : api::partition(g.edge_view, num_parts, options);
  }
  return to_numpy(result.blocks);
}

py::dict evaluate(const py::object& graph, const py::object& parts,
                  std::optional<std::uint32_t> num_parts, std::optional<int> threads,
                  std::optional<std::uint64_t> num_nodes) {
  const GraphArg g = as_graph(graph, num_nodes);
  const Ints p = as_ints(parts, "parts");
  const std::uint32_t k = parts_of(p, num_parts);
  api::Metrics metrics;
  {
    py::gil_scoped_release release;
    metrics = g.csr ? api::evaluate(g.csr_view, p.view, k, thread_count(threads))
                    : api::evaluate(g.edge_view, p.view, k, thread_count(threads));
  }
  return to_dict(metrics);
}

py::dict write_layout(const py::object& graph, const py::object& parts,
                      const std::string& directory, std::optional<std::uint32_t> num_parts,
                      const std::string& graph_name, const std::string& model,
                      const std::string& objective, std::optional<int> threads,
                      std::optional<std::uint64_t> num_nodes) {
  const GraphArg g = as_graph(graph, num_nodes);
  const Ints p = as_ints(parts, "parts");
  const std::uint32_t k = parts_of(p, num_parts);
  api::LayoutOptions options;
  options.graph_name = graph_name;
  options.model = model;
  options.objective = objective;
  options.threads = thread_count(threads);
  api::LayoutInfo info;
  {
    py::gil_scoped_release release;
    info = g.csr ? api::build_layout(g.csr_view, p.view, k, directory, options)
                 : api::build_layout(g.edge_view, p.view, k, directory, options);
  }
  py::dict d;
  d["rows_per_layer"] = info.rows_per_layer;
  d["max_send_rows"] = info.max_send_rows;
  d["max_recv_rows"] = info.max_recv_rows;
  d["messages"] = info.messages;
  return d;
}

} // namespace

PYBIND11_MODULE(gnnpart, m) {
  m.doc() = "gnnpart: (hyper)graph partitioning for distributed GNN training.\n\n"
            "Graphs are given as a PyG-style edge_index (NumPy array of shape (2, m); directed\n"
            "edges are symmetrized, duplicates and self loops dropped) or as a CSR pair\n"
            "(indptr, indices) storing every edge in both directions. int32/int64 arrays are read\n"
            "without copying. Errors raise ValueError with the library's message.";
  m.attr("__version__") = api::version();
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p)
        std::rethrow_exception(p);
    } catch (const api::Error& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });
  const api::Options defaults;
  const std::string default_model = name_of(kModels, defaults.model);
  const std::string default_preset = name_of(kPresets, defaults.preset);
  const std::string default_objective = name_of(kObjectives, defaults.objective);
  const std::string default_algorithm = name_of(kAlgorithms, defaults.algorithm);
  const std::string default_weights = name_of(kVertexWeights, defaults.vertex_weights);
  py::dict default_dict;
  default_dict["model"] = default_model;
  default_dict["epsilon"] = defaults.epsilon;
  default_dict["seed"] = defaults.seed;
  default_dict["threads"] = defaults.threads;
  default_dict["preset"] = default_preset;
  default_dict["objective"] = default_objective;
  default_dict["algorithm"] = default_algorithm;
  default_dict["vertex_weights"] = default_weights;
  default_dict["batch_size"] = defaults.batch_size;
  default_dict["num_batches"] = defaults.num_batches;
  m.attr("defaults") = default_dict;
  m.def("partition", &partition, py::arg("graph"), py::arg("num_parts"),
        py::arg("model") = default_model, py::arg("epsilon") = defaults.epsilon,
        py::arg("seed") = defaults.seed, py::arg("threads") = py::none(),
        py::arg("preset") = default_preset, py::arg("objective") = default_objective,
        py::arg("algorithm") = default_algorithm, py::arg("vertex_weights") = default_weights,
        py::arg("num_nodes") = py::none(),
        R"(partition(graph, num_parts, model="graph", epsilon=0.03, seed=0, threads=None,
          preset="default", objective="default", algorithm="multilevel",
          vertex_weights="default", num_nodes=None) -> numpy.ndarray

Partitions the vertices into num_parts blocks; returns one block id per vertex (int64).
The defaults are the CLI's and the C API's (gnnpart.defaults; include/gnnpart/gnnpart_defaults.h).

graph      edge_index (2 x m) or (indptr, indices)
model      "graph" (edge cut; METIS's objective at about its speed), "hypergraph" (column-net:
           exact full-batch GCN communication volume, about 15% less than METIS at about 3x
           the time) or "stochastic" (expected mini-batch volume)
epsilon    allowed imbalance: blocks weigh at most floor((1 + epsilon) * ceil(W / k))
seed       random seed; the same seed and threads give the same partition
threads    worker threads of this call (None: all hardware threads, as the CLI's default)
preset     "fast", "default" or "strong"
objective  "cut" or "volume" (graph model), "km1", "cut" or "soed" (hypergraph models)
algorithm  "multilevel" or "metis" (graph model only)
vertex_weights  hypergraph models: "default" (unit: blocks keep their share of vertices),
           "unit" or "degree" (deg + 1, the SpMM work of a row)
num_nodes  vertices of an edge_index graph (default: largest id + 1))");
  m.def("evaluate", &evaluate, py::arg("graph"), py::arg("parts"),
        py::arg("num_parts") = py::none(), py::arg("threads") = py::none(),
        py::arg("num_nodes") = py::none(),
        R"(evaluate(graph, parts, num_parts=None, threads=None, num_nodes=None) -> dict

Metrics of a partition: edge_cut, weighted_edge_cut, comm_volume (sum over vertices of the
blocks among the vertex and its neighbours minus one: feature rows sent per GCN layer),
max_send_volume, max_recv_volume, boundary_vertices, empty_blocks, block_sizes, imbalance
(max block size / ceil(n / k) - 1), n, m, k. num_parts defaults to max(parts) + 1.)");
  m.def("write_layout", &write_layout, py::arg("graph"), py::arg("parts"), py::arg("directory"),
        py::arg("num_parts") = py::none(), py::arg("graph_name") = "graph",
        py::arg("model") = "graph", py::arg("objective") = "unspecified",
        py::arg("threads") = py::none(), py::arg("num_nodes") = py::none(),
        R"(write_layout(graph, parts, directory, num_parts=None, graph_name="graph",
             model="graph", objective="unspecified", threads=None, num_nodes=None) -> dict

Writes the trainer layout directory (layout.json, assignment.txt, part<p>/*.npy; see
docs/layout.md) atomically, replacing an existing layout. Returns the predicted traffic:
rows_per_layer, max_send_rows, max_recv_rows, messages.)");
}
