#pragma once
// Conversion of the public API's borrowed views into the library's CsrGraph, with the input
// checks an embedding caller needs (sizes, id ranges, weights, symmetry), and the translation
// of library exceptions into gnnpart::api::Error.
#include <new>
#include <utility>

#include "core/errors.h"
#include "core/graph.h"
#include "core/metrics.h"
#include "gnnpart/gnnpart.hpp"

namespace gnnpart::api::detail {

// Copies and checks a CSR view: offsets[0] = 0, non-decreasing, offsets[n] = |adjacency|, ids
// in [0, n), edge weights > 0, vertex weights >= 0, sizes of the weight arrays, symmetry.
// Self loops are dropped. Throws InvalidParameter naming the first offending entry.
CsrGraph to_graph(const CsrView& view);
// Symmetrized, deduplicated graph of an edge view (self loops dropped).
CsrGraph to_graph(const EdgeView& view);

// The block ids of a partition, checked against n and k.
Partition to_partition(IndexArray blocks, BlockID k, NodeID n);

Metrics to_metrics(const GraphMetrics& metrics);

// Runs f, turning library exceptions into api::Error with a matching code.
template <typename F> decltype(auto) translate_errors(F&& f) {
  try {
    return std::forward<F>(f)();
  } catch (const api::Error&) {
    throw;
  } catch (const InfeasibleBalance& e) {
    throw api::Error(Error::Code::kInfeasible, e.what());
  } catch (const InvalidParameter& e) {
    throw api::Error(Error::Code::kInput, e.what());
  } catch (const InputError& e) {
    throw api::Error(Error::Code::kInput, e.what());
  } catch (const Unsupported& e) {
    throw api::Error(Error::Code::kUnsupported, e.what());
  } catch (const SystemError& e) {
    throw api::Error(Error::Code::kSystem, e.what());
  } catch (const std::bad_alloc&) {
    throw api::Error(Error::Code::kMemory, "out of memory");
  } catch (const std::exception& e) {
    throw api::Error(Error::Code::kInternal, e.what());
  }
}

} // namespace gnnpart::api::detail
