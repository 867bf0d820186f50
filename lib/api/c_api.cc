// The C API (include/gnnpart/gnnpart.h) on top of the C++ API; every entry point catches all
// exceptions and turns them into a status code and a thread-local message.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <new>
#include <string>

#include <fmt/format.h>

#include "gnnpart/gnnpart.h"
#include "gnnpart/gnnpart.hpp"

namespace {

thread_local std::string last_error;

int fail(int status, const std::string& message) {
  try {
    last_error = message;
  } catch (...) {
    // Out of memory while recording the message: keep the status.
  }
  return status;
}

int status_of(gnnpart::api::Error::Code code) {
  using Code = gnnpart::api::Error::Code;
  switch (code) {
  case Code::kInput:
    return GNNPART_ERROR_INPUT;
  case Code::kMemory:
    return GNNPART_ERROR_MEMORY;
  case Code::kInfeasible:
    return GNNPART_ERROR_INFEASIBLE;
  case Code::kUnsupported:
    return GNNPART_ERROR_UNSUPPORTED;
  case Code::kSystem:
    return GNNPART_ERROR_SYSTEM;
  case Code::kInternal:
    return GNNPART_ERROR_INTERNAL;
  }
  return GNNPART_ERROR_INTERNAL;
}

struct CInputError {
  std::string message;
};

// Runs f() -> void; returns GNNPART_OK or the status of the exception it threw.
template <typename F> int guarded(F&& f) noexcept {
  try {
    last_error.clear();
    f();
    return GNNPART_OK;
  } catch (const CInputError& e) {
    return fail(GNNPART_ERROR_INPUT, e.message);
  } catch (const gnnpart::api::Error& e) {
    return fail(status_of(e.code()), e.what());
  } catch (const std::bad_alloc&) {
    return fail(GNNPART_ERROR_MEMORY, "out of memory");
  } catch (const std::exception& e) {
    return fail(GNNPART_ERROR_INTERNAL, e.what());
  } catch (...) {
    return fail(GNNPART_ERROR_INTERNAL, "unknown exception");
  }
}

void require(bool condition, const char* message) {
  if (!condition)
    throw CInputError{message};
}

// A C option value as the C++ enum with the same value (both come from gnnpart_defaults.h).
template <typename Enum> Enum checked_enum(int32_t value, int32_t last, const char* what) {
  if (value < 0 || value > last)
    throw CInputError{fmt::format("unknown {} {}", what, value)};
  return static_cast<Enum>(value);
}

gnnpart::api::Options to_options(const gnnpart_options& o, int32_t ncon, const double* ubvec) {
  namespace api = gnnpart::api;
  api::Options out;
  out.model = checked_enum<api::Model>(o.model, GNNPART_MODEL_STOCHASTIC, "model");
  out.algorithm = checked_enum<api::Algorithm>(o.algorithm, GNNPART_ALGORITHM_METIS, "algorithm");
  out.objective = checked_enum<api::Objective>(o.objective, GNNPART_OBJECTIVE_EPOCH, "objective");
  out.preset = checked_enum<api::Preset>(o.preset, GNNPART_PRESET_STRONG, "preset");
  out.flows = checked_enum<api::FlowRefinement>(o.flows, GNNPART_FLOWS_OFF, "flows setting");
  out.vertex_weights = checked_enum<api::VertexWeights>(
      o.vertex_weights, GNNPART_VERTEX_WEIGHTS_GRAPH, "vertex weights setting");
  out.epsilon = o.epsilon;
  if (ubvec != nullptr) {
    double strictest = INFINITY;
    for (int32_t c = 0; c < ncon; ++c) {
      if (!(ubvec[c] >= 1.0))
        throw CInputError{fmt::format("ubvec[{}] = {} must be >= 1 (1 + epsilon)", c, ubvec[c])};
      strictest = std::min(strictest, ubvec[c] - 1.0);
    }
    out.epsilon = strictest;
  }
  if (!(out.epsilon >= 0) || !std::isfinite(out.epsilon))
    throw CInputError{fmt::format("epsilon = {} must be a finite value >= 0", out.epsilon)};
  out.seed = o.seed;
  out.threads = o.threads;
  out.batch_size = o.batch_size;
  out.num_batches = o.num_batches;
  return out;
}

template <typename Int>
int part_graph_kway(Int nvtxs, int32_t ncon, const Int* xadj, const Int* adjncy, const Int* vwgt,
                    const Int* adjwgt, int32_t nparts, const double* ubvec,
                    const gnnpart_options* options, int64_t* objval, int32_t* part) {
  return guarded([&] {
    require(nvtxs >= 0, "nvtxs must be >= 0");
    require(ncon >= 1, "ncon must be >= 1");
    require(xadj != nullptr, "xadj is NULL");
    require(part != nullptr, "part is NULL");
    require(nparts >= 1, "nparts must be >= 1");
    require(nparts <= nvtxs, "nparts exceeds the number of vertices");
    require(vwgt != nullptr || ncon == 1, "ncon > 1 needs vwgt");
    const auto n = static_cast<std::size_t>(nvtxs);
    require(xadj[0] == 0, "xadj[0] must be 0");
    require(xadj[n] >= 0, "xadj[nvtxs] is negative");
    const auto entries = static_cast<std::size_t>(xadj[n]);
    require(adjncy != nullptr || entries == 0, "adjncy is NULL");
    const gnnpart_options o = options != nullptr ? *options : gnnpart_default_options();
    gnnpart::api::CsrView view;
    view.offsets = std::span<const Int>(xadj, n + 1);
    view.adjacency = std::span<const Int>(adjncy, entries);
    if (adjwgt != nullptr)
      view.edge_weights = std::span<const Int>(adjwgt, entries);
    if (vwgt != nullptr)
      view.vertex_weights = std::span<const Int>(vwgt, n * ncon);
    view.ncon = ncon;
    gnnpart::api::Result result = gnnpart::api::partition(view, static_cast<std::uint32_t>(nparts),
                                                          to_options(o, ncon, ubvec));
    std::copy(result.blocks.begin(), result.blocks.end(), part);
    if (objval != nullptr)
      *objval = result.objective;
  });
}

} // namespace

extern "C" {

gnnpart_options gnnpart_default_options(void) {
  gnnpart_options o{};
  o.model = GNNPART_DEFAULT_MODEL;
  o.algorithm = GNNPART_DEFAULT_ALGORITHM;
  o.objective = GNNPART_DEFAULT_OBJECTIVE;
  o.preset = GNNPART_DEFAULT_PRESET;
  o.epsilon = GNNPART_DEFAULT_EPSILON;
  o.seed = GNNPART_DEFAULT_SEED;
  o.threads = GNNPART_DEFAULT_THREADS;
  o.batch_size = GNNPART_DEFAULT_BATCH_SIZE;
  o.num_batches = GNNPART_DEFAULT_NUM_BATCHES;
  o.flows = GNNPART_DEFAULT_FLOWS;
  o.vertex_weights = GNNPART_DEFAULT_VERTEX_WEIGHTS;
  return o;
}

int gnnpart_part_graph_kway(int64_t nvtxs, int32_t ncon, const int64_t* xadj, const int64_t* adjncy,
                            const int64_t* vwgt, const int64_t* adjwgt, int32_t nparts,
                            const double* ubvec, const gnnpart_options* options, int64_t* objval,
                            int32_t* part) {
  return part_graph_kway<int64_t>(nvtxs, ncon, xadj, adjncy, vwgt, adjwgt, nparts, ubvec, options,
                                  objval, part);
}

int gnnpart_part_graph_kway32(int32_t nvtxs, int32_t ncon, const int32_t* xadj,
                              const int32_t* adjncy, const int32_t* vwgt, const int32_t* adjwgt,
                              int32_t nparts, const double* ubvec, const gnnpart_options* options,
                              int64_t* objval, int32_t* part) {
  return part_graph_kway<int32_t>(nvtxs, ncon, xadj, adjncy, vwgt, adjwgt, nparts, ubvec, options,
                                  objval, part);
}

int gnnpart_evaluate(int64_t nvtxs, const int64_t* xadj, const int64_t* adjncy,
                     const int64_t* adjwgt, int32_t nparts, const int32_t* part, int64_t* edge_cut,
                     int64_t* comm_volume, double* imbalance) {
  return guarded([&] {
    require(nvtxs >= 0, "nvtxs must be >= 0");
    require(xadj != nullptr, "xadj is NULL");
    require(part != nullptr || nvtxs == 0, "part is NULL");
    require(nparts >= 1, "nparts must be >= 1");
    const auto n = static_cast<std::size_t>(nvtxs);
    require(xadj[0] == 0, "xadj[0] must be 0");
    require(xadj[n] >= 0, "xadj[nvtxs] is negative");
    const auto entries = static_cast<std::size_t>(xadj[n]);
    require(adjncy != nullptr || entries == 0, "adjncy is NULL");
    gnnpart::api::CsrView view;
    view.offsets = std::span<const int64_t>(xadj, n + 1);
    view.adjacency = std::span<const int64_t>(adjncy, entries);
    if (adjwgt != nullptr)
      view.edge_weights = std::span<const int64_t>(adjwgt, entries);
    const gnnpart::api::Metrics m = gnnpart::api::evaluate(view, std::span<const int32_t>(part, n),
                                                           static_cast<std::uint32_t>(nparts));
    if (edge_cut != nullptr)
      *edge_cut = m.weighted_edge_cut;
    if (comm_volume != nullptr)
      *comm_volume = m.comm_volume;
    if (imbalance != nullptr)
      *imbalance = m.imbalance.empty() ? 0.0 : m.imbalance.front();
  });
}

const char* gnnpart_last_error(void) {
  return last_error.c_str();
}

const char* gnnpart_version(void) {
  return gnnpart::api::version();
}

} // extern "C"
