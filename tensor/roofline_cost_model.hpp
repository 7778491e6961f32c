// The analytic cost model (mctsat's default): a roofline per operator on a DeviceProfile.
//
//   time = max(flops / achieved_flops, bytes / achieved_bandwidth) + launch_overhead   (in ms)
//   achieved_flops     = peak_flops       * compute_work / (compute_work + saturation_elements)
//   achieved_bandwidth = memory_bandwidth * memory_work  / (memory_work  + saturation_elements)
//
// flops counts the arithmetic of the operator (see operator_flops), bytes the traffic of reading
// every input and writing every output once (see operator_bytes). The efficiency factors
// work / (work + saturation_elements) model a kernel too small to fill the device: it reaches half
// of peak when its work equals the number of threads the device keeps resident, and approaches
// peak for large operators. The work measures the parallelism of each roof:
//   compute_work = output elements (each is an independent accumulation; for globalavgpool, a
//                  reduction whose kernels parallelize over the reduced elements, input elements);
//   memory_work  = elements read and written (loads and stores spread over all threads).
// With the compute factor and the launch overhead, one large operator is cheaper than several
// small ones doing the same work, which rewrites like merging matmuls that share an input
// exploit. (Using output elements for the memory roof too would price a weight-heavy operator
// with few outputs absurdly: VGG's 1x25088 * 25088x4096 layer at 18.7 ms on a V100 instead of
// the 0.46 ms its 411 MB of weights take to read.) Known pessimism: a reduction with very few
// outputs (a dot product) is priced without split-K parallelism.
//
// Views (reshape, split, identity, ...) and noop cost 0. Opaque operators are priced as pure data
// movement plus the launch overhead. Peak FLOP/s is the profile's single number whatever the
// element type (profiles describe FP32); bytes do follow the element type. Deterministic, no I/O.
#pragma once

#include <string>

#include "tensor/cost_model.hpp"
#include "tensor/device_profile.hpp"

namespace mctsat::tensor {

// FLOPs per element of the elementwise functions. A transcendental function (exp, tanh) counts as
// one FLOP, as FLOP counters usually do, so: sigmoid 1/(1+exp(-x)) = negate, exp, add, divide = 4;
// tanh = 4 (the same work as sigmoid: tanh(x) = 2 sigmoid(2x) - 1); softmax = max, subtract, exp,
// sum, divide = 5; relu = 1 compare; clip = 2 compares; the binary ops and smul = 1; gelu
// x * (1 + erf(x / sqrt 2)) / 2 = divide, erf, add, multiply, multiply = 5 (its tanh
// approximation: cube 2, scale, add, scale, tanh, add, multiply, multiply = 9); layernorm = sum,
// subtract, square, sum, multiply by the inverse deviation, scale, shift = 7 (the per-row
// square root and division not counted).
inline constexpr double kReluFlops = 1;
inline constexpr double kSigmoidFlops = 4;
inline constexpr double kTanhFlops = 4;
inline constexpr double kSoftmaxFlops = 5;
inline constexpr double kClipFlops = 2;
inline constexpr double kGeluFlops = 5;
inline constexpr double kGeluTanhFlops = 9;
inline constexpr double kLayerNormFlops = 7;
// Per attention score: scale, add the bias, softmax (5).
inline constexpr double kAttentionScoreFlops = 7;
inline constexpr double kBatchNormFlops = 2;  // x * scale' + bias' (folded at inference)

// Arithmetic of one operator:
//   matmul        2 * batch * m * n * k                      + activation per output element
//   conv2d        2 * N * O * Ho * Wo * (C / groups) * KH * KW + activation per output element
//   ewadd/ewmul/ewsub/ewdiv/smul, relu/tanh/sigmoid/clip/softmax: per output element (see above)
//   poolmax/poolavg  N * C * Ho * Wo * kh * kw               + activation per output element
//   globalavgpool    one add per input element + one divide per output element
//   batchnorm        2 per element; layernorm 7, gelu 5 (tanh form 9) per element
//   attention        2 B S L D (scores) + 2 B S L E (context) + 7 per score (B heads S L):
//                    one kernel whose scores never reach memory
//   transpose, concat, enlarge, merge, opaque: 0 (data movement only); views: 0
double operator_flops(const OpInstance& instance);
// Bytes read and written: every input and every output once, at its element type's size. Enlarge
// does not read its second input (it only supplies a kernel size). Views: 0.
double operator_bytes(const OpInstance& instance);
// The parallelism of the arithmetic: output elements (summed over the outputs), but input elements
// for globalavgpool. Views: 0.
double operator_compute_work(const OpInstance& instance);
// The parallelism of the memory traffic: the elements operator_bytes counts. Views: 0.
double operator_memory_work(const OpInstance& instance);

class RooflineCostModel final : public CostModel {
 public:
  explicit RooflineCostModel(DeviceProfile profile);

  // The parts of one estimate (all times in seconds).
  struct Estimate {
    double flops = 0, bytes = 0;
    double compute_work = 0, memory_work = 0;
    // work / (work + saturation_elements), in (0, 1), for each roof.
    double compute_efficiency = 0, memory_efficiency = 0;
    double compute_s = 0;  // flops / achieved FLOP/s
    double memory_s = 0;   // bytes / achieved bandwidth
    double launch_s = 0;   // the profile's launch overhead; 0 for views
    bool compute_bound() const { return compute_s > memory_s; }
    double total_ms() const;
  };
  // Throws mctsat::Error for an instance that does not fit its operator (wrong arity, missing
  // outputs).
  Estimate estimate(const OpInstance& instance) const;

  double cost(const OpInstance& instance) const override { return estimate(instance).total_ms(); }
  std::string name() const override;  // "roofline(v100)"
  const DeviceProfile& profile() const { return profile_; }

 private:
  DeviceProfile profile_;
};

}  // namespace mctsat::tensor
