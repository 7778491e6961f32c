// Deriving equations by bounded equality saturation (see rule_derivation.hpp).
#include "verify/rule_derivation.hpp"

#include <map>
#include <utility>

#include <fmt/format.h>

#include "egraph/runner.hpp"
#include "support/error.hpp"
#include "tensor/egraph_conversion.hpp"
#include "tensor/graph_builder.hpp"
#include "verify/equation_graph.hpp"
#include "verify/numeric_check.hpp"

namespace mctsat::verify {
namespace {

// One graph holding every equation's sides' outputs (by equation, left ones first). Inputs are
// shared by name and shape; within an equation, one name must have one shape.
tensor::Graph joined(std::span<const GraphEquation> equations) {
  tensor::GraphBuilder builder;
  std::map<std::pair<std::string, tensor::Shape>, tensor::TensorRef> inputs;
  std::map<std::string, std::size_t> shapes_of_name;  // distinct shapes per input name so far
  std::vector<tensor::TensorRef> outputs;
  for (const auto& [lhs, rhs] : equations) {
    if (lhs->outputs().size() != rhs->outputs().size())
      throw Error("the sides of an equation have different output counts");
    std::map<std::string, tensor::Shape> shapes;  // this equation's inputs
    for (const tensor::Graph* side : {lhs, rhs}) {
      std::vector<std::vector<tensor::TensorRef>> refs(side->size());
      for (const tensor::NodeId id : side->topological_order()) {
        const tensor::Node& node = side->node(id);
        if (node.op == tensor::Op::kInput) {
          const tensor::Shape& shape = node.outputs.at(0).shape;
          if (shapes.emplace(node.name, shape).first->second != shape)
            throw Error(fmt::format("input {} has different shapes in the two sides", node.name));
          auto found = inputs.find({node.name, shape});
          if (found == inputs.end()) {
            // Another equation's input of this name has another shape: a name of its own.
            const std::size_t earlier = shapes_of_name[node.name]++;
            const std::string name =
                earlier == 0 ? node.name : fmt::format("{}#{}", node.name, earlier);
            found = inputs.emplace(std::pair{node.name, shape}, builder.input(name, shape)).first;
          }
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
  }
  for (std::size_t o = 0; o < outputs.size(); ++o)
    builder.output(fmt::format("root{}", o), outputs[o]);
  return std::move(builder).finish();
}

}  // namespace

std::vector<bool> derivable_together(std::span<const GraphEquation> equations,
                                     const dsl::RuleSet& rules, const DerivationLimits& limits,
                                     std::size_t threads) {
  std::vector<bool> proved(equations.size(), false);
  if (equations.empty()) return proved;
  tensor::TensorEGraph state = tensor::to_egraph(joined(equations));
  // Each equation's first root among state.roots, and its output count.
  std::vector<std::size_t> first(equations.size());
  for (std::size_t e = 0, next = 0; e < equations.size(); ++e) {
    first[e] = next;
    next += 2 * equations[e].lhs->outputs().size();
  }
  auto check = [&](const tensor::TensorGraphEGraph& egraph) {
    bool all = true;
    for (std::size_t e = 0; e < equations.size(); ++e) {
      if (proved[e]) continue;
      const std::size_t roots = equations[e].lhs->outputs().size();
      bool equal = true;
      for (std::size_t r = 0; r < roots && equal; ++r)
        equal = egraph.find(state.roots[first[e] + r]) ==
                egraph.find(state.roots[first[e] + roots + r]);
      proved[e] = equal;
      all = all && equal;
    }
    return all;
  };
  if (check(state.egraph) || rules.size() == 0) return proved;
  egraph::RunnerOptions<tensor::TensorAnalysis> options;
  options.limits.iterations = limits.iterations;
  options.limits.nodes = limits.nodes;
  options.limits.seconds = limits.seconds;
  options.threads = threads;
  options.after_iteration = [&](const tensor::TensorGraphEGraph& egraph,
                                const egraph::IterationStats&) { return !check(egraph); };
  egraph::SimpleScheduler scheduler;
  const auto rewrites = rules.rewrites();
  egraph::Runner<tensor::TensorAnalysis>(options).run(state.egraph, rewrites, scheduler);
  return proved;
}

bool derivable(const tensor::Graph& lhs, const tensor::Graph& rhs, const dsl::RuleSet& rules,
               const DerivationLimits& limits) {
  const GraphEquation equation{&lhs, &rhs};
  return derivable_together({&equation, 1}, rules, limits)[0];
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
