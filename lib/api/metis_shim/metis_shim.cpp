// METIS_PartGraphKway / METIS_SetDefaultOptions served by gnnpart
// (include/gnnpart/gnnpart_metis.h). Built as its own library (gnnpart_metis, not part of
// gnnpart_api's *.cc glob), so existing METIS callers relink against gnnpart without code changes.
#include <cstdint>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

#include "gnnpart/gnnpart.h"
#include "gnnpart/gnnpart_metis.h"

static_assert(sizeof(idx_t) == sizeof(std::int32_t), "the shim serves 32-bit idx_t");

namespace {

thread_local std::string shim_error;

int shim_fail(int status, const char* message) {
  try {
    shim_error = message;
  } catch (...) {
  }
  return status;
}

int metis_status(int gnnpart_status) {
  switch (gnnpart_status) {
  case GNNPART_OK:
    return METIS_OK;
  case GNNPART_ERROR_INPUT:
  case GNNPART_ERROR_INFEASIBLE:
  case GNNPART_ERROR_UNSUPPORTED:
    return METIS_ERROR_INPUT;
  case GNNPART_ERROR_MEMORY:
    return METIS_ERROR_MEMORY;
  default:
    return METIS_ERROR;
  }
}

idx_t option(const idx_t* options, int index) {
  return options == nullptr ? -1 : options[index];
}

int part_graph_kway(idx_t* nvtxs, idx_t* ncon, idx_t* xadj, idx_t* adjncy, idx_t* vwgt,
                    idx_t* adjwgt, idx_t* nparts, real_t* tpwgts, real_t* ubvec, idx_t* options,
                    idx_t* edgecut, idx_t* part) {
  shim_error.clear();
  if (nvtxs == nullptr || nparts == nullptr || xadj == nullptr || part == nullptr)
    return shim_fail(METIS_ERROR_INPUT, "nvtxs, nparts, xadj and part must not be NULL");
  const idx_t n = *nvtxs;
  const idx_t k = *nparts;
  const idx_t constraints = ncon == nullptr ? 1 : *ncon;
  if (n < 0 || k < 1 || constraints < 1)
    return shim_fail(METIS_ERROR_INPUT, "nvtxs >= 0, nparts >= 1 and ncon >= 1 are required");
  if (tpwgts != nullptr) {
    for (idx_t i = 0; i < k * constraints; ++i) {
      const double target = 1.0 / k;
      if (tpwgts[i] < target - 1e-4 || tpwgts[i] > target + 1e-4)
        return shim_fail(METIS_ERROR_INPUT, "gnnpart supports uniform target weights only");
    }
  }
  const idx_t numbering = option(options, METIS_OPTION_NUMBERING);
  if (numbering != -1 && numbering != 0 && numbering != 1)
    return shim_fail(METIS_ERROR_INPUT, "options[METIS_OPTION_NUMBERING] must be 0 or 1");
  const idx_t objtype = option(options, METIS_OPTION_OBJTYPE);
  if (objtype != -1 && objtype != METIS_OBJTYPE_CUT && objtype != METIS_OBJTYPE_VOL)
    return shim_fail(METIS_ERROR_INPUT, "options[METIS_OPTION_OBJTYPE] must be CUT or VOL");

  gnnpart_options o = gnnpart_default_options();
  o.model = GNNPART_MODEL_GRAPH;
  o.objective = objtype == METIS_OBJTYPE_VOL ? GNNPART_OBJECTIVE_VOLUME : GNNPART_OBJECTIVE_CUT;
  const idx_t seed = option(options, METIS_OPTION_SEED);
  o.seed = seed < 0 ? 0 : static_cast<std::uint64_t>(seed);
  const idx_t ufactor = option(options, METIS_OPTION_UFACTOR);
  o.epsilon = ufactor < 0 ? GNNPART_DEFAULT_EPSILON : ufactor / 1000.0;
  std::vector<double> ub;
  if (ubvec != nullptr)
    ub.assign(ubvec, ubvec + constraints);

  // 1-based input: shifted copies (the caller's arrays are never modified).
  std::vector<idx_t> xadj0, adjncy0;
  const idx_t* x = xadj;
  const idx_t* a = adjncy;
  if (numbering == 1) {
    if (adjncy == nullptr && xadj[n] != 1)
      return shim_fail(METIS_ERROR_INPUT, "adjncy is NULL");
    xadj0.assign(xadj, xadj + n + 1);
    for (idx_t& v : xadj0)
      --v;
    if (xadj0[n] < 0)
      return shim_fail(METIS_ERROR_INPUT, "xadj[nvtxs] is below 1");
    adjncy0.assign(adjncy, adjncy + xadj0[n]);
    for (idx_t& v : adjncy0)
      --v;
    x = xadj0.data();
    a = adjncy0.data();
  }
  std::vector<std::int32_t> blocks(static_cast<std::size_t>(n));
  std::int64_t objval = 0;
  const int status =
      gnnpart_part_graph_kway32(n, constraints, x, a, vwgt, adjwgt, k,
                                ub.empty() ? nullptr : ub.data(), &o, &objval, blocks.data());
  if (status != GNNPART_OK)
    return shim_fail(metis_status(status), gnnpart_last_error());
  for (idx_t u = 0; u < n; ++u)
    part[u] = blocks[u] + (numbering == 1 ? 1 : 0);
  if (edgecut != nullptr)
    *edgecut = static_cast<idx_t>(objval);
  return METIS_OK;
}

} // namespace

extern "C" {

int METIS_PartGraphKway(idx_t* nvtxs, idx_t* ncon, idx_t* xadj, idx_t* adjncy, idx_t* vwgt,
                        idx_t* vsize, idx_t* adjwgt, idx_t* nparts, real_t* tpwgts, real_t* ubvec,
                        idx_t* options, idx_t* edgecut, idx_t* part) {
  try {
    return part_graph_kway(nvtxs, ncon, xadj, adjncy, vwgt, adjwgt, nparts, tpwgts, ubvec, options,
                           edgecut, part);
  } catch (const std::bad_alloc&) {
    return shim_fail(METIS_ERROR_MEMORY, "out of memory");
  } catch (...) {
    return shim_fail(METIS_ERROR, "unexpected failure");
  }
}

int METIS_SetDefaultOptions(idx_t* options) {
  if (options == nullptr)
    return METIS_ERROR_INPUT;
  for (int i = 0; i < METIS_NOPTIONS; ++i)
    options[i] = -1;
  return METIS_OK;
}

const char* gnnpart_metis_last_error(void) {
  return shim_error.c_str();
}

} // extern "C"
