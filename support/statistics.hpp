// Small statistics shared by the runtime's timings, the CLI's profile report and the benchmarks:
// quantiles with linear interpolation, ranks with ties sharing their mean rank, and Spearman's
// rank correlation. O(n log n) each.
#pragma once

#include <vector>

namespace mctsat {

// The q-quantile (0 <= q <= 1) of `values`, interpolating linearly between the order statistics
// (the median of an even count is the mean of the middle two); 0 for no values.
double quantile(std::vector<double> values, double q);

// Ranks 1..n in ascending order; tied values share their mean rank.
std::vector<double> ranks(const std::vector<double>& values);

// Spearman's rank correlation of two equally long lists (the Pearson correlation of their ranks);
// NaN when it is undefined (fewer than two values, or either side constant).
double rank_correlation(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace mctsat
