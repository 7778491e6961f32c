// The numeric equivalence check of two graphs (see equivalence_check.hpp).
#include "frontend/equivalence_check.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include <fmt/format.h>

#include "frontend/onnx_opaque_evaluator.hpp"
#include "support/error.hpp"
#include "tensor/interpreter.hpp"

namespace mctsat::frontend {

nlohmann::json check_equivalence(const tensor::Graph& original, const tensor::Graph& other,
                                 double tolerance, std::uint64_t seed) {
  tensor::InterpretOptions interpret = frontend::with_onnx_opaque_evaluator({});
  interpret.random_weight_seed = seed;
  auto inputs = tensor::random_inputs(original, seed);
  std::set<std::string> other_inputs;
  for (const auto& node : other.nodes())
    if (node.op == tensor::Op::kInput) other_inputs.insert(node.name);
  for (const auto& node : original.nodes()) {
    if (node.op == tensor::Op::kWeight && node.value == nullptr &&
        other_inputs.contains(node.name) && !inputs.contains(node.name))
      inputs[node.name] = tensor::random_weight(node.outputs[0].shape, seed, node.name);
  }
  const auto expected = tensor::interpret(original, inputs, interpret);
  const auto actual = tensor::interpret(other, inputs, interpret);
  if (expected.size() != actual.size())
    throw Error(fmt::format("the graphs have {} and {} outputs", expected.size(), actual.size()));
  double max_abs = 0, max_rel = 0;
  bool finite = true;
  for (std::size_t o = 0; o < expected.size(); ++o) {
    if (expected[o].data.size() != actual[o].data.size())
      throw Error(fmt::format("output {} has {} elements in one graph and {} in the other", o,
                              expected[o].data.size(), actual[o].data.size()));
    double scale = 0;
    for (double v : expected[o].data) scale = std::max(scale, std::abs(v));
    for (std::size_t i = 0; i < expected[o].data.size(); ++i) {
      const double a = expected[o].data[i], b = actual[o].data[i];
      finite = finite && std::isfinite(a) && std::isfinite(b);
      max_abs = std::max(max_abs, std::abs(a - b));
      max_rel = std::max(max_rel, std::abs(a - b) / std::max(scale, 1e-300));
    }
  }
  const bool passed = finite && max_rel <= tolerance;
  return {{"passed", passed},
          {"finite", finite},
          {"max_abs_difference", max_abs},
          {"max_relative_difference", max_rel},
          {"tolerance", tolerance},
          {"seed", seed}};
}

std::string check_failure(const nlohmann::json& check) {
  if (!check["finite"].get<bool>())
    return "an output is NaN or infinite, so the outputs cannot be compared";
  return fmt::format("max relative difference {:.3g}, more than the tolerance {:.3g}",
                     check["max_relative_difference"].get<double>(),
                     check["tolerance"].get<double>());
}

}  // namespace mctsat::frontend
