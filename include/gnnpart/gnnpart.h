/* gnnpart C API: k-way partitioning of a CSR graph, shaped like METIS_PartGraphKway but with
 * const inputs, explicit integer widths, status codes and a thread-local error message.
 * No function exits, aborts or prints; none keeps global state, so concurrent calls from
 * several threads are safe. Work runs in a task arena of options->threads workers.
 *
 *   gnnpart_options opt = gnnpart_default_options();
 *   opt.model = GNNPART_MODEL_HYPERGRAPH;            // exact GCN communication volume
 *   int64_t volume;
 *   if (gnnpart_part_graph_kway(n, 1, xadj, adjncy, NULL, NULL, 8, NULL, &opt, &volume, part)
 *       != GNNPART_OK)
 *     fprintf(stderr, "gnnpart: %s\n", gnnpart_last_error());
 */
#ifndef GNNPART_GNNPART_H
#define GNNPART_GNNPART_H

#include <stdint.h>

#include "gnnpart_defaults.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes. */
#define GNNPART_OK 0
#define GNNPART_ERROR_INPUT 1       /* malformed graph or parameter out of range */
#define GNNPART_ERROR_MEMORY 2      /* allocation failed */
#define GNNPART_ERROR_INFEASIBLE 3  /* the balance bound cannot be met */
#define GNNPART_ERROR_UNSUPPORTED 4 /* asked for something this build cannot do */
#define GNNPART_ERROR_SYSTEM 5      /* the operating system refused (I/O) */
#define GNNPART_ERROR_INTERNAL 6    /* a bug: please report the message */

/* Models, algorithms, objectives, presets, flow settings and every default:
 * gnnpart_defaults.h, shared with the C++ API, the CLI and the Python module. */

/* Options; start from gnnpart_default_options() (or pass NULL for the defaults). */
typedef struct gnnpart_options {
  int32_t model;        /* GNNPART_MODEL_*, default GNNPART_DEFAULT_MODEL (graph) */
  int32_t algorithm;    /* GNNPART_ALGORITHM_* */
  int32_t objective;    /* GNNPART_OBJECTIVE_* */
  int32_t preset;       /* GNNPART_PRESET_* */
  double epsilon;       /* allowed imbalance when ubvec is NULL, default 0.03 */
  uint64_t seed;        /* default 0 */
  int32_t threads;      /* task arena size; <= 0: all hardware threads (the default) */
  uint32_t batch_size;  /* stochastic model: vertices per sampled mini-batch (1024) */
  uint32_t num_batches; /* stochastic model: sampled mini-batches (32) */
  int32_t flows;        /* GNNPART_FLOWS_*, default GNNPART_FLOWS_PRESET */
  int32_t vertex_weights; /* hypergraph models: GNNPART_VERTEX_WEIGHTS_*, default: vwgt when
                             given, else unit */
} gnnpart_options;

gnnpart_options gnnpart_default_options(void);

/* Partitions the graph with nvtxs vertices in CSR form (xadj: nvtxs + 1 offsets, adjncy:
 * xadj[nvtxs] neighbours, every edge stored in both directions with equal weights; self loops
 * are ignored) into nparts blocks; part receives nvtxs block ids.
 *   vwgt:    nvtxs * ncon vertex weights (>= 0), NULL = unit weights (ncon must be 1)
 *   adjwgt:  edge weights (> 0) per adjncy entry, NULL = unit weights
 *   ubvec:   ncon allowed load factors (1 + epsilon_c, each >= 1); the strictest is applied to
 *            every constraint. NULL = 1 + options->epsilon.
 *   options: NULL = gnnpart_default_options()
 *   objval:  may be NULL; receives the objective value (edge cut, volume or km1 of the model;
 *            max-volume: the largest per-block send + receive volume)
 * Returns GNNPART_OK or an error code; gnnpart_last_error() then says why. On error part is
 * left untouched. */
int gnnpart_part_graph_kway(int64_t nvtxs, int32_t ncon, const int64_t* xadj, const int64_t* adjncy,
                            const int64_t* vwgt, const int64_t* adjwgt, int32_t nparts,
                            const double* ubvec, const gnnpart_options* options, int64_t* objval,
                            int32_t* part);

/* The same with 32-bit arrays (as METIS's default idx_t). */
int gnnpart_part_graph_kway32(int32_t nvtxs, int32_t ncon, const int32_t* xadj,
                              const int32_t* adjncy, const int32_t* vwgt, const int32_t* adjwgt,
                              int32_t nparts, const double* ubvec, const gnnpart_options* options,
                              int64_t* objval, int32_t* part);

/* Metrics of a given partition (part: nvtxs ids in [0, nparts)). Any output may be NULL. */
int gnnpart_evaluate(int64_t nvtxs, const int64_t* xadj, const int64_t* adjncy,
                     const int64_t* adjwgt, int32_t nparts, const int32_t* part, int64_t* edge_cut,
                     int64_t* comm_volume, double* imbalance);

/* The message of the last failed call on this thread ("" when none). Valid until the next
 * gnnpart call on the same thread. */
const char* gnnpart_last_error(void);

/* "MAJOR.MINOR.PATCH" */
const char* gnnpart_version(void);

#ifdef __cplusplus
}
#endif

#endif /* GNNPART_GNNPART_H */
