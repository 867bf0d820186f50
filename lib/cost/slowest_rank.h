#pragma once
// The expected time of a synchronising segment when the ranks' speeds scatter: rank r takes
// compute[r] x f_r + fixed[r], f_r independent and about N(1, spread^2), and the segment ends
// with the slowest rank. The maximum of the ranks' normal times is folded in rank order by
// Clark's moment matching (C. E. Clark, "The greatest of a finite set of random variables",
// Operations Research 9(2), 1961): the maximum of two normals by its exact mean and variance,
// taken as normal again. With spread 0 it is the plain maximum.
#include <vector>

namespace gnnpart::cost {

// compute and fixed have one entry per rank; spread >= 0.
double expected_slowest(const std::vector<double>& compute, const std::vector<double>& fixed,
                        double spread);

// The same for `ranks` ranks of compute 1 and nothing fixed: 1 + spread x E max of that many
// standard normals (1.0294 for 4, 1.4236 for 8; the fold's).
double expected_slowest_of_equal(int ranks, double spread);

} // namespace gnnpart::cost
