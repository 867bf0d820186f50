#include "hypergraph/bottleneck_refiner.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <optional>
#include <queue>
#include <vector>

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include "core/errors.h"
#include "core/random.h"
#include "hypergraph/block_volumes.h"
#include "hypergraph/km1_gain_cache.h"
#include "hypergraph/move_units.h"
#include "hypergraph/multilevel.h"
#include "hypergraph/multilevel_start.h"
#include "hypergraph/refinement.h"

namespace gnnpart::hg {

namespace {

// What a round does: lower the objective, restore the balance, or lower the total (max-volume)
// without raising the hot blocks.
enum class Mode : std::uint8_t { kImprove, kRebalance, kRegain };

struct Candidate {
  double gain = 0; // max-volume: excess volume removed; epoch: seconds saved; regain: km1 saved
  Weight km1 = 0;  // change of the total volume
  NodeID u = kInvalidNodeID; // the unit (a vertex on the input level)
  BlockID to = 0;
  bool valid() const { return u != kInvalidNodeID; }
};

// A strict total order: larger gain, then smaller km1 increase, then smaller ids.
bool better(const Candidate& a, const Candidate& b) {
  if (a.gain != b.gain)
    return a.gain > b.gain;
  if (a.km1 != b.km1)
    return a.km1 < b.km1;
  if (a.u != b.u)
    return a.u < b.u;
  return a.to < b.to;
}

struct Scratch {
  MoveDelta delta;
  VolumeChange volume; // max-volume pricing
  AllTargets all;
  std::vector<UnitNet> unit_nets;
  BlockVolumes::TrafficScratch traffic;
  std::vector<BlockID> targets;
  std::vector<NetID> nets;
  std::uint64_t work = 0; // max-volume: nets priced (the refiner's unit of work)
};

class BottleneckSearch {
public:
  BottleneckSearch(PartitionedHypergraph& phg, std::span<const NodeID> owners, const HgContext& ctx,
                   std::span<const Weight> max_weights, const EpochInput* epoch,
                   Weight reference_total)
      : phg_(phg), ctx_(ctx.bottleneck), max_weights_(max_weights), epoch_(epoch), owners_(owners),
        volumes_(phg, owners), hot_(phg.k(), 0), relaxed_(max_weights.begin(), max_weights.end()) {
    for (Weight& w : relaxed_)
      w += static_cast<Weight>(std::ceil(ctx_.relaxed_slack * static_cast<double>(w)));
    const Weight reference = reference_total > 0 ? reference_total : volumes_.total();
    const double budget = ctx_.total_budget * static_cast<double>(reference);
    budget_ = std::max(reference, static_cast<Weight>(std::floor(budget)));
    start_total_ = std::min(reference, volumes_.total());
    // Moves are priced without the ranks' speed spread: its expected slowest rank (erfc and exp
    // per rank and segment) took 6.8x the CPU of a run on cora, k = 8 (0.16 -> 1.09 s).
    if (epoch_ != nullptr && epoch_->profile.rank_spread > 0) {
      steady_ = *epoch_;
      steady_->profile.rank_spread = 0;
      epoch_ = &*steady_;
    }
  }

  // Rounds on every level of `levels` (coarsest first), then on single vertices.
  BottleneckStats run(std::span<const MoveUnits> levels) {
    BottleneckStats stats;
    const std::uint64_t start_work = work_;
    stats.start_max_volume = volumes_.max_volume();
    stats.start_total = volumes_.total();
    if (epoch_ != nullptr)
      stats.start_epoch_seconds = epoch_now_ = predict();
    // Max-volume: each level may price work_budget / (levels + 1) times the input's pins.
    level_work_ = ~std::uint64_t{0};
    if (ctx_.work_budget > 0)
      level_work_ = static_cast<std::uint64_t>(ctx_.work_budget *
                                               static_cast<double>(phg_.hypergraph().num_pins()) /
                                               static_cast<double>(levels.size() + 1));
    for (std::size_t level = 0; level <= levels.size(); ++level) {
      units_ = level < levels.size() ? &levels[level] : nullptr;
      if (epoch_ == nullptr)
        cache_level_nets();
      run_level(stats);
    }
    stats.max_volume = volumes_.max_volume();
    stats.total = volumes_.total();
    stats.send.resize(phg_.k());
    stats.recv.resize(phg_.k());
    for (BlockID b = 0; b < phg_.k(); ++b) {
      stats.send[b] = volumes_.send(b);
      stats.recv[b] = volumes_.recv(b);
    }
    stats.work = work_ - start_work;
    if (epoch_ != nullptr)
      stats.epoch_seconds = predict();
    return stats;
  }

private:
  NodeID num_units() const { return units_ != nullptr ? units_->size() : phg_.num_nodes(); }
  // The vertices of unit u (`u` must outlive the span: on the input level it is the unit).
  std::span<const NodeID> members(const NodeID& u) const {
    return units_ != nullptr ? units_->unit(u) : std::span<const NodeID>(&u, 1);
  }

  // Max-volume: the nets of every unit of this level (they do not change as units move).
  void cache_level_nets() {
    level_net_offsets_.assign(1, 0);
    level_nets_.clear();
    if (units_ == nullptr)
      return;
    std::vector<NetID> scratch;
    std::vector<UnitNet> nets;
    for (NodeID u = 0; u < units_->size(); ++u) {
      volumes_.unit_nets(phg_.hypergraph(), units_->unit(u), scratch, nets);
      level_nets_.insert(level_nets_.end(), nets.begin(), nets.end());
      level_net_offsets_.push_back(level_nets_.size());
    }
  }

  void run_level(BottleneckStats& stats) {
    std::vector<char> moved(num_units(), 0);
    std::vector<BlockID> saved;
    double best = objective_now();
    int stalled = 0;
    const std::uint64_t start_work = work_;
    for (int round = 0;
         round < ctx_.max_rounds && work_ - start_work < level_work_ && start_round(); ++round) {
      ++stats.rounds;
      // First with blocks allowed over their limit by relaxed_slack, then rebalanced; kept if
      // balanced and better, else the round again within the limits.
      saved.assign(phg_.blocks().begin(), phg_.blocks().end());
      const double before = round_objective();
      limits_ = relaxed_;
      std::uint64_t taken = run_round(moved);
      if (!is_balanced(phg_, max_weights_)) {
        lightest_ = lightest_block();
        mode_ = Mode::kRebalance;
        taken += run_round(moved);
        mode_ = Mode::kImprove;
      }
      if (!is_balanced(phg_, max_weights_) || !(round_objective() < before)) {
        revert(saved);
        if (epoch_ != nullptr)
          epoch_now_ = predict();
        limits_ = max_weights_;
        taken = run_round(moved);
      }
      stats.moves += taken;
      // Max-volume with most of the budget spent: moves that lower the total, so that later
      // rounds can spend it again on the hot blocks.
      const double headroom = static_cast<double>(budget_ - start_total_);
      if (epoch_ == nullptr && taken != 0 &&
          static_cast<double>(volumes_.total() - start_total_) > ctx_.regain_fraction * headroom &&
          start_round()) {
        limits_ = max_weights_;
        mode_ = Mode::kRegain;
        stats.moves += run_round(moved);
        mode_ = Mode::kImprove;
      }
      // Stop when nothing moved, or the largest volume (epoch) has not dropped for a while.
      const double now = objective_now();
      stalled = now < best ? 0 : stalled + 1;
      best = std::min(best, now);
      if (taken == 0 || stalled >= ctx_.max_stalled_rounds)
        break;
    }
  }

  // Back to `saved`, the blocks before the round, vertex by vertex (O(the moved vertices'
  // pins) instead of rebuilding the partition and the volumes).
  void revert(std::span<const BlockID> saved) {
    MoveDelta d;
    for (NodeID v = 0; v < phg_.num_nodes(); ++v) {
      if (phg_.block(v) == saved[v])
        continue;
      volumes_.delta(phg_, v, saved[v], d);
      volumes_.apply(d);
      phg_.move(v, saved[v], Objective::kKm1);
    }
  }

  double objective_now() const {
    return epoch_ != nullptr ? epoch_now_ : static_cast<double>(volumes_.max_volume());
  }

  double predict() const {
    return cost::predict_epoch(volumes_.traffic(), epoch_->shape, epoch_->profile).epoch_seconds;
  }

  // Names the hot blocks and the round's target; false when there is nothing to lower.
  bool start_round() {
    const BlockID k = phg_.k();
    std::fill(hot_.begin(), hot_.end(), 0);
    if (epoch_ == nullptr) {
      cap_ = volumes_.max_volume();
      if (cap_ == 0)
        return false;
      target_ = std::min(cap_ - 1, static_cast<Weight>(std::floor((1 - ctx_.target_step) * cap_)));
      average_ = 2 * volumes_.total() / k;
      // The price of a unit of total volume: total_price times the share of the budget's
      // headroom spent so far (all of it when there is none).
      const double room = static_cast<double>(budget_ - start_total_);
      const double spent = static_cast<double>(volumes_.total() - start_total_);
      total_price_ = ctx_.total_price * (room > 0 ? std::clamp(spent / room, 0.0, 1.0) : 1.0);
      for (BlockID b = 0; b < k; ++b)
        hot_[b] = volumes_.volume(b) > target_;
      mark_relevant();
      return true;
    }
    const cost::EpochPrediction p =
        cost::predict_epoch(volumes_.traffic(), epoch_->shape, epoch_->profile);
    epoch_now_ = p.epoch_seconds;
    double busiest = 0;
    for (const cost::RankTime& r : p.ranks)
      busiest = std::max(busiest, r.compute + r.exposed_comm);
    for (BlockID b = 0; b < k; ++b)
      hot_[b] =
          p.ranks[b].compute + p.ranks[b].exposed_comm >= (1 - ctx_.epoch_hot_fraction) * busiest;
    return busiest > 0;
  }

  // Max-volume: marks the vertices whose move can lower a hot block's volume, the others only
  // raise it or leave it. A hot block B's receive volume drops only when pins leave B; its send
  // volume only when a net B owns loses a block or changes hands, that is when one of that
  // net's pins moves. So: the vertices of B and the pins of the nets B owns (B's neighbours, in
  // the column-net model), instead of every vertex whose nets touch B (two hops).
  void mark_relevant() {
    const Hypergraph& hg = phg_.hypergraph();
    relevant_.assign(hg.num_nodes(), 0);
    for (NodeID u = 0; u < hg.num_nodes(); ++u)
      relevant_[u] = hot_[phg_.block(u)];
    for (NetID e = 0; e < hg.num_nets(); ++e)
      if (hot_[phg_.block(owners_[e])] != 0)
        for (const NodeID p : hg.pins(e))
          relevant_[p] = 1;
  }

  BlockID lightest_block() const {
    BlockID best = 0;
    for (BlockID b = 1; b < phg_.k(); ++b)
      if (phg_.block_weight(b) < phg_.block_weight(best))
        best = b;
    return best;
  }

  // What a round lowers: max-volume: the summed excess over the target; epoch: the epoch;
  // regain: the total.
  double round_objective() const {
    if (mode_ == Mode::kRegain)
      return static_cast<double>(volumes_.total());
    if (epoch_ != nullptr)
      return epoch_now_;
    Weight sum = 0;
    Weight spread = 0;
    for (BlockID b = 0; b < phg_.k(); ++b) {
      sum += excess(volumes_.volume(b));
      spread += above_average(volumes_.volume(b));
    }
    return score(sum, spread, volumes_.total());
  }

  // Excess of a block's volume over the round's target.
  Weight excess(Weight volume) const { return std::max<Weight>(0, volume - target_); }
  // A block's volume above the round's average block volume (2 total / k).
  Weight above_average(Weight volume) const { return std::max<Weight>(0, volume - average_); }
  // Max-volume's round objective, or a move's gain from the changes of its three terms: the
  // excess over the target, plus spread_weight times the volume above the average (so that the
  // next blocks do not become the bottleneck at once), plus the total at its price.
  double score(Weight excess_sum, Weight spread, Weight total) const {
    return static_cast<double>(excess_sum) + ctx_.spread_weight * static_cast<double>(spread) +
           total_price_ * static_cast<double>(total);
  }

  bool fits(std::span<const NodeID> group, BlockID to, std::span<const Weight> limits) const {
    if (group.size() == 1)
      return phg_.fits(group.front(), to, limits);
    const Hypergraph& hg = phg_.hypergraph();
    for (int c = 0; c < phg_.ncon(); ++c) {
      Weight w = phg_.block_weight(to, c);
      for (const NodeID v : group)
        w += hg.vertex_weight(v, c);
      if (w > limits[static_cast<std::size_t>(to) * phg_.ncon() + c])
        return false;
    }
    return true;
  }

  // Prices moving `group` to `to` into s.delta; a group of several needs s.nets =
  // group_nets(group).
  void delta(std::span<const NodeID> group, BlockID to, Scratch& s) const {
    if (group.size() == 1)
      volumes_.delta(phg_, group.front(), to, s.delta);
    else
      volumes_.delta(phg_, group, s.nets, to, s.delta);
  }

  // Whether unit u may move to `to` (weight limits) and leave its block non-empty.
  bool allowed(std::span<const NodeID> group, BlockID from, BlockID to) const {
    return fits(group, to, mode_ == Mode::kImprove ? limits_ : max_weights_) &&
           volumes_.rows(from) > static_cast<std::int64_t>(group.size());
  }

  // Max-volume: the gain of moving unit u to `to` with volume change v, or an invalid candidate
  // if the move is not allowed (budget, a block above the round's maximum or, when regaining,
  // above its target).
  Candidate volume_candidate(NodeID u, BlockID to, const VolumeChange& v) const {
    if (volumes_.total() + v.total > budget_)
      return {};
    Candidate c{0, v.total, u, to};
    Weight gain = 0;
    Weight spread = 0;
    for (const BlockID b : v.blocks) {
      const Weight before = volumes_.volume(b);
      const Weight after = before + v.by_block[b];
      if (after > before && (after > cap_ || (mode_ == Mode::kRegain && after > target_)))
        return {};
      gain += excess(before) - excess(after);
      spread += above_average(before) - above_average(after);
    }
    if (mode_ == Mode::kRegain) {
      c.gain = static_cast<double>(-v.total);
      return gain >= 0 && c.gain > 0 ? c : Candidate{};
    }
    c.gain = score(gain, spread, -v.total);
    if (c.gain <= 0 && mode_ == Mode::kImprove && ctx_.max_moves_without_improvement == 0)
      return {};
    return c;
  }

  // Epoch: the gain of moving unit u to `to` now, or an invalid candidate if the move is not
  // allowed.
  Candidate epoch_price(NodeID u, BlockID to, Scratch& s) const {
    const std::span<const NodeID> group = members(u);
    if (!allowed(group, phg_.block(group.front()), to))
      return {};
    delta(group, to, s);
    if (volumes_.total() + s.delta.total > budget_)
      return {};
    Candidate c{0, s.delta.total, u, to};
    const auto& traffic = volumes_.traffic_after(s.delta, s.traffic);
    c.gain =
        epoch_now_ - cost::predict_epoch(traffic, epoch_->shape, epoch_->profile).epoch_seconds;
    if (!(c.gain > kRelativeTolerance * epoch_now_) && mode_ == Mode::kImprove &&
        ctx_.max_moves_without_improvement == 0)
      return {};
    return c;
  }

  // Max-volume: unit u's best move, every target priced in one pass over its nets.
  Candidate best_volume_move(NodeID u, std::span<const NodeID> group, BlockID from,
                             Scratch& s) const {
    if (mode_ == Mode::kImprove &&
        std::none_of(group.begin(), group.end(), [&](NodeID v) { return relevant_[v] != 0; }))
      return {};
    if (volumes_.rows(from) <= static_cast<std::int64_t>(group.size()))
      return {};
    std::span<const UnitNet> nets;
    if (units_ != nullptr) {
      nets = std::span<const UnitNet>(level_nets_)
                 .subspan(level_net_offsets_[u], level_net_offsets_[u + 1] - level_net_offsets_[u]);
    } else {
      volumes_.unit_nets(phg_.hypergraph(), u, s.unit_nets);
      nets = s.unit_nets;
    }
    s.work += nets.size();
    // Regaining needs a lower total: some net must leave `from` (else the total cannot drop).
    if (mode_ == Mode::kRegain && std::none_of(nets.begin(), nets.end(), [&](const UnitNet& n) {
          return phg_.pin_count(n.net, from) == n.moving;
        }))
      return {};
    volumes_.price_all_targets(phg_, nets, from, s.all);
    Candidate best;
    auto consider = [&](BlockID to) {
      if (to == from || !allowed(group, from, to))
        return;
      BlockVolumes::volume_change_to(s.all, to, s.volume);
      const Candidate c = volume_candidate(u, to, s.volume);
      if (c.valid() && (!best.valid() || better(c, best)))
        best = c;
    };
    for (const BlockID to : s.all.targets)
      consider(to);
    if (mode_ == Mode::kRebalance && s.all.is_target[lightest_] == 0)
      consider(lightest_);
    return best;
  }

  // Unit u's best move, if it is on the boundary, not too large to price, and a net of it
  // touches a hot block (any block when regaining). When rebalancing: u's least harmful move
  // out of an overloaded block, to a block its nets touch or the lightest one.
  Candidate best_move(NodeID u, Scratch& s) const {
    const Hypergraph& hg = phg_.hypergraph();
    const std::span<const NodeID> group = members(u);
    std::uint64_t degree = 0;
    for (const NodeID v : group)
      degree += hg.node_degree(v);
    if (degree > ctx_.max_vertex_degree)
      return {};
    const BlockID from = phg_.block(group.front());
    if (mode_ == Mode::kRebalance && !phg_.overloaded(from, max_weights_))
      return {};
    if (epoch_ == nullptr)
      return best_volume_move(u, group, from, s);
    if (mode_ == Mode::kRebalance)
      s.targets.assign(1, lightest_); // besides the blocks u's nets touch
    else
      s.targets.clear();
    bool touches_hot = hot_[from] != 0 || mode_ != Mode::kImprove;
    for (const NodeID v : group)
      for (const NetID e : hg.incident_nets(v))
        phg_.for_each_block(e, [&](BlockID x) {
          touches_hot |= hot_[x] != 0;
          if (x != from)
            s.targets.push_back(x);
        });
    if (!touches_hot || s.targets.empty())
      return {};
    if (group.size() > 1)
      BlockVolumes::group_nets(hg, group, s.nets);
    std::sort(s.targets.begin(), s.targets.end());
    s.targets.erase(std::unique(s.targets.begin(), s.targets.end()), s.targets.end());
    Candidate best;
    for (const BlockID to : s.targets) {
      if (to == from)
        continue;
      const Candidate c = epoch_price(u, to, s);
      if (c.valid() && (!best.valid() || better(c, best)))
        best = c;
    }
    return best;
  }

  // Prices every unit (parallel), then takes moves best first, each re-priced before it is
  // taken. Returns the moves taken.
  std::uint64_t run_round(std::vector<char>& moved) {
    tbb::enumerable_thread_specific<Scratch> scratch;
    tbb::enumerable_thread_specific<std::vector<Candidate>> found;
    tbb::parallel_for(tbb::blocked_range<NodeID>(0, num_units(), 1024), [&](const auto& r) {
      Scratch& s = scratch.local();
      std::vector<Candidate>& mine = found.local();
      for (NodeID u = r.begin(); u != r.end(); ++u) {
        const Candidate c = best_move(u, s);
        if (c.valid())
          mine.push_back(c);
      }
    });
    for (const Scratch& part : scratch)
      work_ += part.work;
    std::vector<Candidate> candidates;
    for (const auto& part : found)
      candidates.insert(candidates.end(), part.begin(), part.end());
    // The heap's order depends only on the candidates, not on how threads found them.
    auto worse = [](const Candidate& a, const Candidate& b) { return better(b, a); };
    std::sort(candidates.begin(), candidates.end(), better);
    std::priority_queue<Candidate, std::vector<Candidate>, decltype(worse)> queue(
        worse, std::move(candidates));
    Scratch s;
    std::fill(moved.begin(), moved.end(), 0);
    // Improving rounds take the best move even when it does not pay (FM), and return to the
    // best state seen: lowest round objective, then lowest total.
    std::vector<std::pair<NodeID, BlockID>> log; // (unit, block it left)
    double best_objective = round_objective();
    Weight best_total = volumes_.total();
    std::size_t best_length = 0;
    while (!queue.empty()) {
      const NodeID u = queue.top().u;
      queue.pop();
      if (moved[u])
        continue;
      const Candidate now = best_move(u, s);
      if (!now.valid())
        continue;
      if (!queue.empty() && better(queue.top(), now)) {
        queue.push(now);
        continue;
      }
      log.emplace_back(u, phg_.block(members(u).front()));
      take(u, now.to, s);
      moved[u] = 1;
      if (mode_ == Mode::kRebalance)
        continue;
      const double objective = round_objective();
      if (objective < best_objective ||
          (objective == best_objective && volumes_.total() < best_total)) {
        best_objective = objective;
        best_total = volumes_.total();
        best_length = log.size();
      } else if (log.size() - best_length > ctx_.max_moves_without_improvement) {
        break;
      }
    }
    work_ += s.work;
    if (mode_ == Mode::kRebalance)
      return log.size();
    while (log.size() > best_length) {
      take(log.back().first, log.back().second, s);
      log.pop_back();
    }
    return best_length;
  }

  void take(NodeID u, BlockID to, Scratch& s) {
    const std::span<const NodeID> group = members(u);
    if (group.size() > 1)
      BlockVolumes::group_nets(phg_.hypergraph(), group, s.nets);
    delta(group, to, s);
    volumes_.apply(s.delta);
    for (const NodeID v : group)
      phg_.move(v, to, Objective::kKm1);
    if (epoch_ != nullptr)
      epoch_now_ = predict();
  }

  static constexpr double kRelativeTolerance = 1e-12;

  PartitionedHypergraph& phg_;
  const BottleneckContext& ctx_;
  std::span<const Weight> max_weights_;
  const EpochInput* epoch_;
  std::optional<EpochInput> steady_; // the epoch input without a speed spread, when it had one
  std::span<const NodeID> owners_;
  BlockVolumes volumes_;
  const MoveUnits* units_ = nullptr;           // this level's units; null: single vertices
  std::vector<char> hot_;                      // per block, this round
  std::vector<char> relevant_;                 // max-volume: per vertex, this round (mark_relevant)
  std::vector<std::size_t> level_net_offsets_; // max-volume: unit u's nets are level_nets_[
  std::vector<UnitNet> level_nets_;            // offsets[u] .. offsets[u + 1]) on this level
  std::vector<Weight> relaxed_;                // max_weights plus relaxed_slack
  std::uint64_t work_ = 0;                     // max-volume: nets priced so far (Scratch::work)
  std::uint64_t level_work_ = 0; // the most a level may add to work_ (ctx.work_budget)

  std::span<const Weight> limits_; // what improving moves may fill blocks to
  Mode mode_ = Mode::kImprove;
  BlockID lightest_ = 0; // rebalancing: the fallback target of every move
  Weight budget_ = 0;    // the most total volume allowed
  Weight start_total_ = 0;
  Weight cap_ = 0;         // max-volume: no block may rise above this in the round
  Weight target_ = 0;      // max-volume: the round lowers every block to this
  double epoch_now_ = 0;   // epoch: the current prediction
  Weight average_ = 0;     // max-volume: the round's average block volume, 2 total / k
  double total_price_ = 0; // max-volume: the round's price of a unit of total volume
};

// Whether a run lowered its objective by at least min_gain of it, or (min_gain 0) kept it and
// lowered the total.
bool improved(const BottleneckStats& s, Objective objective, double min_gain) {
  const bool epoch = objective == Objective::kEpoch;
  const double start = epoch ? s.start_epoch_seconds : static_cast<double>(s.start_max_volume);
  const double end = epoch ? s.epoch_seconds : static_cast<double>(s.max_volume);
  if (min_gain > 0)
    return end <= (1 - min_gain) * start;
  return end < start || (end == start && s.total < s.start_total);
}

} // namespace

namespace {

// The refiner's V-cycles from phg (the budget: total_budget times reference_total, or phg's).
BottleneckStats refine_cycles(PartitionedHypergraph& phg, std::span<const NodeID> owners,
                              const HgContext& ctx, std::span<const Weight> max_weights,
                              const EpochInput* epoch, Weight reference_total) {
  BottleneckSearch search(phg, owners, ctx, max_weights,
                          ctx.objective == Objective::kEpoch ? epoch : nullptr, reference_total);
  BottleneckStats stats;
  for (int cycle = 0; cycle < std::max(1, ctx.bottleneck.cycles); ++cycle) {
    // Clusters inside the current blocks, from a fresh seed each cycle (the first cycle's is
    // the one-cycle refiner's).
    const std::vector<MoveUnits> levels =
        move_unit_levels(phg, ctx, max_weights, ctx.bottleneck.unit_levels,
                         derive_seed(ctx.seed, 0xB07, static_cast<std::uint64_t>(cycle)));
    const BottleneckStats s = search.run(levels);
    // Better: a lower maximum (epoch), or the same with a lower total, whose budget the next
    // cycle may spend again (wing, k = 8: a second cycle lowered only the total, the third the
    // maximum).
    const bool lowered = improved(s, ctx.objective, ctx.bottleneck.cycle_min_gain);
    if (cycle == 0) {
      stats = s;
    } else {
      stats.max_volume = s.max_volume;
      stats.total = s.total;
      stats.send = s.send;
      stats.recv = s.recv;
      stats.epoch_seconds = s.epoch_seconds;
      stats.moves += s.moves;
      stats.rounds += s.rounds;
      stats.work += s.work;
    }
    stats.cycles = cycle + 1;
    if (!lowered)
      break;
  }
  return stats;
}

// Whether a is a better result than b: a lower maximum (epoch), then a lower total.
bool better_result(const BottleneckStats& a, const BottleneckStats& b, Objective objective) {
  if (objective == Objective::kEpoch)
    return a.epoch_seconds < b.epoch_seconds;
  return a.max_volume < b.max_volume || (a.max_volume == b.max_volume && a.total < b.total);
}

// Max-volume restarts from phg's refined partition (its stats `stats`, `best` its blocks): a km1
// V-cycle of the engine from the last result lowers its total (the rounds' moves spent the
// budget on the hot blocks; a V-cycle's coarse levels find what they cannot), then the refiner
// runs again with the budget of reference_total, until one finds nothing better. A result counts
// only within the budget and balanced; `found`: whether `stats` and `best` hold such a result
// (then the best one). Counters (moves, rounds, cycles, work, restarts) add up.
void restart_chain(PartitionedHypergraph& phg, std::span<const NodeID> owners, const HgContext& ctx,
                   const BlockLimits& limits, const EpochInput* epoch, Weight reference_total,
                   BottleneckStats& stats, std::vector<BlockID>& best, bool& found) {
  HgContext km1 = ctx;
  km1.objective = Objective::kKm1;
  // As the km1 run's V-cycles from its graph start, the thin-separator rule read on this start.
  use_graph_start_flows(km1, phg.hypergraph(), phg.blocks());
  km1.timer = nullptr;
  Km1GainCache cache;
  const std::span<const Weight> max_weights = limits.max_weight;
  const Weight budget = static_cast<Weight>(
      std::floor(ctx.bottleneck.total_budget * static_cast<double>(reference_total)));
  for (int restart = 0; restart < ctx.bottleneck.km1_vcycles; ++restart) {
    std::vector<BlockID> start(phg.blocks().begin(), phg.blocks().end());
    std::vector<BlockID> cycled =
        vcycle(phg.hypergraph(), km1, limits, std::move(start),
               derive_seed(ctx.seed, 0xB08, static_cast<std::uint64_t>(restart)), cache);
    phg.assign(cycled);
    if (!is_balanced(phg, max_weights))
      break;
    const BottleneckStats s = refine_cycles(phg, owners, ctx, max_weights, epoch, reference_total);
    stats.moves += s.moves;
    stats.rounds += s.rounds;
    stats.cycles += s.cycles;
    stats.work += s.work;
    ++stats.restarts;
    if (!(s.total <= budget && is_balanced(phg, max_weights) &&
          (!found || better_result(s, stats, ctx.objective))))
      break; // nothing better found; the next V-cycle would start from this worse result
    found = true;
    stats.max_volume = s.max_volume;
    stats.total = s.total;
    stats.send = s.send;
    stats.recv = s.recv;
    best.assign(phg.blocks().begin(), phg.blocks().end());
  }
}

// The refiner and its restarts from `start` (multilevel_start.h) within the budget of the km1
// start's total (stats.start_total); its work is added to stats, and its result replaces stats'
// and best when better (a start that could not be balanced comes empty and is skipped). With
// restart_margin >= 0 the restarts run only if the refiner's first result is within that
// fraction of stats' maximum (the best so far).
void refine_another_start(PartitionedHypergraph& phg, std::span<const NodeID> owners,
                          const HgContext& ctx, const BlockLimits& limits,
                          std::span<const BlockID> start, BottleneckStats& stats,
                          std::vector<BlockID>& best, double restart_margin = -1) {
  if (start.empty())
    return;
  phg.assign(start);
  const Weight budget = static_cast<Weight>(
      std::floor(ctx.bottleneck.total_budget * static_cast<double>(stats.start_total)));
  // A start above the budget is left out: no move may raise the total past the budget, and of
  // 11 such starts measured on the shared graphs two came back within it (through a restart's
  // km1 V-cycle) and none gave the best result (docs/hypergraph.md).
  if (phg.objective(Objective::kKm1) > budget)
    return;
  BottleneckStats s =
      refine_cycles(phg, owners, ctx, limits.max_weight, nullptr, stats.start_total);
  std::vector<BlockID> chain_best(phg.blocks().begin(), phg.blocks().end());
  bool found = s.total <= budget && is_balanced(phg, limits.max_weight);
  if (restart_margin < 0 || static_cast<double>(s.max_volume) <=
                                (1 + restart_margin) * static_cast<double>(stats.max_volume))
    restart_chain(phg, owners, ctx, limits, nullptr, stats.start_total, s, chain_best, found);
  stats.moves += s.moves;
  stats.rounds += s.rounds;
  stats.cycles += s.cycles;
  stats.work += s.work;
  stats.restarts += s.restarts;
  ++stats.starts;
  if (found && better_result(s, stats, ctx.objective)) {
    stats.max_volume = s.max_volume;
    stats.total = s.total;
    stats.send = s.send;
    stats.recv = s.recv;
    best = std::move(chain_best);
  }
}

} // namespace

BottleneckStats bottleneck_refine(PartitionedHypergraph& phg, std::span<const NodeID> owners,
                                  const HgContext& ctx, const BlockLimits& limits,
                                  const EpochInput* epoch) {
  if (ctx.objective != Objective::kMaxVolume && ctx.objective != Objective::kEpoch)
    throw InvalidParameter("bottleneck refinement needs objective max-volume or epoch");
  if (ctx.objective == Objective::kEpoch && epoch == nullptr)
    throw InvalidParameter("--objective epoch needs a machine profile (--cost PROFILE.json)");
  BottleneckStats stats = refine_cycles(phg, owners, ctx, limits.max_weight, epoch, 0);
  if (ctx.objective != Objective::kMaxVolume)
    return stats;
  std::vector<BlockID> best(phg.blocks().begin(), phg.blocks().end());
  bool found = true; // the refiner's result from the km1 start is within its budget
  restart_chain(phg, owners, ctx, limits, epoch, stats.start_total, stats, best, found);
  // Further starts, independent of the km1 partition (multilevel_start.h), each refined and
  // restarted within the same budget; the best result of all is kept.
  HgContext km1 = ctx;
  km1.objective = Objective::kKm1;
  km1.timer = nullptr;
  const Hypergraph& hg = phg.hypergraph();
  const std::uint64_t seed = derive_seed(ctx.seed, 0xB09);
  // The degree-balanced graph start, then the volume-aware recursive bisection: each from the
  // first of its imbalances whose start fits the budget (a looser constraint costs less total
  // and shares the dense part less).
  const Weight budget = static_cast<Weight>(
      std::floor(ctx.bottleneck.total_budget * static_cast<double>(stats.start_total)));
  auto first_fitting = [&](std::span<const double> imbalances, auto&& make_start,
                           double restart_margin) {
    for (const double imbalance : imbalances) {
      const std::vector<BlockID> start = make_start(imbalance);
      if (start.empty())
        continue;
      phg.assign(start);
      if (phg.objective(Objective::kKm1) > budget)
        continue;
      refine_another_start(phg, owners, ctx, limits, start, stats, best, restart_margin);
      return;
    }
  };
  const BottleneckStats before_degree = stats;
  // The degree start from several seeds of its graph partition (the first is the one-seed
  // run's): its result varies with the seed more than any setting measured (cnr-2000 k = 8:
  // 3068 and 2776 from two seeds). A further seed's chain goes on to its restarts only if its
  // first refinement is within seed_restart_margin of the best so far.
  for (int i = 0; i < std::max(1, ctx.bottleneck.degree_graph_seeds); ++i) {
    const std::uint64_t seed_i =
        i == 0 ? seed : derive_seed(seed, 0xD5, static_cast<std::uint64_t>(i));
    first_fitting(
        ctx.bottleneck.degree_graph_epsilons,
        [&](double imbalance) { return degree_graph_start(hg, km1, limits, imbalance, seed_i); },
        i == 0 ? -1.0 : ctx.bottleneck.seed_restart_margin);
  }
  // Only where the degree start did not pay (no start within the budget, or no better result):
  // there its constraint cost more total than the dense part's spread saved, while the
  // bisection balances the volume the earlier splits actually incur.
  if (!better_result(stats, before_degree, ctx.objective))
    first_fitting(
        ctx.bottleneck.volume_bisection_epsilons,
        [&](double imbalance) { return volume_bisection_start(hg, km1, limits, imbalance, seed); },
        -1.0);
  if (ctx.bottleneck.multilevel_start)
    refine_another_start(phg, owners, ctx, limits, multilevel_start(hg, km1, limits, 0, seed),
                         stats, best);
  if (ctx.bottleneck.degree_start_epsilon > 0)
    refine_another_start(
        phg, owners, ctx, limits,
        multilevel_start(hg, km1, limits, ctx.bottleneck.degree_start_epsilon, seed), stats, best);
  phg.assign(best);
  return stats;
}

} // namespace gnnpart::hg
