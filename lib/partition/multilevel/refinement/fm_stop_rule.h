#pragma once
// When a localized FM search stops. The gains of the moves made since the search's best prefix
// are a random walk (Osipov and Sanders' stopping model, as in KaHyPar): p steps, sum S <= 0 (the
// deficit below the best prefix is -S), sample variance var. The search stops after fm_max_bad
// such moves, unless fm_walk_alpha > 0 and the walk may still recover its deficit:
//   S != 0 and S^2 < fm_walk_alpha * p * var,
// i.e. the deficit is less than sqrt(alpha) standard deviations of a p-step walk with the
// observed step variance (a walk without drift climbs back that far within its next p steps with
// probability about 2 (1 - Phi(sqrt(alpha)))). Such a search goes on up to fm_walk_max_bad moves.
// Where gains vary much (a hub's move is worth many leaves' moves) the moves that free a hub are
// negative and come first, so the search needs a longer tail; where they do not (meshes: every
// move gains -1, 0 or 1) the walk's variance is small against its deficit and it stops as before.
// A walk back at its best level (S = 0) has no deficit to recover and stops at fm_max_bad.
#include "core/types.h"
#include "partition/multilevel/context.h"

namespace gnnpart::ml {

class FmStopRule {
public:
  explicit FmStopRule(const RefinementContext& ctx)
      : max_bad_(ctx.fm_max_bad), alpha_(ctx.fm_walk_alpha), max_walk_(ctx.fm_walk_max_bad) {}

  // The search found a new best prefix: the walk starts again.
  void improved() {
    steps_ = 0;
    sum_ = 0;
    squares_ = 0;
  }
  // A move that did not improve on the best prefix.
  void add(Weight gain) {
    ++steps_;
    sum_ += gain;
    squares_ += static_cast<double>(gain) * static_cast<double>(gain);
  }
  bool stops() const {
    if (steps_ < max_bad_)
      return false;
    if (alpha_ <= 0 || steps_ >= max_walk_ || sum_ == 0 || steps_ < 2)
      return true;
    // S^2 >= alpha p var with var = (Q - S^2 / p) / (p - 1), Q the sum of squared gains,
    // multiplied out so that integer gains give integer sides (exact for moderate gains).
    const double p = steps_;
    const double s2 = static_cast<double>(sum_) * static_cast<double>(sum_);
    return s2 * (p - 1) >= alpha_ * (p * squares_ - s2);
  }
  int steps() const { return steps_; }

private:
  int max_bad_;
  double alpha_;
  int max_walk_;
  int steps_ = 0;
  Weight sum_ = 0;
  double squares_ = 0;
};

} // namespace gnnpart::ml
