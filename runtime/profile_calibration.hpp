// Calibrating a roofline device profile to operator timings (`mctsat profile MODEL --calibrate`):
// the profile's four numbers are fitted so that the roofline model (roofline_cost_model.hpp)
// predicts measured per-operator times within the smallest factor.
//
// For a fixed saturation S the model of operator i is, in seconds,
//   t_i = max(F_i / peak_flops, M_i / memory_bandwidth) + launch_overhead,  where
//   F_i = flops_i * (compute_work_i + S) / compute_work_i
//   M_i = bytes_i * (memory_work_i + S) / memory_work_i
// which is linear in (1 / peak_flops, 1 / memory_bandwidth, launch_overhead) once each operator is
// assigned to the roof that binds it. The fit alternates: assign every operator to its binding
// roof under the current numbers (first those of the starting profile), fit the three numbers,
// repeat until the assignment is stable. Each fit minimizes the squared logarithms of predicted /
// measured time (so that a factor of 2 too slow and too fast count alike), starting from the
// linear least-squares solution for relative errors and refined by Gauss-Newton steps, each a
// non-negative least-squares problem. S is chosen from a grid of powers of two (and the starting
// profile's value) by the same error. Deterministic.
#pragma once

#include <span>

#include "tensor/device_profile.hpp"
#include "tensor/roofline_cost_model.hpp"

namespace mctsat::runtime {

// One timed operator: the parts of its roofline estimate that do not depend on the profile
// (flops, bytes, compute_work, memory_work of RooflineCostModel::Estimate) and its measured time.
struct CalibrationSample {
  double flops = 0, bytes = 0, compute_work = 1, memory_work = 1;
  double measured_ms = 0;  // > 0
};
CalibrationSample calibration_sample(const tensor::RooflineCostModel::Estimate& estimate,
                                     double measured_ms);

struct Calibration {
  // `start` with the four fitted numbers and notes saying how each was obtained. A number the
  // samples do not determine (no operator is bound by that roof) is set to the value that keeps
  // every operator on the other roof, or kept from `start` when no sample has work for it; a
  // fitted launch overhead of 0 becomes 1 ns (profiles need positive numbers).
  tensor::DeviceProfile profile;
  double log_rms = 0;  // sqrt(mean(log(predicted / measured)^2)) over the samples
  std::size_t compute_bound = 0, memory_bound = 0;  // samples on each roof under the fit
};

// Throws mctsat::Error for fewer than 3 samples or a sample without a positive measured time.
Calibration calibrate_profile(std::span<const CalibrationSample> samples,
                              const tensor::DeviceProfile& start);

}  // namespace mctsat::runtime
