// Fitting a device profile to operator timings: non-negative least squares (Gauss-Newton on log
// errors) over the roofs that bind, alternated with reassigning operators to roofs, over a grid of
// saturation values.
#include "runtime/profile_calibration.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "support/error.hpp"

namespace mctsat::runtime {

using namespace tensor;
namespace {

// (1 / peak_flops, 1 / memory_bandwidth, launch overhead in s): the model is linear in these.
using Coefficients = std::array<double, 3>;
constexpr int kMaxReassignments = 50;
constexpr int kMaxGaussNewtonSteps = 50;
constexpr int kMaxSaturationPower = 24;  // saturation grid 2^0 .. 2^24 elements
constexpr double kMinLaunchOverhead = 1e-9;

// One sample with a saturation applied: the time it needs per unit of each coefficient.
struct Row {
  double compute = 0;  // F_i: flops scaled by the compute efficiency
  double memory = 0;   // M_i: bytes scaled by the memory efficiency
  double seconds = 0;  // the measured time
};

std::vector<Row> rows_for(std::span<const CalibrationSample> samples, double saturation) {
  std::vector<Row> rows;
  for (const CalibrationSample& s : samples)
    rows.push_back({s.flops * (s.compute_work + saturation) / s.compute_work,
                    s.bytes * (s.memory_work + saturation) / s.memory_work, s.measured_ms / 1e3});
  return rows;
}

double predicted(const Row& row, const Coefficients& c) {
  return std::max(c[0] * row.compute, c[1] * row.memory) + c[2];
}

// Sum of squared logarithms of predicted / measured: over- and underestimates by the same factor
// count alike.
double log_error(const std::vector<Row>& rows, const Coefficients& c) {
  double sum = 0;
  for (const Row& row : rows) {
    const double p = predicted(row, c);
    if (!(p > 0)) return INFINITY;
    sum += std::log(p / row.seconds) * std::log(p / row.seconds);
  }
  return sum;
}

// One linear equation x . c = y of a least-squares problem.
struct Equation {
  Coefficients x;
  double y = 0;
};

double squared_residual(const std::vector<Equation>& equations, const Coefficients& c) {
  double sum = 0;
  for (const Equation& e : equations) {
    const double r = e.x[0] * c[0] + e.x[1] * c[1] + e.x[2] * c[2] - e.y;
    sum += r * r;
  }
  return sum;
}

// Least squares over the coefficients in `mask` (the others fixed at 0), by the normal equations
// on unit-norm columns with partial pivoting. Empty when the columns are dependent or a
// coefficient comes out negative.
std::optional<Coefficients> solve_columns(const std::vector<Equation>& equations, unsigned mask) {
  std::vector<int> columns;
  for (int j = 0; j < 3; ++j)
    if (mask & (1u << j)) columns.push_back(j);
  const std::size_t k = columns.size();
  std::array<double, 3> norm{};
  for (std::size_t a = 0; a < k; ++a) {
    for (const Equation& e : equations) norm[a] += e.x[columns[a]] * e.x[columns[a]];
    norm[a] = std::sqrt(norm[a]);
    if (!(norm[a] > 0)) return std::nullopt;
  }
  // The augmented system [Z^T Z | Z^T y] with Z = the columns divided by their norms.
  std::array<std::array<double, 4>, 3> m{};
  for (std::size_t a = 0; a < k; ++a)
    for (const Equation& e : equations) {
      for (std::size_t b = 0; b < k; ++b)
        m[a][b] += e.x[columns[a]] / norm[a] * e.x[columns[b]] / norm[b];
      m[a][k] += e.x[columns[a]] / norm[a] * e.y;
    }
  for (std::size_t p = 0; p < k; ++p) {
    std::size_t pivot = p;
    for (std::size_t r = p + 1; r < k; ++r)
      if (std::abs(m[r][p]) > std::abs(m[pivot][p])) pivot = r;
    if (std::abs(m[pivot][p]) < 1e-12) return std::nullopt;
    std::swap(m[p], m[pivot]);
    for (std::size_t r = 0; r < k; ++r) {
      if (r == p) continue;
      const double factor = m[r][p] / m[p][p];
      for (std::size_t c = p; c <= k; ++c) m[r][c] -= factor * m[p][c];
    }
  }
  Coefficients result{};
  for (std::size_t a = 0; a < k; ++a) {
    result[columns[a]] = m[a][k] / m[a][a] / norm[a];
    if (result[columns[a]] < 0) return std::nullopt;
  }
  return result;
}

// Non-negative least squares for three coefficients: the optimum is the unconstrained optimum on
// the face of the orthant spanned by its positive coefficients, so the best feasible solution over
// all column subsets is it.
Coefficients nonnegative_least_squares(const std::vector<Equation>& equations) {
  Coefficients best{};
  double best_error = squared_residual(equations, best);
  for (unsigned mask = 1; mask < 8; ++mask) {
    const auto solution = solve_columns(equations, mask);
    if (!solution) continue;
    const double error = squared_residual(equations, *solution);
    if (error < best_error) {
      best_error = error;
      best = *solution;
    }
  }
  return best;
}

// The rows' design under a roof assignment: each row's time per unit of each coefficient.
std::vector<Coefficients> design(const std::vector<Row>& rows,
                                 const std::vector<bool>& compute_bound) {
  std::vector<Coefficients> x;
  for (std::size_t i = 0; i < rows.size(); ++i)
    x.push_back({compute_bound[i] ? rows[i].compute : 0, compute_bound[i] ? 0 : rows[i].memory, 1});
  return x;
}

double linear(const Coefficients& x, const Coefficients& c) {
  return x[0] * c[0] + x[1] * c[1] + x[2] * c[2];
}

// Sum of squared log errors of the linear model of one assignment.
double assigned_log_error(const std::vector<Row>& rows, const std::vector<Coefficients>& x,
                          const Coefficients& c) {
  double sum = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const double p = linear(x[i], c);
    if (!(p > 0)) return INFINITY;
    sum += std::log(p / rows[i].seconds) * std::log(p / rows[i].seconds);
  }
  return sum;
}

// The coefficients of one assignment: least squares on relative errors (linear, a good start),
// then Gauss-Newton steps on the log errors (each a non-negative least-squares problem of the
// model linearized at the current prediction p: log(p' / t) ~ (p' - p) / p + log(p / t)), halving
// a step until it improves.
Coefficients fit_assignment(const std::vector<Row>& rows, const std::vector<bool>& compute_bound) {
  const std::vector<Coefficients> x = design(rows, compute_bound);
  std::vector<Equation> equations;
  for (std::size_t i = 0; i < rows.size(); ++i)
    equations.push_back(
        {{x[i][0] / rows[i].seconds, x[i][1] / rows[i].seconds, x[i][2] / rows[i].seconds}, 1});
  Coefficients c = nonnegative_least_squares(equations);
  double error = assigned_log_error(rows, x, c);
  for (int step = 0; step < kMaxGaussNewtonSteps && std::isfinite(error); ++step) {
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const double p = linear(x[i], c);
      equations[i] = {{x[i][0] / p, x[i][1] / p, x[i][2] / p}, 1 + std::log(rows[i].seconds / p)};
    }
    const Coefficients target = nonnegative_least_squares(equations);
    bool improved = false;
    for (double fraction = 1; fraction >= 1.0 / 64 && !improved; fraction /= 2) {
      Coefficients next;
      for (int j = 0; j < 3; ++j) next[j] = c[j] + fraction * (target[j] - c[j]);
      const double next_error = assigned_log_error(rows, x, next);
      if (next_error < error) {
        improved = error - next_error > 1e-12 * error;
        c = next;
        error = next_error;
      }
    }
    if (!improved) break;
  }
  return c;
}

struct Fit {
  Coefficients coefficients{};
  double error = 0;  // log_error under the max() model
};

// The alternating fit for one saturation, starting from `start`'s roof assignment.
Fit fit_for(const std::vector<Row>& rows, const Coefficients& start) {
  std::vector<bool> compute_bound(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i)
    compute_bound[i] = start[0] * rows[i].compute >= start[1] * rows[i].memory;
  Fit best{start, log_error(rows, start)};
  for (int iteration = 0; iteration < kMaxReassignments; ++iteration) {
    const Coefficients c = fit_assignment(rows, compute_bound);
    const double error = log_error(rows, c);
    if (error < best.error) best = {c, error};
    bool changed = false;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const bool on_compute = c[0] * rows[i].compute >= c[1] * rows[i].memory;
      changed = changed || on_compute != compute_bound[i];
      compute_bound[i] = on_compute;
    }
    if (!changed) break;
  }
  return best;
}

}  // namespace

CalibrationSample calibration_sample(const RooflineCostModel::Estimate& estimate,
                                     double measured_ms) {
  return {estimate.flops, estimate.bytes, estimate.compute_work, estimate.memory_work, measured_ms};
}

Calibration calibrate_profile(std::span<const CalibrationSample> samples,
                              const DeviceProfile& start) {
  if (samples.size() < 3)
    throw Error(fmt::format("calibrating a device profile needs at least 3 timed operators, got {}",
                            samples.size()));
  for (const CalibrationSample& s : samples)
    if (!(s.measured_ms > 0) || !std::isfinite(s.measured_ms) || !(s.compute_work > 0) ||
        !(s.memory_work > 0))
      throw Error(
          fmt::format("calibration sample with measured time {} ms and work {}, {}: "
                      "times and work must be positive",
                      s.measured_ms, s.compute_work, s.memory_work));

  const Coefficients initial = {1 / start.peak_flops, 1 / start.memory_bandwidth,
                                start.launch_overhead_s};
  std::vector<double> saturations = {start.saturation_elements};
  for (int power = 0; power <= kMaxSaturationPower; ++power)
    saturations.push_back(std::ldexp(1.0, power));
  double best_saturation = saturations.front();
  Fit best{initial, INFINITY};
  for (double saturation : saturations) {
    const Fit fit = fit_for(rows_for(samples, saturation), initial);
    if (fit.error < best.error) {
      best = fit;
      best_saturation = saturation;
    }
  }

  const std::vector<Row> rows = rows_for(samples, best_saturation);
  Coefficients c = best.coefficients;
  Calibration result;
  for (const Row& row : rows) {
    if (c[0] > 0 && c[0] * row.compute >= c[1] * row.memory)
      ++result.compute_bound;
    else
      ++result.memory_bound;
  }
  DeviceProfile& profile = result.profile;
  profile = start;
  profile.notes.clear();
  const std::string method = fmt::format(
      "a non-negative least-squares fit of the logarithms of predicted / measured time of {} "
      "operator timings, {} of them compute bound and {} memory bound under the fit",
      samples.size(), result.compute_bound, result.memory_bound);
  // A roof no operator is bound by: the bound that keeps every operator on the other roof, i.e.
  // the smallest ratio of the other roof's time to this roof's work; the start's value without one.
  auto undetermined = [&](int roof, const char* field, double start_value) {
    const int other = 1 - roof;
    double bound = INFINITY;
    for (const Row& row : rows) {
      const double work = roof == 0 ? row.compute : row.memory;
      const double other_work = roof == 0 ? row.memory : row.compute;
      if (work > 0) bound = std::min(bound, c[other] * other_work / work);
    }
    if (std::isfinite(bound) && bound > 0) {
      c[roof] = bound;
      profile.notes[field] = fmt::format(
          "Not determined by the timings (no operator is bound by this roof under the fit of {}): "
          "the value that keeps every operator on the other roof.",
          method);
    } else {
      c[roof] = 1 / start_value;
      profile.notes[field] = fmt::format(
          "Not determined by the timings (no operator is bound by this roof): kept from '{}'.",
          start.name);
    }
  };
  if (c[0] > 0)
    profile.notes["peak_flops"] =
        fmt::format("Fitted: 1 / the compute roof's coefficient in {}.", method);
  else
    undetermined(0, "peak_flops", start.peak_flops);
  if (c[1] > 0)
    profile.notes["memory_bandwidth"] =
        fmt::format("Fitted: 1 / the memory roof's coefficient in {}.", method);
  else
    undetermined(1, "memory_bandwidth", start.memory_bandwidth);
  if (c[2] >= kMinLaunchOverhead) {
    profile.notes["launch_overhead_s"] = fmt::format("Fitted: the constant term in {}.", method);
  } else {
    c[2] = kMinLaunchOverhead;
    profile.notes["launch_overhead_s"] =
        fmt::format("The fit ({}) gave less than 1 ns; set to 1 ns.", method);
  }
  profile.peak_flops = 1 / c[0];
  profile.memory_bandwidth = 1 / c[1];
  profile.launch_overhead_s = c[2];
  profile.saturation_elements = best_saturation;
  result.log_rms = std::sqrt(log_error(rows, c) / static_cast<double>(rows.size()));
  profile.notes["saturation_elements"] = fmt::format(
      "Fitted: of the powers of two 1 to 2^{} and '{}''s value, the one whose fit has the smallest "
      "error (predictions within a factor of {:.3f} of the timings, geometric root mean square).",
      kMaxSaturationPower, start.name, std::exp(result.log_rms));
  return result;
}

}  // namespace mctsat::runtime
