#pragma once
// Options of one distributed run, validated once at the entry point and passed down.
#include <cstdint>
#include <string>

#include "core/options.h"
#include "core/types.h"
#include "distributed/comm.h"

namespace gnnpart::distributed {

struct DistContext {
  PartitionOptions partition;    // k, epsilon, seed, objective, threads per rank
  NodeID coarse_per_block = 400; // coarsen until at most max(C * k, coarse_min) vertices
  NodeID coarse_min = 20000;     // (a replicated graph of this size is cheap on any rank)
  int cluster_rounds = 5;        // label propagation rounds per level
  int refine_rounds = 6;
  int batches = 8; // per round: ghost labels and weights synchronised after each
  int balance_rounds = 64;
  // Jet refinement after label propagation on every level (jet_refinement.h): at most
  // jet_rounds iterations, ending after jet_patience without a better partition (one better by
  // less than jet_min_improvement of the cut counts as none); moves losing less than
  // jet_negative_* times the vertex's connection to its own block are tried.
  int jet_rounds = 12;
  int jet_patience = 3;
  double jet_min_improvement = 0.001;
  double jet_negative_fine = 0.25;   // the finest level
  double jet_negative_coarse = 0.75; // coarser levels
  // Levels with fewer vertices per block skip Jet: its moves overload such small blocks and the
  // balancer then needs many rounds (pubmed, k = 4100, P = 2: 10.1 s instead of 3.0 s, the same
  // cut).
  NodeID jet_min_block_vertices = 100;
  // Coarse levels with at most gather_fraction * (2m / P) entries (2m / P: a rank's share of
  // the input's entries) are replicated and refined by the shared-memory engine's refiners
  // instead (gathered_refinement.h; 0: never).
  double gather_fraction = 0.25;
  // Items per round of the large exchanges (input edges, coarse edges) from all ranks
  // together: each rank sends chunks of chunk_items / P, one chunk's buffers held at a time
  // (text parsed in pieces of 16 bytes per item, binary read in blocks of that many records).
  // Results do not depend on it (--chunk-items, a test knob).
  std::uint64_t chunk_items = kDefaultChunkItems;
  // Balance bound of the coarsest partition; < 0: partition.epsilon. A looser one leaves blocks
  // over the bound for the refinement and the balancer (--initial-epsilon, a test knob).
  double initial_epsilon = -1;
  // Keep every coarse level while the shared-memory engine partitions the coarsest graph's
  // copy; false: write them to scratch files in temp_dir and read them back after (the same
  // graphs, less memory at the initial partitioning and around levels refined as copies;
  // --keep-levels).
  bool keep_levels = false;
  // Scratch directory (empty: $TMPDIR, else /tmp) for the finest graph's adjacency, which waits
  // on disk from its first clustering to its refinement unless keep_levels, and for the coarse
  // levels freed (--temp-dir; 4 B per local entry and 8 B per coarse entry of disk per rank).
  std::string temp_dir;
  // Rank 0 prints every level's size and the cut after each refinement stage to stderr
  // (--log-levels; costs a pass over the rows per stage).
  bool log_levels = false;
};

} // namespace gnnpart::distributed
