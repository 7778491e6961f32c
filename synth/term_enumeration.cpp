// Bottom-up enumeration of hash-consed terms (see term_enumeration.hpp).
#include "synth/term_enumeration.hpp"

#include <algorithm>
#include <iterator>
#include <map>
#include <set>
#include <unordered_map>

#include "dsl/printer.hpp"
#include "support/error.hpp"
#include "support/stable_hash.hpp"
#include "tensor/graph_builder.hpp"

namespace mctsat::synth {
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

// What a term applying an operator to `args` inherits from them: the variables that occur, and
// whether it is a parameter term (all its arguments are).
void inherit(const std::vector<GraphTerm>& terms, GraphTerm& t) {
  t.parameter = true;
  for (TermId a : t.args) {
    t.variables |= terms.at(a).variables;
    t.parameter = t.parameter && terms.at(a).parameter;
  }
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

// Where the arguments of new terms come from: for the operators the arguments chosen so far hold
// together (`taken`, sorted), the positions in `usable` of the terms that may come next, i.e.
// whose operators outside `taken` number at most `budget - |taken|` ("free"). Those are the terms
// of at most `free` operators, and the terms that share operators with `taken`: the latter are
// built from `taken` and the variables by at most `free` more operators, so they are found by
// looking up operator applications on that growing set, `free` rounds of it. Positions come in
// increasing order, so terms are made in the order of a plain scan of `usable`.
class ArgumentCandidates {
 public:
  ArgumentCandidates(const std::vector<GraphTerm>& terms, const std::vector<TermId>& usable,
                     std::size_t budget, std::vector<std::size_t> arities)
      : terms_(terms), usable_(usable), budget_(budget), arities_(std::move(arities)) {
    at_most_.resize(budget + 1);
    for (std::size_t k = 0; k < usable.size(); ++k) {
      const GraphTerm& t = terms[usable[k]];
      if (t.ops() > budget) continue;
      for (std::size_t f = t.ops(); f <= budget; ++f) at_most_[f].push_back(k);
      if (t.choice == GraphTerm::kVariable) {
        variables_.push_back(k);
        continue;
      }
      std::vector<TermId> key = {static_cast<TermId>(t.choice)};
      key.insert(key.end(), t.args.begin(), t.args.end());
      applications_.emplace(std::move(key), k);
      position_.emplace(usable[k], k);
    }
  }

  const std::vector<std::size_t>& after(const std::vector<TermId>& taken) {
    const auto found = memo_.find(taken);
    if (found != memo_.end()) return found->second;
    const std::size_t free = budget_ - taken.size();
    std::vector<std::size_t> out = at_most_[free];
    if (!taken.empty()) {
      std::set<std::size_t> reached(variables_.begin(), variables_.end());
      for (TermId t : taken) {
        const auto at = position_.find(t);
        if (at == position_.end())
          throw Error("TermPool::grow: an operator subterm of a usable term is not usable");
        reached.insert(at->second);
      }
      for (std::size_t round = 0; round < free; ++round) {
        const std::vector<std::size_t> from(reached.begin(), reached.end());
        std::vector<TermId> key;
        for (std::size_t c = 0; c < arities_.size(); ++c) {
          // Every tuple of `from` of the choice's arity, as a mixed-radix counter.
          const std::size_t arity = arities_[c];
          std::vector<std::size_t> digit(arity, 0);
          while (true) {
            key.assign(1, static_cast<TermId>(c));
            for (std::size_t d : digit) key.push_back(usable_[from[d]]);
            if (const auto hit = applications_.find(key); hit != applications_.end() &&
                                                          !reached.count(hit->second) &&
                                                          outside(taken, hit->second) <= free)
              reached.insert(hit->second);
            std::size_t i = 0;
            while (i < arity && ++digit[i] == from.size()) digit[i++] = 0;
            if (i == arity) break;
          }
        }
      }
      for (std::size_t k : reached)
        if (terms_[usable_[k]].ops() > free) out.push_back(k);
      std::sort(out.begin(), out.end());
    }
    return memo_.emplace(taken, std::move(out)).first->second;
  }

 private:
  // How many operators of the term at `position` are not in `taken`.
  std::size_t outside(const std::vector<TermId>& taken, std::size_t position) const {
    const auto& ops = terms_[usable_[position]].operators;
    std::size_t n = 0;
    for (TermId o : ops) n += !std::binary_search(taken.begin(), taken.end(), o);
    return n;
  }

  struct KeyHash {
    std::size_t operator()(const std::vector<TermId>& key) const {
      std::uint64_t h = 0;
      for (TermId t : key) h = hash_combine(h, t);
      return static_cast<std::size_t>(h);
    }
  };
  const std::vector<GraphTerm>& terms_;
  const std::vector<TermId>& usable_;
  std::size_t budget_;
  std::vector<std::size_t> arities_;               // of each operator choice
  std::vector<std::vector<std::size_t>> at_most_;  // [f]: positions of terms of <= f operators
  std::vector<std::size_t> variables_;             // positions of variables
  std::unordered_map<std::vector<TermId>, std::size_t, KeyHash> applications_;  // choice, args
  std::unordered_map<TermId, std::size_t> position_;  // operator term -> position
  std::map<std::vector<TermId>, std::vector<std::size_t>> memo_;
};

}  // namespace

TermPool::TermPool(const SynthesisVocabulary& vocabulary) : vocabulary_(vocabulary) {
  if (vocabulary.variables.size() > 64) throw Error("synthesis takes at most 64 variables");
  for (std::size_t v = 0; v < vocabulary.variables.size(); ++v) {
    GraphTerm t;
    t.variable = v;
    t.variables = std::uint64_t{1} << v;
    t.parameter = vocabulary.variables[v].parameter;
    terms_.push_back(std::move(t));
  }
}

Growth TermPool::grow(std::size_t ops, const std::vector<TermId>& usable, std::size_t limit) {
  Growth out;
  if (ops == 0) return out;
  const std::size_t budget = ops - 1;  // operators the arguments hold together
  std::vector<std::size_t> arities;
  for (const OperatorChoice& choice : vocabulary_.choices) arities.push_back(choice.arity);
  ArgumentCandidates candidates(terms_, usable, budget, std::move(arities));
  const bool roles = vocabulary_.has_parameters();
  std::vector<bool> parameter_args;
  // Whether the vocabulary lets choice `c` apply to `args`.
  auto allowed = [&](std::size_t c, const std::vector<TermId>& args) {
    if (vocabulary_.distinct_arguments)
      for (std::size_t i = 0; i < args.size(); ++i)
        if (std::find(args.begin(), args.begin() + i, args[i]) != args.begin() + i) return false;
    if (!roles) return true;
    parameter_args.clear();
    for (TermId a : args) parameter_args.push_back(terms_[a].parameter);
    return roles_fit(vocabulary_.choices[c].op, parameter_args);
  };
  // Visits every argument tuple that fits, in order: (choice, argument tuple) to `leaf`.
  std::vector<TermId> args;
  auto each = [&](auto&& leaf) {
    for (std::size_t c = 0; c < vocabulary_.choices.size(); ++c) {
      const std::size_t arity = vocabulary_.choices[c].arity;
      // Depth-first over argument positions; `taken`: the operators of the arguments so far.
      auto extend = [&](auto&& self, const std::vector<TermId>& taken) -> void {
        if (args.size() == arity) {
          if (taken.size() == budget && allowed(c, args)) leaf(c, taken);
          return;
        }
        const std::size_t remaining = arity - args.size() - 1;
        std::vector<TermId> merged;
        for (std::size_t k : candidates.after(taken)) {
          const TermId a = usable[k];
          const auto& operators = terms_[a].operators;
          merged.clear();
          std::set_union(taken.begin(), taken.end(), operators.begin(), operators.end(),
                         std::back_inserter(merged));
          // Too many already, or the rest can add at most `remaining * budget` operators.
          if (merged.size() > budget || merged.size() + remaining * budget < budget) continue;
          args.push_back(a);
          self(self, merged);
          args.pop_back();
        }
      };
      extend(extend, {});
    }
  };
  each([&](std::size_t, const std::vector<TermId>&) { ++out.fitting; });
  // Term i of the enumeration is made when the evenly spaced sequence of `limit` of them
  // reaches a new value at it: all when they fit, else `limit` spread over every choice.
  const std::size_t kept = std::min(limit, out.fitting);
  std::size_t index = 0;
  each([&](std::size_t c, const std::vector<TermId>& taken) {
    const std::size_t i = index++;
    if ((i + 1) * kept / out.fitting == i * kept / out.fitting) return;
    GraphTerm t;
    t.choice = c;
    t.args = args;
    inherit(terms_, t);
    const auto id = static_cast<TermId>(terms_.size());
    t.operators = taken;
    t.operators.push_back(id);  // larger than every earlier id: stays sorted
    terms_.push_back(std::move(t));
    out.ids.push_back(id);
  });
  return out;
}

TermId TermPool::apply(std::size_t choice, const std::vector<TermId>& args) {
  if (vocabulary_.choices.at(choice).arity != args.size())
    throw Error("TermPool::apply: wrong number of arguments");
  GraphTerm t;
  t.choice = choice;
  t.args = args;
  inherit(terms_, t);
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

}  // namespace mctsat::synth
