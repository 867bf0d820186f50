#pragma once
// Block-group parallel k-way FM: one FM pass on several threads without synchronisation inside
// a phase. The blocks are cut into G groups of consecutive ids (G a power of two, up to four
// per thread, or two groups split where their work is about even). In a phase, each group runs
// the sequential localized searches (fm_search.h) from its seeds on its own vertices (those in
// its blocks), moving them only between its own blocks; the threads take the groups one after
// another, heaviest first. Seeds whose best move leaves their group wait for a later phase. The
// groups write disjoint vertices, block weights and gain cache rows, and a move's gain reads only
// the rows of the group's vertices at the group's blocks, so it is exact. A move's updates to the
// rows of other groups' vertices (at the move's two blocks, which those vertices' own moves never
// read) are logged and applied after the phase, group after group. The next phase halves the
// number of groups (pairs of neighbouring ranges) and starts only from the seeds whose best move
// went into another group's block (or waited); a last, sequential phase allows every move. A
// pass starts with fewer groups (none: sequential FM) while the share of such seeds is above
// 15%, and with two groups split at another block when the estimated time is lower.
//
// Why ranges of ids: the initial partition is a recursive bisection, whose first bisection gives
// blocks [0, k/2) and [k/2, k), and so on; refinement moves boundaries only locally, so a range
// of consecutive ids stays a region and few cut edges join two ranges (halves: 1.2% of the cut
// edges on cnr-2000, 3.7% on uk-2007-05-100k at k = 128; 8.5% on cnr-2000 at k = 8; docs/
// scaling.md). Were it not so, the result would still be exact, with more of the work in the
// later phases.
//
// Deterministic: a group's searches depend on its seeds and its own vertices only (a worker's
// search state is reset between searches), and the logs are applied in group order, so the
// result depends on the seed and the thread count (through G), never on the schedule.
#include <cstdint>
#include <span>
#include <vector>

#include "partition/multilevel/context.h"
#include "partition/multilevel/partitioned_graph.h"

namespace gnnpart::ml {

class GainCache;

// The most seeds, as a share, whose best move may leave their group for a pass to start with
// that many groups. The later phases search from those seeds again, so 2 threads take about
// 1/2 + share of sequential FM's time: at most 0.65x with 15%. Web graphs stay below it (halves:
// 1.2-1.7% on cnr-2000 and 3.5-4.0% on uk-2007-05-100k at k = 128, 10-16% and 12-21% at k = 8),
// social and citation graphs do not (dblp-2010: 27-41%, soc-brightkite: 39-51%): there blocks
// that are neighbours in the recursive bisection are no closer than any others.
inline constexpr double kMaxLeavingShare = 0.15;

// One pass from `boundary` (the pass's shuffled boundary vertices) on p and its current gain
// cache, which it keeps current. `locked` (n entries) must be all zero; it holds the kept
// moves' vertices afterwards. Returns the cut improvement. With max_leaving_share >= 1 the
// first phase always has first_group_count(k, threads) groups (tests).
Weight group_fm_pass(PartitionedGraph& p, const BlockLimits& limits, const RefinementContext& ctx,
                     GainCache& cache, std::span<const NodeID> boundary,
                     std::vector<std::uint8_t>& locked, int threads,
                     double max_leaving_share = kMaxLeavingShare);

// Of a sample of `boundary` (its first 4096 vertices; shuffled, so a random sample), the
// share whose best move leaves their group of `groups`.
double leaving_share(const PartitionedGraph& p, const GainCache& cache,
                     std::span<const NodeID> boundary, int groups);

// The groups of a phase as the first block of each (and k at the end): group g holds blocks
// [starts[g], starts[g + 1]).
using GroupStarts = std::vector<BlockID>;

// `groups` ranges of consecutive ids, as even as k allows (block b in group b * groups / k).
GroupStarts aligned_starts(BlockID k, int groups);

// A pass's first groups: the most aligned ranges (first_group_count(k, threads) groups, or fewer
// by powers of two) whose share of seeds leaving their group is at most max_leaving_share, unless
// two groups split at another block promise less time (the busier thread's share of the seeds'
// degrees plus the share of seeds leaving their group, at most 0.8); {0, k}: none. With
// max_leaving_share >= 1, first_group_count's aligned ranges.
GroupStarts first_phase_groups(const PartitionedGraph& p, const GainCache& cache,
                               std::span<const NodeID> boundary, int threads,
                               double max_leaving_share);

// G for `threads` threads and k blocks: the largest power of two up to 4 * threads that leaves
// every group at least two blocks (1: no groups). A pass starts with fewer groups while more
// than 15% of its seeds' best moves would leave their group (group_fm_refiner.cc).
int first_group_count(BlockID k, int threads);

} // namespace gnnpart::ml
