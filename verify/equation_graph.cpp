// Instantiating equations as concrete graphs (see equation_graph.hpp).
#include "verify/equation_graph.hpp"

#include <map>

#include "support/error.hpp"
#include "tensor/graph_builder.hpp"

namespace mctsat::verify {
namespace {

using dsl::Pat;

class SideBuilder {
 public:
  SideBuilder(const Equation& equation, const Binding& binding)
      : equation_(equation), binding_(binding) {}

  tensor::Graph build(const std::vector<Pat>& roots) && {
    for (std::size_t r = 0; r < roots.size(); ++r)
      builder_.output("root" + std::to_string(r), tensor(roots[r]));
    return std::move(builder_).finish();
  }

  // For a right-hand side: the split with this text gets these sizes.
  std::map<std::string, std::vector<std::int64_t>> inferred_sizes;

 private:
  std::vector<tensor::TensorRef> outputs(const Pat& p) {
    if (p.kind == Pat::Kind::kVar) {
      const auto& var = equation_.vars[p.var];
      auto found = inputs_.find(p.var);
      if (found == inputs_.end()) {
        const auto& dims = binding_.values[p.var];
        found = inputs_.emplace(p.var, builder_.input(var.name, tensor::Shape(dims))).first;
      }
      return {found->second};
    }
    if (p.kind == Pat::Kind::kProj) {
      const auto all = outputs(p.args[0]);
      return {all.at(static_cast<std::size_t>(p.value))};
    }
    if (p.kind != Pat::Kind::kOp) throw Error("a tensor position holds an attribute");
    const tensor::OpSignature& sig = tensor::signature(p.op);
    std::vector<tensor::TensorRef> inputs;
    tensor::Attrs attrs;
    for (std::size_t i = 0; i < p.args.size(); ++i) {
      const tensor::Param& param = sig.params[std::min(i, sig.params.size() - 1)];
      const Pat& arg = p.args[i];
      if (param.kind == tensor::ParamKind::kTensor) {
        inputs.push_back(tensor(arg));
      } else {
        attrs.push_back(attribute(p, arg, param.kind));
      }
    }
    return builder_.add(p.op, std::move(inputs), std::move(attrs));
  }

  tensor::TensorRef tensor(const Pat& p) { return outputs(p).at(0); }

  tensor::Attr attribute(const Pat& owner, const Pat& arg, tensor::ParamKind kind) {
    switch (arg.kind) {
      case Pat::Kind::kInt:
        return arg.value;
      case Pat::Kind::kInts:
        return arg.ints;
      case Pat::Kind::kFloat:
        return arg.real;
      case Pat::Kind::kInferredSizes:
        return inferred_sizes.at(pattern_text(owner, equation_.vars));
      case Pat::Kind::kVar: {
        const auto& values = binding_.values[arg.var];
        if (kind == tensor::ParamKind::kInts) return values;
        if (kind == tensor::ParamKind::kInt) return values.at(0);
        return 0.5;  // a real-valued variable: any value exercises the rule
      }
      default:
        throw Error("an attribute position holds a tensor term");
    }
  }

  const Equation& equation_;
  const Binding& binding_;
  tensor::GraphBuilder builder_;
  std::map<dsl::VarIndex, tensor::TensorRef> inputs_;
};

}  // namespace

tensor::Graph lhs_graph(const Equation& equation, const Binding& binding) {
  return SideBuilder(equation, binding).build(equation.lhs);
}

tensor::Graph rhs_graph(const Equation& equation, const Binding& binding,
                        const tensor::Graph& lhs) {
  SideBuilder builder(equation, binding);
  for (const auto& use : inferred_split_outputs(equation)) {
    const Pat& axis_pat = use.split->args[0];
    const std::int64_t axis =
        axis_pat.kind == Pat::Kind::kVar ? binding.values[axis_pat.var].at(0) : axis_pat.value;
    const tensor::Shape& shape = lhs.type_of(lhs.outputs().at(use.root).tensor).shape;
    if (axis < 0 || axis >= static_cast<std::int64_t>(shape.size()))
      throw Error("a split's axis is outside the replaced root's rank");
    auto& sizes = builder.inferred_sizes[use.key];
    if (sizes.size() <= use.output) sizes.resize(use.output + 1, 0);
    sizes[use.output] = shape[static_cast<std::size_t>(axis)];
  }
  return std::move(builder).build(equation.rhs);
}

}  // namespace mctsat::verify
