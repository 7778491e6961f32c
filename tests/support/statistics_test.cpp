// Quantiles interpolate between order statistics; ties share their mean rank; the rank
// correlation is +1/-1 for monotone pairs, NaN when undefined, and agrees with a hand-computed
// value with ties.
#include <cmath>
#include <vector>

#include <doctest/doctest.h>

#include "support/statistics.hpp"

using namespace mctsat;

TEST_CASE("quantiles interpolate between order statistics") {
  CHECK(quantile({}, 0.5) == 0);
  CHECK(quantile({3, 1, 2}, 0.5) == 2);
  CHECK(quantile({4, 1, 3, 2}, 0.5) == doctest::Approx(2.5));
  CHECK(quantile({4, 1, 3, 2}, 0.25) == doctest::Approx(1.75));
  CHECK(quantile({4, 1, 3, 2}, 1.0) == 4);
}

TEST_CASE("ties share their mean rank") {
  CHECK(ranks({10, 20, 20, 5}) == std::vector<double>{2, 3.5, 3.5, 1});
}

TEST_CASE("rank correlation") {
  CHECK(rank_correlation({1, 2, 3, 4}, {10, 20, 30, 45}) == doctest::Approx(1));
  CHECK(rank_correlation({1, 2, 3, 4}, {4, 3, 2, 1}) == doctest::Approx(-1));
  CHECK(std::isnan(rank_correlation({1, 2, 3}, {5, 5, 5})));
  CHECK(std::isnan(rank_correlation({1}, {2})));
  // x ranks 1,2,3,4; y = {1, 3, 2, 2} ranks 1, 4, 2.5, 2.5: rho = 0.5 / sqrt(5 * 4.5) * ... by
  // hand: deviations x: -1.5 -0.5 0.5 1.5; y: -1.5 1.5 0 0; sxy = 2.25 - 0.75 = 1.5; sxx = 5; syy
  // = 4.5.
  CHECK(rank_correlation({1, 2, 3, 4}, {1, 3, 2, 2}) == doctest::Approx(1.5 / std::sqrt(5 * 4.5)));
}
