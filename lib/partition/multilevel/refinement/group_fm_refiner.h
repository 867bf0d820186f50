#pragma once
// Block-group parallel k-way FM: one FM pass on several threads without synchronisation inside
// a group. The blocks are cut into leaves, groups of consecutive ids (G a power of two, up to four
// per thread, or two groups split where their work is about even, the heavier perhaps split once
// more), and neighbouring groups merge in pairs up to the root, a tree. Each group runs the
// sequential localized searches (fm_search.h) from its seeds on its own vertices (those in its
// blocks), moving them only between its own blocks; the threads take the leaves one after
// another, the heavier half of each group first, and a merged group runs as soon as both its
// halves have, on the thread that ran the later one (beside the groups still running elsewhere).
// Seeds whose best move leaves their group wait for the group above. Groups that run at the same
// time write disjoint vertices, block weights and gain cache rows, and a move's gain reads only
// the rows of the group's vertices at the group's blocks, so it is exact. A move's updates to the
// rows of other groups' vertices (at the move's two blocks, which those vertices' own moves never
// read) are logged and applied when the group that holds both vertices starts, left half's log
// first. A merged group starts only from the seeds whose best move went into the other half's
// block (or waited); the root, run alone, allows every move. A pass starts with fewer groups
// (none: sequential FM) while the share of such seeds is above 15%, and with two groups split at
// another block when the estimated time is lower.
//
// Why ranges of ids: the initial partition is a recursive bisection, whose first bisection gives
// blocks [0, k/2) and [k/2, k), and so on; refinement moves boundaries only locally, so a range
// of consecutive ids stays a region and few cut edges join two ranges (halves: 1.2% of the cut
// edges on cnr-2000, 3.7% on uk-2007-05-100k at k = 128; 8.5% on cnr-2000 at k = 8; docs/
// scaling.md). Were it not so, the result would still be exact, with more of the work in the
// later phases.
//
// Deterministic: a group's searches depend on its seeds and its own vertices' rows only (a
// worker's search state is reset between searches), which no group outside it touches before it
// has run, and the logs are applied in the tree's order, so the result depends on the seed and
// the thread count (through the groups), never on the schedule.
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

// The groups of a phase as the first block of each (and k at the end): group g holds blocks
// [starts[g], starts[g + 1]).
using GroupStarts = std::vector<BlockID>;

// A pass's groups: the first phase's groups of consecutive block ids (`starts`), merged in
// pairs of neighbours, and where `inner` != 0 (only with two groups) the group holding block
// `inner` split there into two leaves, which merge into it before it merges with the other.
struct GroupPlan {
  GroupStarts starts;
  BlockID inner = 0;
};

// One pass from `boundary` (the pass's shuffled boundary vertices) on p and its current gain
// cache, which it keeps current. `locked` (n entries) must be all zero; it holds the kept
// moves' vertices afterwards. Returns the cut improvement. With max_leaving_share >= 1 the
// first phase always has first_group_count(k, threads) groups, and with `plan` it has those
// groups (tests).
Weight group_fm_pass(PartitionedGraph& p, const BlockLimits& limits, const RefinementContext& ctx,
                     GainCache& cache, std::span<const NodeID> boundary,
                     std::vector<std::uint8_t>& locked, int threads,
                     double max_leaving_share = kMaxLeavingShare, const GroupPlan* plan = nullptr);

// Of a sample of `boundary` (its first 4096 vertices; shuffled, so a random sample), the
// share whose best move leaves their group of `groups`.
double leaving_share(const PartitionedGraph& p, const GainCache& cache,
                     std::span<const NodeID> boundary, int groups);

// `groups` ranges of consecutive ids, as even as k allows (block b in group b * groups / k).
GroupStarts aligned_starts(BlockID k, int groups);

// A pass's first groups: the most aligned ranges (first_group_count(k, threads) groups, or fewer
// by powers of two) whose share of seeds leaving their group is at most max_leaving_share, unless
// two groups split at another block promise less time (the busier thread's share of the seeds'
// degrees plus the share of seeds leaving their group, at most 0.8); {0, k}: none. With two
// groups, the heavier one split once more where at most max_leaving_share of the seeds cross
// the split and inner_split_time (plus the share leaving the two groups) is below 0.9 of the
// two groups' estimate, both with the seeds' gain-cache row sizes as their work. With
// max_leaving_share >= 1, first_group_count's aligned ranges.
GroupPlan first_phase_groups(const PartitionedGraph& p, const GainCache& cache,
                             std::span<const NodeID> boundary, int threads,
                             double max_leaving_share);

// The estimated time of two groups whose heavier one is split into leaves of work a and b (the
// light group: `light`; shares of the pass's work) when `crossing` (the work of the seeds that
// wait for the heavy group, a share too) is searched again by the heavy group after its leaves: on
// two threads the leaves run side by side, then the heavy group on one thread while the light group
// runs on the other; on three or more the light group runs beside both.
double inner_split_time(double a, double b, double light, double crossing, int threads);

// G for `threads` threads and k blocks: the largest power of two up to 4 * threads that leaves
// every group at least two blocks (1: no groups). A pass starts with fewer groups while more
// than 15% of its seeds' best moves would leave their group (group_fm_refiner.cc).
int first_group_count(BlockID k, int threads);

} // namespace gnnpart::ml
