/* The one source of gnnpart's option values and defaults. The C API (gnnpart.h), the C++ API
 * (gnnpart.hpp), the library's own options (lib/core/options.h), the CLI's flags and the Python
 * module all take their enum values and defaults from here, so every front end partitions the
 * same way for the same settings. */
#ifndef GNNPART_GNNPART_DEFAULTS_H
#define GNNPART_GNNPART_DEFAULTS_H

/* Models: what the partitioner minimises. */
#define GNNPART_MODEL_GRAPH 0      /* edge cut (or volume) of the graph */
#define GNNPART_MODEL_HYPERGRAPH 1 /* column-net km1 = full-batch GCN communication volume */
#define GNNPART_MODEL_STOCHASTIC 2 /* expected mini-batch volume (sampled batches) */

#define GNNPART_ALGORITHM_MULTILEVEL 0
#define GNNPART_ALGORITHM_METIS 1 /* graph model only */

#define GNNPART_OBJECTIVE_DEFAULT 0 /* cut (graph model), km1 (hypergraph models) */
#define GNNPART_OBJECTIVE_CUT 1
#define GNNPART_OBJECTIVE_VOLUME 2
#define GNNPART_OBJECTIVE_KM1 3
#define GNNPART_OBJECTIVE_SOED 4
/* Column-net model (hypergraph model of a graph) only: the largest per-block send + receive
 * volume, total volume kept within 1.05x of the km1 partition's; and the epoch-time model's
 * slowest rank (needs a machine profile: CLI --cost). */
#define GNNPART_OBJECTIVE_MAX_VOLUME 5
#define GNNPART_OBJECTIVE_EPOCH 6

#define GNNPART_PRESET_FAST 0
#define GNNPART_PRESET_DEFAULT 1
#define GNNPART_PRESET_STRONG 2

/* Flow-based refinement of the hypergraph models (pairs of blocks, max-flow min-cut). */
#define GNNPART_FLOWS_PRESET 0 /* as the preset decides */
#define GNNPART_FLOWS_ON 1
#define GNNPART_FLOWS_OFF 2

/* Vertex weights the hypergraph models balance. DEFAULT: the input's own vertex weights when it
 * has any, else UNIT, so that blocks hold at most (1 + epsilon) times their share of vertices. */
#define GNNPART_VERTEX_WEIGHTS_DEFAULT 0
#define GNNPART_VERTEX_WEIGHTS_DEGREE 1 /* deg(u) + 1, the SpMM work of row u */
#define GNNPART_VERTEX_WEIGHTS_UNIT 2
#define GNNPART_VERTEX_WEIGHTS_GRAPH 3 /* the input's own weights */

/* Defaults. The graph model is the default: it is METIS's objective at about METIS's speed; the
 * hypergraph model sends about 15% fewer feature rows per layer at about three times the time
 * (README, docs/hypergraph.md). THREADS 0 means all hardware threads of the machine. */
#define GNNPART_DEFAULT_MODEL GNNPART_MODEL_GRAPH
#define GNNPART_DEFAULT_ALGORITHM GNNPART_ALGORITHM_MULTILEVEL
#define GNNPART_DEFAULT_OBJECTIVE GNNPART_OBJECTIVE_DEFAULT
#define GNNPART_DEFAULT_PRESET GNNPART_PRESET_DEFAULT
#define GNNPART_DEFAULT_FLOWS GNNPART_FLOWS_PRESET
#define GNNPART_DEFAULT_VERTEX_WEIGHTS GNNPART_VERTEX_WEIGHTS_DEFAULT
#define GNNPART_DEFAULT_EPSILON 0.03
#define GNNPART_DEFAULT_SEED 0
#define GNNPART_DEFAULT_THREADS 0
/* Passes of the streaming vertex partitioners. 0: the algorithm's own, 2 for buffered (its
   first pass splits every batch over all k blocks; one restreaming pass re-solves each batch
   with all its neighbours placed), 1 for LDG and Fennel (one pass is their point). */
#define GNNPART_DEFAULT_STREAM_PASSES 0
#define GNNPART_DEFAULT_BATCH_SIZE 1024 /* stochastic model: vertices per sampled mini-batch */
#define GNNPART_DEFAULT_NUM_BATCHES 32  /* stochastic model: sampled mini-batches */
#define GNNPART_DEFAULT_PREDICT_SAMPLES 100 /* fresh mini-batches an expectation averages */

#endif /* GNNPART_GNNPART_DEFAULTS_H */
