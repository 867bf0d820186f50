// gnnpart._core (pybind11): partition / evaluate / write_layout over NumPy arrays; the package
// python/gnnpart wraps it (torch tensors, balance masks, docstrings).
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

#include "core/errors.h"
#include "core/option_names.h"
#include "export/distdgl_export.h"
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
    throw py::type_error(std::string(what) + " must be an integer array");
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
    throw py::type_error(std::string(what) + " must hold integers, not " +
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

// The API's enum names (core/option_names.h): parsing and defaults() both read them.
using api::kAlgorithmNames;
using api::kModelNames;
using api::kObjectiveNames;
using api::kPresetNames;
using api::kVertexWeightsNames;
using api::name_of;

template <typename Enum, std::size_t N>
Enum parse_name(const api::EnumName<Enum> (&table)[N], const std::string& value, const char* what) {
  std::string names;
  for (const auto& entry : table) {
    if (value == entry.name)
      return entry.value;
    names += (names.empty() ? "'" : ", '") + std::string(entry.name) + "'";
  }
  throw py::value_error(std::string(what) + " must be one of " + names + ", not '" + value + "'");
}

// The C++ API's defaults (api::Options{}), the one source the Python signatures follow.
py::dict defaults() {
  const api::Options o;
  py::dict d;
  d["model"] = name_of(kModelNames, o.model);
  d["algorithm"] = name_of(kAlgorithmNames, o.algorithm);
  d["objective"] = name_of(kObjectiveNames, o.objective);
  d["preset"] = name_of(kPresetNames, o.preset);
  d["vertex_weights"] = name_of(kVertexWeightsNames, o.vertex_weights);
  d["epsilon"] = o.epsilon;
  d["seed"] = o.seed;
  d["threads"] = o.threads;
  d["batch_size"] = o.batch_size;
  d["num_batches"] = o.num_batches;
  return d;
}

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

// The keys of `gnnpart evaluate --json` (app/support.cc add_metrics).
py::dict to_dict(const api::Metrics& m, std::uint64_t feature_dim) {
  py::dict d;
  d["n"] = m.n;
  d["m"] = m.m;
  d["k"] = m.k;
  d["edge_cut"] = m.edge_cut;
  d["weighted_edge_cut"] = m.weighted_edge_cut;
  d["comm_volume"] = m.comm_volume;
  d["max_send_volume"] = m.max_send_volume;
  d["max_recv_volume"] = m.max_recv_volume;
  d["max_block_volume"] = m.max_block_volume;
  d["num_comm_pairs"] = m.num_comm_pairs;
  d["boundary_vertices"] = m.boundary_vertices;
  d["halo_ratio"] = m.halo_ratio;
  d["imbalance_vertices"] = m.imbalance_vertices;
  d["imbalance"] = m.imbalance;
  d["empty_blocks"] = m.empty_blocks;
  d["block_sizes"] = m.block_sizes;
  if (feature_dim > 0) {
    d["feature_dim"] = feature_dim;
    d["bytes_per_layer"] = static_cast<std::uint64_t>(m.comm_volume) * feature_dim * 4;
  }
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

// The vertex-weight matrix (n x ncon, C order) of the balance constraints, or None.
void set_constraints(GraphArg& g, const py::object& constraints) {
  if (constraints.is_none())
    return;
  py::array matrix = py::array::ensure(constraints);
  if (!matrix || matrix.ndim() != 2)
    throw py::value_error("constraints must be an (n, ncon) integer array");
  const int ncon = static_cast<int>(matrix.shape(1));
  py::object flat = py::module_::import("numpy").attr("ascontiguousarray")(matrix).attr("ravel")();
  g.keep.push_back(as_ints(flat, "constraints"));
  if (g.csr) {
    g.csr_view.vertex_weights = g.keep.back().view;
    g.csr_view.ncon = ncon;
  } else {
    g.edge_view.vertex_weights = g.keep.back().view;
    g.edge_view.ncon = ncon;
  }
}

py::array_t<std::int64_t> partition(const py::object& graph, std::uint32_t num_parts,
                                    const std::string& model, double epsilon, std::uint64_t seed,
                                    std::optional<int> threads, const std::string& preset,
                                    const std::string& objective, const std::string& algorithm,
                                    const std::string& vertex_weights,
                                    std::optional<std::uint64_t> num_nodes,
                                    const py::object& constraints) {
  GraphArg g = as_graph(graph, num_nodes);
  set_constraints(g, constraints);
  api::Options options;
  options.model = parse_name(kModelNames, model, "model");
  if (options.model == api::Model::kStochastic &&
      PyErr_WarnEx(PyExc_UserWarning,
                   "model='stochastic' samples its mini-batches from all vertices here, not "
                   "your training set; the CLI's --train FILE gives the stochastic model the "
                   "real one",
                   1) < 0)
    throw py::error_already_set(); // warnings turned into errors
  options.preset = parse_name(kPresetNames, preset, "preset");
  options.objective = parse_name(kObjectiveNames, objective, "objective");
  options.vertex_weights = parse_name(kVertexWeightsNames, vertex_weights, "vertex_weights");
  options.algorithm = parse_name(kAlgorithmNames, algorithm, "algorithm");
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
                  std::optional<std::uint64_t> num_nodes, std::uint64_t feature_dim) {
  const GraphArg g = as_graph(graph, num_nodes);
  const Ints p = as_ints(parts, "parts");
  const std::uint32_t k = parts_of(p, num_parts);
  api::Metrics metrics;
  {
    py::gil_scoped_release release;
    metrics = g.csr ? api::evaluate(g.csr_view, p.view, k, thread_count(threads))
                    : api::evaluate(g.edge_view, p.view, k, thread_count(threads));
  }
  return to_dict(metrics, feature_dim);
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

api::GcnShape gcn_shape(int layers, std::uint32_t feature_dim, std::uint32_t hidden,
                        std::uint32_t classes, double dropout, double feature_density) {
  return {.layers = layers,
          .feature_dim = feature_dim,
          .hidden = hidden,
          .classes = classes,
          .dropout = dropout,
          .feature_density = feature_density};
}

py::dict to_dict(const api::TimePrediction& t) {
  py::dict d;
  d["seconds"] = t.seconds;
  d["standard_error"] = t.standard_error;
  d["critical_rank"] = t.critical_rank;
  d["rank_seconds"] = t.rank_seconds;
  return d;
}

// gnnpart-train's epoch (full batch) on the machine of a --calibrate profile.
py::dict predict_epoch_time(const py::object& graph, const py::object& parts,
                            const std::string& profile, std::optional<std::uint32_t> num_parts,
                            std::optional<std::uint64_t> num_nodes, int layers,
                            std::uint32_t feature_dim, std::uint32_t hidden, std::uint32_t classes,
                            double dropout, double feature_density, std::optional<int> threads) {
  const GraphArg g = as_graph(graph, num_nodes);
  const Ints p = as_ints(parts, "parts");
  const std::uint32_t k = parts_of(p, num_parts);
  const api::GcnShape shape =
      gcn_shape(layers, feature_dim, hidden, classes, dropout, feature_density);
  api::TimePrediction t;
  {
    py::gil_scoped_release release;
    t = g.csr
            ? api::predict_epoch_time(g.csr_view, p.view, k, profile, shape, thread_count(threads))
            : api::predict_epoch_time(g.edge_view, p.view, k, profile, shape,
                                      thread_count(threads));
  }
  return to_dict(t);
}

// One fetch-mode mini-batch step of gnnpart-train, expected over fresh steps.
py::dict predict_step_time(const py::object& graph, const py::object& parts,
                           const std::string& profile, const std::vector<int>& fanouts,
                           std::optional<std::uint32_t> num_parts,
                           std::optional<std::uint64_t> num_nodes, const py::object& train,
                           std::uint32_t batch_size, std::uint32_t samples, std::uint64_t seed,
                           std::uint32_t feature_dim, std::uint32_t hidden, std::uint32_t classes,
                           double dropout, double feature_density, std::optional<int> threads) {
  const GraphArg g = as_graph(graph, num_nodes);
  const Ints p = as_ints(parts, "parts");
  const std::uint32_t k = parts_of(p, num_parts);
  api::StepSampling sampling{
      .batch_size = batch_size, .fanouts = fanouts, .samples = samples, .seed = seed};
  if (!train.is_none()) {
    const Ints ids = as_ints(train, "train");
    for (std::size_t i = 0; i < ids.view.size(); ++i) {
      const std::int64_t u = ids.view[i];
      if (u < 0 || u > static_cast<std::int64_t>(UINT32_MAX))
        throw py::value_error("train holds vertex " + std::to_string(u));
      sampling.training_set.push_back(static_cast<std::uint32_t>(u));
    }
  }
  const api::GcnShape shape = gcn_shape(static_cast<int>(fanouts.size()), feature_dim, hidden,
                                        classes, dropout, feature_density);
  api::TimePrediction t;
  {
    py::gil_scoped_release release;
    t = g.csr ? api::predict_step_time(g.csr_view, p.view, k, profile, sampling, shape,
                                       thread_count(threads))
              : api::predict_step_time(g.edge_view, p.view, k, profile, sampling, shape,
                                       thread_count(threads));
  }
  return to_dict(t);
}

// DistDGL's partition assignment directory (lib/export); returns the number of parts.
std::uint32_t write_distdgl(const py::object& parts, const std::string& directory,
                            std::optional<std::uint32_t> num_parts, const std::string& node_type) {
  const Ints p = as_ints(parts, "parts");
  gnnpart::Partition partition;
  partition.k = parts_of(p, num_parts);
  partition.blocks.resize(p.view.size());
  for (std::size_t u = 0; u < p.view.size(); ++u) {
    const std::int64_t b = p.view[u];
    if (b < 0 || b >= static_cast<std::int64_t>(partition.k))
      throw py::value_error("vertex " + std::to_string(u) + " has block " + std::to_string(b) +
                            " outside [0, " + std::to_string(partition.k) + ")");
    partition.blocks[u] = static_cast<gnnpart::BlockID>(b);
  }
  {
    py::gil_scoped_release release;
    gnnpart::exporting::write_distdgl_partition(partition, directory, node_type);
  }
  return partition.k;
}

} // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "gnnpart._core: the pybind11 binding of the C++ API (include/gnnpart/gnnpart.hpp).\n"
            "Use the package `gnnpart`, which adds torch tensors and balance masks.";
  m.attr("__version__") = api::version();
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p)
        std::rethrow_exception(p);
    } catch (const api::Error& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const gnnpart::SystemError& e) {
      PyErr_SetString(PyExc_OSError, e.what());
    } catch (const gnnpart::Error& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });
  // Keyword defaults are those of api::Options{} and api::LayoutOptions{}.
  const api::Options o;
  const api::LayoutOptions lo;
  m.def("defaults", &defaults, "The C++ API's option defaults (api::Options{}) as a dict.");
  m.def("partition", &partition, py::arg("graph"), py::arg("num_parts"),
        py::arg("model") = name_of(kModelNames, o.model), py::arg("epsilon") = o.epsilon,
        py::arg("seed") = o.seed, py::arg("threads") = py::none(),
        py::arg("preset") = name_of(kPresetNames, o.preset),
        py::arg("objective") = name_of(kObjectiveNames, o.objective),
        py::arg("algorithm") = name_of(kAlgorithmNames, o.algorithm),
        py::arg("vertex_weights") = name_of(kVertexWeightsNames, o.vertex_weights),
        py::arg("num_nodes") = py::none(), py::arg("constraints") = py::none());
  m.def("evaluate", &evaluate, py::arg("graph"), py::arg("parts"),
        py::arg("num_parts") = py::none(), py::arg("threads") = py::none(),
        py::arg("num_nodes") = py::none(), py::arg("feature_dim") = 0);
  m.def("write_layout", &write_layout, py::arg("graph"), py::arg("parts"), py::arg("directory"),
        py::arg("num_parts") = py::none(), py::arg("graph_name") = lo.graph_name,
        py::arg("model") = lo.model, py::arg("objective") = lo.objective,
        py::arg("threads") = py::none(), py::arg("num_nodes") = py::none());
  // Keyword defaults are those of api::GcnShape{} and api::StepSampling{}.
  const api::GcnShape shape;
  const api::StepSampling step;
  m.def("predict_epoch_time", &predict_epoch_time, py::arg("graph"), py::arg("parts"),
        py::arg("profile"), py::arg("num_parts") = py::none(), py::arg("num_nodes") = py::none(),
        py::arg("layers") = shape.layers, py::arg("feature_dim") = shape.feature_dim,
        py::arg("hidden") = shape.hidden, py::arg("classes") = shape.classes,
        py::arg("dropout") = shape.dropout, py::arg("feature_density") = shape.feature_density,
        py::arg("threads") = py::none());
  m.def("predict_step_time", &predict_step_time, py::arg("graph"), py::arg("parts"),
        py::arg("profile"), py::arg("fanouts"), py::arg("num_parts") = py::none(),
        py::arg("num_nodes") = py::none(), py::arg("train") = py::none(),
        py::arg("batch_size") = step.batch_size, py::arg("samples") = step.samples,
        py::arg("seed") = step.seed, py::arg("feature_dim") = shape.feature_dim,
        py::arg("hidden") = shape.hidden, py::arg("classes") = shape.classes,
        py::arg("dropout") = shape.dropout, py::arg("feature_density") = shape.feature_density,
        py::arg("threads") = py::none());
  m.def("write_distdgl", &write_distdgl, py::arg("parts"), py::arg("directory"),
        py::arg("num_parts") = py::none(),
        py::arg("node_type") = gnnpart::exporting::kDglHomogeneousNodeType);
}
