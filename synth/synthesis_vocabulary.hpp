// What rule synthesis enumerates over: the chosen operators with the attribute values each may
// take (small domains: strides, paddings, activations, axes, permutations), and the tensor
// variables with symbolic shapes ("x:n,n"), instantiated over several shape assignments
// ("n=2,3": one instance per position of the lists). Parsing the user's spellings of both, with
// errors that name the offending text.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "tensor/attr.hpp"
#include "tensor/op.hpp"
#include "tensor/tensor_type.hpp"

namespace mctsat::synth {

// One dimension of a symbolic shape: a symbol ("n") or a literal size.
struct SymbolicDim {
  std::string symbol;  // empty: the literal `size`
  std::int64_t size = 0;
  friend bool operator==(const SymbolicDim&, const SymbolicDim&) = default;
};

struct SynthesisVariable {
  std::string name;  // without '?'
  std::vector<SymbolicDim> dims;
  bool parameter = false;  // a weight (--weights), not data
};

// One way an operator may appear: its attribute values, and how many tensor arguments it takes
// (a variadic concat takes two).
struct OperatorChoice {
  tensor::Op op;
  tensor::Attrs attrs;  // in signature order of the attribute parameters
  std::size_t arity = 0;
};

struct SynthesisVocabulary {
  std::vector<tensor::Op> ops;  // in the order given, without repeats
  std::vector<SynthesisVariable> variables;
  std::vector<std::map<std::string, std::int64_t>> instances;  // symbol values, per instance
  std::vector<OperatorChoice> choices;                         // every operator with its attrs
  bool distinct_arguments = false;  // an operator's tensor arguments are distinct terms

  // Whether some variable is a parameter: then the terms respect roles (roles_fit).
  bool has_parameters() const;

  // The concrete shape of `variable` in instance `instance`.
  tensor::Shape shape(std::size_t variable, std::size_t instance) const;
  std::size_t find_variable(const std::string& name) const;  // index; throws when unknown
};

// Roles, as TASO's rule generator has them, when some variables are parameters (weights): a
// parameter term is a parameter variable or an operator applied to parameter terms only; every
// other term is data. Whether `op` may take arguments of these roles (true: a parameter term):
// a convolution convolves data with a parameter kernel, enlarge pads a parameter kernel to a
// parameter kernel's size, merge takes a parameter, pools take data; every other operator takes
// arguments of one role (no elementwise operator or concat mixes data with parameters).
bool roles_fit(tensor::Op op, const std::vector<bool>& parameter_args);

// Builds the vocabulary. `ops`: operator names (DSL spelling; comma-separated lists allowed).
// `shapes`: "name:dim,dim,..." with dims symbols or positive integers. `dims`: "symbol=v1,v2,..."
// for every symbol the shapes use; lists of one value apply to every instance, the others must
// have equal lengths. Activation domains follow the operators chosen (0, plus 2 with relu, 1 with
// sigmoid, 3 with tanh); axes and permutations follow the variables' ranks (every permutation up
// to rank 3, axis swaps for rank 4); convolutions and pools take strides 1 and 2 and SAME or
// VALID padding (pools a 3x3 window), concat two inputs, merge a count of 2, clip [0, 6]. Throws
// mctsat::Error naming what is wrong (an unknown or unsupported operator, a malformed shape or
// dimension). `weights`: the names of the variables that are parameters (comma-separated lists
// allowed; unknown names throw).
SynthesisVocabulary make_vocabulary(const std::vector<std::string>& ops,
                                    const std::vector<std::string>& shapes,
                                    const std::vector<std::string>& dims,
                                    const std::vector<std::string>& weights = {});

// The operators synthesis supports (every catalog operator with one output whose attributes have
// small finite domains).
std::vector<tensor::Op> synthesizable_ops();

}  // namespace mctsat::synth
