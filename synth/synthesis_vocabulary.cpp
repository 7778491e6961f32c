// The operators, attribute domains and symbolic variables of rule synthesis (see
// synthesis_vocabulary.hpp).
#include "synth/synthesis_vocabulary.hpp"

#include <algorithm>
#include <functional>
#include <numeric>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "support/error.hpp"

namespace mctsat::synth {
namespace {

using tensor::Op;

std::vector<std::string> comma_separated(const std::string& text) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, ',');) {
    part.erase(0, part.find_first_not_of(" \t"));
    part.erase(part.find_last_not_of(" \t") + 1);
    parts.push_back(part);
  }
  return parts;
}

bool is_number(const std::string& text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool is_symbol(const std::string& text) {
  return !text.empty() && !(text[0] >= '0' && text[0] <= '9') &&
         std::all_of(text.begin(), text.end(), [](char c) {
           return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  c == '_';
         });
}

std::int64_t positive(const std::string& text, const std::string& context) {
  if (!is_number(text) || text.size() > 6 || std::stoll(text) < 1)
    throw Error(fmt::format("{}: '{}' is not a positive dimension", context, text));
  return std::stoll(text);
}

SynthesisVariable parse_variable(const std::string& spec) {
  const auto colon = spec.find(':');
  const std::string context = fmt::format("--shapes '{}'", spec);
  if (colon == std::string::npos) throw Error(context + ": expected NAME:DIM,DIM,... (e.g. x:n,n)");
  SynthesisVariable v;
  v.name = spec.substr(0, colon);
  if (!v.name.empty() && v.name[0] == '?') v.name.erase(0, 1);
  if (!is_symbol(v.name))
    throw Error(fmt::format("{}: '{}' is not a variable name", context, v.name));
  for (const std::string& dim : comma_separated(spec.substr(colon + 1))) {
    if (is_symbol(dim))
      v.dims.push_back({dim, 0});
    else
      v.dims.push_back({"", positive(dim, context)});
  }
  if (v.dims.empty() || v.dims.size() > 4)
    throw Error(fmt::format("{}: a variable has 1 to 4 dimensions", context));
  return v;
}

// The transposes enumerated for a rank: every non-identity permutation up to rank 3; for rank 4,
// those swapping two axes (6 rather than 23).
std::vector<std::vector<std::int64_t>> permutations(std::size_t rank) {
  std::vector<std::int64_t> perm(rank);
  std::iota(perm.begin(), perm.end(), 0);
  std::vector<std::vector<std::int64_t>> out;
  while (std::next_permutation(perm.begin(), perm.end())) {
    std::size_t moved = 0;
    for (std::size_t i = 0; i < rank; ++i) moved += perm[i] != static_cast<std::int64_t>(i);
    if (rank <= 3 || moved == 2) out.push_back(perm);
  }
  return out;
}

// Cartesian product of per-attribute value lists.
std::vector<tensor::Attrs> product(const std::vector<std::vector<tensor::Attr>>& domains) {
  std::vector<tensor::Attrs> out{{}};
  for (const auto& domain : domains) {
    std::vector<tensor::Attrs> next;
    for (const auto& prefix : out)
      for (const auto& value : domain) {
        next.push_back(prefix);
        next.back().push_back(value);
      }
    out = std::move(next);
  }
  return out;
}

std::vector<tensor::Attrs> attribute_choices(Op op, const std::vector<std::int64_t>& acts,
                                             const std::set<std::size_t>& ranks) {
  std::vector<tensor::Attr> act_values(acts.begin(), acts.end());
  switch (op) {
    case Op::kMatmul:
      return product({act_values});
    case Op::kConv2d: {
      std::vector<tensor::Attrs> out;
      for (std::int64_t stride : {1, 2})
        for (std::int64_t pad : {0, 1})
          for (std::int64_t act : acts) out.push_back({stride, stride, pad, act});
      return out;
    }
    case Op::kPoolMax:
    case Op::kPoolAvg: {
      std::vector<tensor::Attrs> out;
      for (std::int64_t stride : {1, 2})
        for (std::int64_t pad : {0, 1})
          out.push_back({std::int64_t{3}, std::int64_t{3}, stride, stride, pad, std::int64_t{0}});
      return out;
    }
    case Op::kTranspose: {
      std::vector<tensor::Attrs> out;
      for (std::size_t rank : ranks)
        for (auto& perm : permutations(rank)) out.push_back({std::move(perm)});
      return out;
    }
    case Op::kConcat: {
      std::vector<tensor::Attrs> out;
      for (std::size_t rank : ranks)
        for (std::size_t axis = 0; axis < rank; ++axis)
          out.push_back({static_cast<std::int64_t>(axis), static_cast<std::int64_t>(rank)});
      return out;
    }
    case Op::kSoftmax: {
      std::vector<tensor::Attrs> out;
      std::set<std::int64_t> axes;
      for (std::size_t rank : ranks)
        for (std::size_t axis = 0; axis < rank; ++axis)
          axes.insert(static_cast<std::int64_t>(axis));
      for (std::int64_t axis : axes) out.push_back({axis});
      return out;
    }
    case Op::kFlatten: {
      std::vector<tensor::Attrs> out;
      std::set<std::int64_t> axes;
      for (std::size_t rank : ranks)
        for (std::size_t axis = 1; axis < rank; ++axis)
          axes.insert(static_cast<std::int64_t>(axis));
      for (std::int64_t axis : axes) out.push_back({axis});
      return out;
    }
    case Op::kMerge:
      return {{std::int64_t{2}}};
    case Op::kClip:
      return {{0.0, 6.0}};
    case Op::kLayerNorm:
      return {{1e-5}};
    case Op::kGelu:
      return {{std::int64_t{0}}, {std::int64_t{1}}};
    case Op::kEwAdd:
    case Op::kEwMul:
    case Op::kEwSub:
    case Op::kEwDiv:
    case Op::kSmul:
    case Op::kRelu:
    case Op::kTanh:
    case Op::kSigmoid:
    case Op::kDropout:
    case Op::kIdentity:
    case Op::kEnlarge:
    case Op::kGlobalAvgPool:
    case Op::kBatchNorm:
      return {{}};  // no attributes
    case Op::kInput:
    case Op::kWeight:
    case Op::kReshape:
    case Op::kSplit:
    case Op::kAttention:
    case Op::kNoop:
    case Op::kOpaque:
      break;  // not synthesizable (synthesizable_ops)
  }
  throw Error(fmt::format("synthesis does not enumerate operator {}", tensor::op_name(op)));
}

}  // namespace

std::vector<tensor::Op> synthesizable_ops() {
  std::vector<Op> out;
  for (const auto& sig : tensor::all_signatures()) {
    switch (sig.op) {
      case Op::kInput:
      case Op::kWeight:
      case Op::kReshape:  // the target shape depends on the input's
      case Op::kSplit:    // several outputs
      case Op::kAttention:  // four operands: their tuples would dominate the enumeration
      case Op::kNoop:
      case Op::kOpaque:
        continue;
      case Op::kMatmul:
      case Op::kConv2d:
      case Op::kEwAdd:
      case Op::kEwMul:
      case Op::kEwSub:
      case Op::kEwDiv:
      case Op::kSmul:
      case Op::kRelu:
      case Op::kTanh:
      case Op::kSigmoid:
      case Op::kDropout:
      case Op::kIdentity:
      case Op::kTranspose:
      case Op::kFlatten:
      case Op::kEnlarge:
      case Op::kPoolMax:
      case Op::kPoolAvg:
      case Op::kGlobalAvgPool:
      case Op::kConcat:
      case Op::kMerge:
      case Op::kBatchNorm:
      case Op::kSoftmax:
      case Op::kClip:
      case Op::kLayerNorm:
      case Op::kGelu:
        out.push_back(sig.op);
        continue;
    }
  }
  return out;
}

tensor::Shape SynthesisVocabulary::shape(std::size_t variable, std::size_t instance) const {
  tensor::Shape shape;
  for (const auto& dim : variables.at(variable).dims)
    shape.push_back(dim.symbol.empty() ? dim.size : instances.at(instance).at(dim.symbol));
  return shape;
}

std::size_t SynthesisVocabulary::find_variable(const std::string& name) const {
  for (std::size_t v = 0; v < variables.size(); ++v)
    if (variables[v].name == name) return v;
  throw Error(fmt::format("no synthesis variable '{}'", name));
}

bool SynthesisVocabulary::has_parameters() const {
  return std::any_of(variables.begin(), variables.end(),
                     [](const SynthesisVariable& v) { return v.parameter; });
}

bool roles_fit(Op op, const std::vector<bool>& parameter_args) {
  const auto& a = parameter_args;
  switch (op) {
    case Op::kConv2d:
      return !a.at(0) && a.at(1);
    case Op::kEnlarge:
      return a.at(0) && a.at(1);
    case Op::kMerge:
      return a.at(0);
    case Op::kLayerNorm:
      return !a.at(0) && a.at(1) && a.at(2);
    case Op::kPoolMax:
    case Op::kPoolAvg:
    case Op::kGlobalAvgPool:
      return !a.at(0);
    case Op::kMatmul:
    case Op::kEwAdd:
    case Op::kEwMul:
    case Op::kEwSub:
    case Op::kEwDiv:
    case Op::kSmul:
    case Op::kRelu:
    case Op::kTanh:
    case Op::kSigmoid:
    case Op::kDropout:
    case Op::kIdentity:
    case Op::kTranspose:
    case Op::kReshape:
    case Op::kFlatten:
    case Op::kConcat:
    case Op::kSplit:
    case Op::kBatchNorm:
    case Op::kSoftmax:
    case Op::kClip:
    case Op::kGelu:
    case Op::kAttention:
    case Op::kInput:
    case Op::kWeight:
    case Op::kNoop:
    case Op::kOpaque:
      break;
  }
  // Every argument in the same role: all activations or all parameters.
  return std::adjacent_find(a.begin(), a.end(), std::not_equal_to<>()) == a.end();
}

SynthesisVocabulary make_vocabulary(const std::vector<std::string>& ops,
                                    const std::vector<std::string>& shapes,
                                    const std::vector<std::string>& dims,
                                    const std::vector<std::string>& weights) {
  SynthesisVocabulary vocabulary;
  const auto supported = synthesizable_ops();
  for (const std::string& list : ops)
    for (const std::string& name : comma_separated(list)) {
      const auto op = tensor::find_op(name);
      if (!op) throw Error(fmt::format("--ops: unknown operator '{}'", name));
      if (std::find(supported.begin(), supported.end(), *op) == supported.end())
        throw Error(
            fmt::format("--ops: synthesis does not enumerate '{}' (its attributes depend "
                        "on its input's shape, or it has several outputs)",
                        name));
      if (std::find(vocabulary.ops.begin(), vocabulary.ops.end(), *op) == vocabulary.ops.end())
        vocabulary.ops.push_back(*op);
    }
  if (vocabulary.ops.empty()) throw Error("--ops: no operator given");

  std::set<std::string> symbols;
  for (const std::string& spec : shapes) {
    vocabulary.variables.push_back(parse_variable(spec));
    for (const auto& v : vocabulary.variables)
      if (&v != &vocabulary.variables.back() && v.name == vocabulary.variables.back().name)
        throw Error(fmt::format("--shapes: variable '{}' declared twice", v.name));
    for (const auto& d : vocabulary.variables.back().dims)
      if (!d.symbol.empty()) symbols.insert(d.symbol);
  }
  if (vocabulary.variables.empty()) throw Error("--shapes: no variable given");
  for (const std::string& list : weights)
    for (const std::string& name : comma_separated(list)) {
      const auto v = std::find_if(vocabulary.variables.begin(), vocabulary.variables.end(),
                                  [&](const SynthesisVariable& var) { return var.name == name; });
      if (v == vocabulary.variables.end())
        throw Error(fmt::format("--weights: '{}' is not a variable of --shapes", name));
      v->parameter = true;
    }

  std::map<std::string, std::vector<std::int64_t>> values;
  std::size_t count = 1;
  for (const std::string& spec : dims) {
    const auto eq = spec.find('=');
    const std::string context = fmt::format("--dims '{}'", spec);
    if (eq == std::string::npos) throw Error(context + ": expected SYMBOL=V1,V2,... (e.g. n=2,3)");
    const std::string symbol = spec.substr(0, eq);
    if (!symbols.count(symbol))
      throw Error(fmt::format("{}: no shape in --shapes uses '{}'", context, symbol));
    auto& list = values[symbol];
    for (const std::string& v : comma_separated(spec.substr(eq + 1)))
      list.push_back(positive(v, context));
    if (list.size() > 1) {
      if (count > 1 && list.size() != count)
        throw Error(
            fmt::format("{}: {} values, but another symbol has {}", context, list.size(), count));
      count = list.size();
    }
  }
  for (const std::string& symbol : symbols)
    if (!values.count(symbol))
      throw Error(fmt::format("--dims: no values for shape symbol '{}'", symbol));
  for (std::size_t i = 0; i < count; ++i) {
    std::map<std::string, std::int64_t> instance;
    for (const auto& [symbol, list] : values)
      instance[symbol] = list.size() == 1 ? list[0] : list[i];
    vocabulary.instances.push_back(std::move(instance));
  }

  std::vector<std::int64_t> acts{0};
  auto chosen = [&](Op op) {
    return std::find(vocabulary.ops.begin(), vocabulary.ops.end(), op) != vocabulary.ops.end();
  };
  if (chosen(Op::kSigmoid)) acts.push_back(1);
  if (chosen(Op::kRelu)) acts.push_back(2);
  if (chosen(Op::kTanh)) acts.push_back(3);
  std::set<std::size_t> ranks;
  for (const auto& v : vocabulary.variables) ranks.insert(v.dims.size());
  for (Op op : vocabulary.ops) {
    const auto& sig = tensor::signature(op);
    const std::size_t arity = sig.variadic() ? 2 : sig.tensor_count();
    for (auto& attrs : attribute_choices(op, acts, ranks))
      vocabulary.choices.push_back({op, std::move(attrs), arity});
  }
  return vocabulary;
}

}  // namespace mctsat::synth
