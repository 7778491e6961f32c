// Bottom-up enumeration of hash-consed terms (see term_enumeration.hpp).
#include "verify/term_enumeration.hpp"

#include <algorithm>
#include <map>

#include "dsl/printer.hpp"
#include "support/error.hpp"
#include "tensor/graph_builder.hpp"

namespace mctsat::verify {
namespace {

// The distinct operator subterms of the arguments, sorted.
std::vector<TermId> operators_of(const std::vector<GraphTerm>& terms,
                                 const std::vector<TermId>& args) {
  std::vector<TermId> all;
  for (TermId a : args) all.insert(all.end(), terms[a].operators.begin(), terms[a].operators.end());
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  return all;
}

dsl::Term attribute_term(const tensor::Attr& attr) {
  dsl::Term t;
  if (const auto* i = std::get_if<std::int64_t>(&attr)) {
    t.kind = dsl::Term::Kind::kInt;
    t.int_value = *i;
  } else if (const auto* list = std::get_if<std::vector<std::int64_t>>(&attr)) {
    t.kind = dsl::Term::Kind::kList;
    t.list = *list;
  } else {
    t.kind = dsl::Term::Kind::kFloat;
    t.float_value = std::get<double>(attr);
  }
  return t;
}

}  // namespace

TermPool::TermPool(const SynthesisVocabulary& vocabulary) : vocabulary_(vocabulary) {
  if (vocabulary.variables.size() > 64) throw Error("synthesis takes at most 64 variables");
  for (std::size_t v = 0; v < vocabulary.variables.size(); ++v) {
    GraphTerm t;
    t.variable = v;
    t.variables = std::uint64_t{1} << v;
    terms_.push_back(std::move(t));
  }
}

std::vector<TermId> TermPool::grow(std::size_t ops, const std::vector<TermId>& usable,
                                   std::size_t limit, bool& truncated) {
  std::vector<TermId> added;
  if (ops == 0) return added;
  const std::size_t budget = ops - 1;  // operators the arguments hold together
  std::vector<TermId> args;
  for (std::size_t c = 0; c < vocabulary_.choices.size() && !truncated; ++c) {
    const std::size_t arity = vocabulary_.choices[c].arity;
    // Depth-first over argument positions; `sum` bounds the union's size from above.
    auto extend = [&](auto&& self, std::size_t sum) -> void {
      if (truncated) return;
      if (args.size() == arity) {
        if (sum < budget) return;
        std::vector<TermId> operators = operators_of(terms_, args);
        if (operators.size() != budget) return;
        GraphTerm t;
        t.choice = c;
        t.args = args;
        for (TermId a : args) t.variables |= terms_[a].variables;
        const auto id = static_cast<TermId>(terms_.size());
        operators.push_back(id);  // larger than every earlier id: stays sorted
        t.operators = std::move(operators);
        terms_.push_back(std::move(t));
        added.push_back(id);
        if (added.size() >= limit) truncated = true;
        return;
      }
      const std::size_t remaining = arity - args.size() - 1;
      for (TermId a : usable) {
        const std::size_t n = terms_[a].ops();
        if (n > budget) continue;
        // The rest can add at most `remaining * budget` operators.
        if (sum + n + remaining * budget < budget) continue;
        args.push_back(a);
        self(self, sum + n);
        args.pop_back();
        if (truncated) return;
      }
    };
    extend(extend, 0);
  }
  return added;
}

TermId TermPool::apply(std::size_t choice, const std::vector<TermId>& args) {
  if (vocabulary_.choices.at(choice).arity != args.size())
    throw Error("TermPool::apply: wrong number of arguments");
  GraphTerm t;
  t.choice = choice;
  t.args = args;
  for (TermId a : args) t.variables |= terms_.at(a).variables;
  t.operators = operators_of(terms_, args);
  const auto id = static_cast<TermId>(terms_.size());
  t.operators.push_back(id);  // larger than every earlier id: stays sorted
  terms_.push_back(std::move(t));
  return id;
}

dsl::Term TermPool::dsl_term(TermId id) const {
  const GraphTerm& t = terms_.at(id);
  dsl::Term out;
  if (t.choice == GraphTerm::kVariable) {
    out.kind = dsl::Term::Kind::kVar;
    out.name = vocabulary_.variables[t.variable].name;
    return out;
  }
  const OperatorChoice& choice = vocabulary_.choices[t.choice];
  const tensor::OpSignature& sig = tensor::signature(choice.op);
  out.kind = dsl::Term::Kind::kApply;
  out.name = std::string(sig.name);
  std::size_t next_arg = 0, next_attr = 0;
  for (const tensor::Param& param : sig.params) {
    if (param.kind != tensor::ParamKind::kTensor) {
      out.args.push_back(attribute_term(choice.attrs.at(next_attr++)));
    } else if (param.variadic) {
      while (next_arg < t.args.size()) out.args.push_back(dsl_term(t.args[next_arg++]));
    } else {
      out.args.push_back(dsl_term(t.args.at(next_arg++)));
    }
  }
  return out;
}

std::string TermPool::text(TermId id) const {
  return dsl::format_term(dsl_term(id));
}

tensor::Graph TermPool::graph(TermId id, std::size_t instance) const {
  tensor::GraphBuilder builder;
  std::map<TermId, tensor::TensorRef> built;
  auto build = [&](auto&& self, TermId at) -> tensor::TensorRef {
    if (const auto found = built.find(at); found != built.end()) return found->second;
    const GraphTerm& t = terms_[at];
    tensor::TensorRef ref;
    if (t.choice == GraphTerm::kVariable) {
      ref = builder.input(vocabulary_.variables[t.variable].name,
                          vocabulary_.shape(t.variable, instance));
    } else {
      std::vector<tensor::TensorRef> inputs;
      for (TermId a : t.args) inputs.push_back(self(self, a));
      const OperatorChoice& choice = vocabulary_.choices[t.choice];
      ref = builder.add1(choice.op, std::move(inputs), choice.attrs);
    }
    built.emplace(at, ref);
    return ref;
  };
  builder.output("out", build(build, id));
  return std::move(builder).finish();
}

}  // namespace mctsat::verify
