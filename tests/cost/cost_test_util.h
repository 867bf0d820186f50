#pragma once
// Shared by the cost tests: a profile where only the rates a test sets are non-zero.
#include "cost/profile.h"

namespace gnnpart::cost {

inline CostProfile zero_profile() {
  CostProfile p;
  p.name = "test";
  p.source = "assumed";
  p.ranks = 2;
  p.spmm = p.gemm = p.gemm_at_b = p.gemm_a_bt = {{1, 0}};
  return p;
}

} // namespace gnnpart::cost
