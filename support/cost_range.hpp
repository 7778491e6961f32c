// The costs mctsat accepts, in milliseconds: 0 (free: inputs, weights, views, folded weights) or
// a finite number from kMinCostMs to kMaxCostMs. Every source of costs is checked against this
// one range: cost tables, e-graph JSON, Python cost functions, what a cost model computes (tensor/
// checked_cost) and the extraction problem's builder. The bounds keep the ILP's objective in the
// range CBC accepts (it scales costs so that a solution costs about 1000: a denormal cost made the
// scale infinite, and Clp asserts |c| < 1e25) and keep every sum finite: 2^32 e-nodes of the
// largest cost sum to under 5e18 ms. The smallest positive cost is 1e-10 ms, below the roofline
// model's smallest launch overhead (1e-12 s).
#pragma once

#include <cmath>
#include <string>

#include <fmt/format.h>

namespace mctsat {

inline constexpr double kMinCostMs = 1e-10;
inline constexpr double kMaxCostMs = 1e9;  // about 11.6 days per operator

// Why `ms` is not an accepted cost ("5e-324 is not 0 and below 1e-10"), or empty when it is.
inline std::string cost_error(double ms) {
  if (std::isnan(ms) || std::isinf(ms)) return fmt::format("{} is not a finite number", ms);
  if (ms < 0) return fmt::format("{} is negative", ms);
  if (ms > 0 && ms < kMinCostMs)
    return fmt::format("{:g} is neither 0 nor at least {:g} ms", ms, kMinCostMs);
  if (ms > kMaxCostMs) return fmt::format("{:g} is more than {:g} ms", ms, kMaxCostMs);
  return {};
}

}  // namespace mctsat
