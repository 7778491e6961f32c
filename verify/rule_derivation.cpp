// Deriving equations by bounded equality saturation (see rule_derivation.hpp).
#include "verify/rule_derivation.hpp"

#include <map>

#include <fmt/format.h>

#include "egraph/runner.hpp"
#include "support/error.hpp"
#include "tensor/egraph_conversion.hpp"
#include "tensor/graph_builder.hpp"
#include "verify/equation_graph.hpp"
#include "verify/numeric_check.hpp"

namespace mctsat::verify {
namespace {

// One graph holding both sides' outputs (left ones first), inputs shared by name.
tensor::Graph joined(const tensor::Graph& lhs, const tensor::Graph& rhs) {
  if (lhs.outputs().size() != rhs.outputs().size())
    throw Error("the sides of an equation have different output counts");
  tensor::GraphBuilder builder;
  std::map<std::string, tensor::TensorRef> inputs;
  std::vector<tensor::TensorRef> outputs;
  for (const tensor::Graph* side : {&lhs, &rhs}) {
    std::vector<std::vector<tensor::TensorRef>> refs(side->size());
    for (const tensor::NodeId id : side->topological_order()) {
      const tensor::Node& node = side->node(id);
      if (node.op == tensor::Op::kInput) {
        const tensor::Shape& shape = node.outputs.at(0).shape;
        auto found = inputs.find(node.name);
        if (found == inputs.end())
          found = inputs.emplace(node.name, builder.input(node.name, shape)).first;
        else if (builder.type_of(found->second).shape != shape)
          throw Error(fmt::format("input {} has different shapes in the two sides", node.name));
        refs[id] = {found->second};
        continue;
      }
      if (node.op == tensor::Op::kWeight || node.op == tensor::Op::kOpaque)
        throw Error(fmt::format("node {}: only inputs and operators can be joined", node.name));
      std::vector<tensor::TensorRef> args;
      for (const auto& in : node.inputs) args.push_back(refs[in.node].at(in.output));
      refs[id] = builder.add(node.op, std::move(args), node.attrs);
    }
    for (const auto& out : side->outputs())
      outputs.push_back(refs[out.tensor.node].at(out.tensor.output));
  }
  for (std::size_t o = 0; o < outputs.size(); ++o)
    builder.output(fmt::format("root{}", o), outputs[o]);
  return std::move(builder).finish();
}

}  // namespace

bool derivable(const tensor::Graph& lhs, const tensor::Graph& rhs, const dsl::RuleSet& rules,
               const DerivationLimits& limits) {
  tensor::TensorEGraph state = tensor::to_egraph(joined(lhs, rhs));
  const std::size_t roots = lhs.outputs().size();
  auto proved = [&](const tensor::TensorGraphEGraph& egraph) {
    for (std::size_t r = 0; r < roots; ++r)
      if (egraph.find(state.roots[r]) != egraph.find(state.roots[roots + r])) return false;
    return true;
  };
  if (proved(state.egraph)) return true;
  if (rules.size() == 0) return false;
  egraph::RunnerOptions<tensor::TensorAnalysis> options;
  options.limits.iterations = limits.iterations;
  options.limits.nodes = limits.nodes;
  options.limits.seconds = limits.seconds;
  options.after_iteration = [&](const tensor::TensorGraphEGraph& egraph,
                                const egraph::IterationStats&) { return !proved(egraph); };
  egraph::SimpleScheduler scheduler;
  const auto rewrites = rules.rewrites();
  egraph::Runner<tensor::TensorAnalysis>(options).run(state.egraph, rewrites, scheduler);
  return proved(state.egraph);
}

bool derivable(const Equation& equation, const Binding& binding, const dsl::RuleSet& rules,
               const DerivationLimits& limits) {
  const tensor::Graph lhs = lhs_graph(equation, binding);
  const tensor::Graph rhs = rhs_graph(equation, binding, lhs);
  return derivable(lhs, rhs, rules, limits);
}

std::optional<bool> derivable_at_example(const Equation& equation, const dsl::RuleSet& rules,
                                         const DerivationLimits& limits) {
  const auto binding = example_binding(equation, {});
  if (!binding) return std::nullopt;
  try {
    return derivable(equation, *binding, rules, limits);
  } catch (const Error&) {
    return std::nullopt;
  }
}

}  // namespace mctsat::verify
