// Numeric testing of equations with the reference interpreter (see numeric_check.hpp).
#include "verify/numeric_check.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "support/error.hpp"
#include "support/random_draws.hpp"
#include "tensor/interpreter.hpp"
#include "verify/binding.hpp"
#include "verify/equation_graph.hpp"
#include "verify/sample_cache.hpp"
#include "verify/symbolic_equation.hpp"
#include "verify/z3_smt_core.hpp"

namespace mctsat::verify {
namespace {

struct Difference {
  double largest = 0;   // absolute
  double relative = 0;  // to the largest magnitude of the left-hand side's outputs
  std::size_t output = 0;
  std::size_t element = 0;     // row-major index of the largest difference in that output
  double left = 0, right = 0;  // the two sides' values there
  std::string shape_mismatch;
};

// A tensor's values nested as its shape ("[[1, -2], [0, 3]]") when it holds at most
// kShownElements values; otherwise its first kShownElements in row-major order ("1, -2, 0, 3,
// ... (36 values)"), so that a counterexample shows every input.
constexpr std::size_t kShownElements = 12;
std::string values_text(const tensor::Tensor& t) {
  if (t.data.size() > kShownElements) {
    std::vector<std::string> first;
    for (std::size_t i = 0; i < kShownElements; ++i) first.push_back(fmt::format("{:g}", t.data[i]));
    return fmt::format("{}, ... ({} values)", fmt::join(first, ", "), t.data.size());
  }
  std::size_t next = 0;
  auto nested = [&](auto& self, std::size_t axis) -> std::string {
    if (axis == t.shape.size()) return fmt::format("{:g}", t.data[next++]);
    std::vector<std::string> parts;
    for (std::int64_t i = 0; i < t.shape[axis]; ++i) parts.push_back(self(self, axis + 1));
    return fmt::format("[{}]", fmt::join(parts, ", "));
  };
  return nested(nested, 0);
}

// The multi-index "[1, 0, 2]" of row-major element `flat` of `shape`.
std::string index_text(const tensor::Shape& shape, std::size_t flat) {
  std::vector<std::int64_t> index(shape.size());
  for (std::size_t axis = shape.size(); axis-- > 0;) {
    const auto dim = static_cast<std::size_t>(std::max<std::int64_t>(shape[axis], 1));
    index[axis] = static_cast<std::int64_t>(flat % dim);
    flat /= dim;
  }
  return fmt::format("[{}]", fmt::join(index, ", "));
}

// "; inputs ?x = [[1, 2]], ?y = [3]", or "" without inputs.
std::string inputs_text(const std::map<std::string, tensor::Tensor>& inputs) {
  std::vector<std::string> shown;
  for (const auto& [name, value] : inputs)
    shown.push_back(fmt::format("?{} = {}", name, values_text(value)));
  return shown.empty() ? "" : fmt::format("; inputs {}", fmt::join(shown, "; "));
}

Difference compare(const std::vector<tensor::Tensor>& a, const std::vector<tensor::Tensor>& b) {
  Difference d;
  for (std::size_t o = 0; o < a.size() && o < b.size(); ++o) {
    if (a[o].shape != b[o].shape) {
      d.shape_mismatch =
          fmt::format("output {} has shape {} on the left, {} on the right", o,
                      tensor::shape_string(a[o].shape), tensor::shape_string(b[o].shape));
      return d;
    }
    double scale = 0;
    for (double v : a[o].data) scale = std::max(scale, std::abs(v));
    for (std::size_t i = 0; i < a[o].data.size(); ++i) {
      const double diff = std::abs(a[o].data[i] - b[o].data[i]);
      const double rel = std::isnan(diff) ? INFINITY
                         : scale > 0      ? diff / scale
                         : diff > 0       ? INFINITY
                                          : 0.0;
      if (std::isnan(diff) || diff > d.largest) {
        d.largest = std::isnan(diff) ? INFINITY : diff;
        d.output = o;
        d.element = i;
        d.left = a[o].data[i];
        d.right = b[o].data[i];
      }
      d.relative = std::max(d.relative, rel);
    }
  }
  return d;
}

// Small integers in [-3, 3], one stream per input.
std::map<std::string, tensor::Tensor> integer_inputs(const tensor::Graph& graph,
                                                     std::uint64_t seed) {
  std::map<std::string, tensor::Tensor> inputs;
  std::uint64_t stream = 0;
  for (const auto& node : graph.nodes()) {
    if (node.op != tensor::Op::kInput) continue;
    std::mt19937_64 random(seed * 0x9E3779B97F4A7C15ull + ++stream);
    tensor::Tensor t(node.outputs.at(0).shape);
    for (double& v : t.data) v = static_cast<double>(static_cast<std::int64_t>(random() % 7) - 3);
    inputs.emplace(node.name, std::move(t));
  }
  return inputs;
}

// Two of a candidate's values (indices into all_values).
using ValuePair = std::pair<std::size_t, std::size_t>;

// One rank combination under which both sides can be evaluated, and the assignments taken so far.
struct Candidate {
  std::unique_ptr<SymbolicEquation> symbolic;
  std::vector<std::vector<std::int64_t>> taken;  // every value, per assignment
  bool exhausted = false;
  std::vector<ValuePair> always_equal;  // the pairs equal in every assignment taken
  std::string problem;                  // the selection problem's text, for the sample cache
};

std::vector<z3::expr> all_values(const SymbolicEquation& s) {
  std::vector<z3::expr> out;
  for (std::size_t v = 0; v < s.equation().vars.size(); ++v)
    for (const auto& t : s.values(static_cast<dsl::VarIndex>(v))) out.push_back(t);
  return out;
}

// What Z3 must satisfy: both sides well-formed with equal shapes, the condition; then the values.
// Simplified (constraints on literal attributes, e.g. a fused activation's range, become true
// and are left out), so that equations whose shapes are constrained alike pose one problem.
z3::expr_vector selection_problem(const SymbolicEquation& s) {
  z3::expr_vector out(s.where.ctx());
  auto add = [&](const z3::expr& e) {
    const z3::expr simple = e.simplify();
    if (!simple.is_true()) out.push_back(simple);
  };
  for (const auto& e : s.domain) add(e);
  for (const auto& e : s.lhs_constraints) add(e);
  for (const auto& e : s.rhs_constraints) add(e);
  add(s.where);
  add(s.shapes_equal());
  for (const auto& v : all_values(s)) out.push_back(v);
  return out;
}

std::vector<std::int64_t> model_values(const z3::model& model,
                                       const std::vector<z3::expr>& values) {
  std::vector<std::int64_t> out;
  for (const auto& v : values) out.push_back(model.eval(v, true).get_numeral_int64());
  return out;
}

std::vector<ValuePair> equal_pairs(const std::vector<std::int64_t>& values) {
  std::vector<ValuePair> out;
  for (std::size_t a = 0; a < values.size(); ++a)
    for (std::size_t b = a + 1; b < values.size(); ++b)
      if (values[a] == values[b]) out.emplace_back(a, b);
  return out;
}

// At most this many extra Z3 queries per separating assignment.
constexpr std::size_t kSeparationQueries = 8;

// Makes the solver's assignment separate values that every earlier assignment of the candidate
// (or, for its first, the solver's own model) had equal: in a seeded order, each pair still
// equal is required to differ if the constraints allow it, one query each. Rules that hold only
// when two dimensions agree (a convolution's input channels and its kernel's, i.e. ungrouped)
// are refuted this way although Z3's first models make them agree. The values stay within
// `narrow` (an assumption: the bounds of the other samples) while they can; a pair that needs
// larger values (e.g. output channels a multiple of both of two different group counts: 6) is
// separated within the solver's wider bounds, for this one sample.
z3::model separate_values(z3::solver& solver, const z3::expr& narrow, z3::model model,
                          const Candidate& c, const std::vector<z3::expr>& values,
                          std::mt19937_64& random, unsigned rlimit) {
  std::vector<ValuePair> pairs =
      c.taken.empty() ? equal_pairs(model_values(model, values)) : c.always_equal;
  random_shuffle(pairs, random);
  z3::expr_vector within(narrow.ctx());
  within.push_back(narrow);
  std::size_t queries = 0;
  for (const auto& [a, b] : pairs) {
    if (queries == kSeparationQueries) break;
    if (model.eval(values[a] != values[b], true).is_true()) continue;
    ++queries;
    solver.push();
    solver.add(values[a] != values[b]);
    if (auto separated = check_as_default(solver, within, rlimit).model) {
      model = *separated;
      continue;
    }
    if (!within.empty() && queries < kSeparationQueries) {
      ++queries;
      within = z3::expr_vector(narrow.ctx());
      if (auto separated = check_as_default(solver, within, rlimit).model) {
        model = *separated;
        continue;
      }
      within.push_back(narrow);
    }
    solver.pop();
  }
  return model;
}

// Z3's choice of the candidate's next assignment (every value; nullopt when none is left),
// preferring dimensions of at least 2 (ones hide mistakes: a transpose of a 1x1 tensor is
// itself) and, first, a seeded random half of them at least 3 (so that dimensions differ where a
// rule wrongly assumes they are equal). A separating assignment instead makes values differ that
// earlier assignments had equal (separate_values). Solved in a Z3 context of its own, so that
// the choice depends on nothing but the problem, the assignments taken and the random stream.
std::optional<std::vector<std::int64_t>> select_values(const Candidate& c,
                                                       const NumericCheckOptions& options,
                                                       std::mt19937_64& random, bool separating) {
  z3::context z3;
  const z3::expr_vector problem(z3, selection_problem(*c.symbolic));
  const std::size_t value_count = all_values(*c.symbolic).size();
  std::vector<z3::expr> values;
  for (std::size_t k = problem.size() - value_count; k < problem.size(); ++k)
    values.push_back(problem[static_cast<int>(k)]);
  for (int attempt = separating ? 1 : 0; attempt < 3; ++attempt) {
    z3::solver solver = smt_core_solver(z3, options.rlimit);
    for (std::size_t k = 0; k + value_count < problem.size(); ++k)
      solver.add(problem[static_cast<int>(k)]);
    for (const auto& taken : c.taken) {
      z3::expr_vector differs(z3);
      for (std::size_t k = 0; k < values.size(); ++k)
        differs.push_back(values[k] != static_cast<int>(taken[k]));
      solver.add(z3::mk_or(differs));
    }
    // A separating sample may take values up to 2 * max_dim + 2 where it must (separate_values).
    const z3::expr narrow = separating ? z3.bool_const("narrow") : z3.bool_val(true);
    const int wide = static_cast<int>(separating ? 2 * options.max_dim + 2 : options.max_dim);
    for (const auto& v : values) {
      solver.add(v <= wide && v >= -wide);
      solver.add(z3::implies(narrow, v <= static_cast<int>(options.max_dim) &&
                                         v >= -static_cast<int>(options.max_dim)));
      if (attempt < 2) solver.add(v >= 2 || v < 1);
      if (attempt == 0 && random() % 2 == 0) solver.add(v >= 3 || v < 1);
    }
    // Attribute integers may be zero or negative where their operators allow it; tensor
    // dimensions are positive (the domain).
    z3::expr_vector within(z3);
    within.push_back(narrow);
    std::optional<z3::model> model = check_as_default(solver, within, options.rlimit).model;
    if (!model) continue;
    if (separating)
      model = separate_values(solver, narrow, *model, c, values, random, options.rlimit);
    return model_values(*model, values);
  }
  return std::nullopt;
}

// The selection's inputs as text: the sample cache's key.
std::string selection_key(Candidate& c, const NumericCheckOptions& options,
                          const std::mt19937_64& random, bool separating) {
  if (c.problem.empty()) {
    std::ostringstream problem;
    for (const auto& e : selection_problem(*c.symbolic)) problem << e << "\n";
    c.problem = problem.str();
  }
  std::ostringstream key;
  key << c.problem << "\nmax_dim " << options.max_dim << " rlimit " << options.rlimit
      << (separating ? " separating" : "") << "\ntaken";
  for (const auto& taken : c.taken) key << " [" << fmt::format("{}", fmt::join(taken, " ")) << "]";
  key << "\nrandom " << random;
  return key.str();
}

// The candidate's next assignment (select_values, through the cache when there is one), recorded.
std::optional<Binding> next_binding(Candidate& c, const NumericCheckOptions& options,
                                    std::mt19937_64& random, bool separating) {
  std::optional<std::vector<std::int64_t>> values;
  if (options.sample_cache == nullptr) {
    values = select_values(c, options, random, separating);
  } else {
    const std::string key = selection_key(c, options, random, separating);
    if (auto hit = options.sample_cache->find(key)) {
      values = std::move(hit->values);
      random = hit->random_after;
    } else {
      values = select_values(c, options, random, separating);
      options.sample_cache->store(key, {values, random});
    }
  }
  if (!values) {
    c.exhausted = true;
    return std::nullopt;
  }
  if (c.taken.empty()) c.always_equal = equal_pairs(*values);
  std::erase_if(c.always_equal,
                [&](const ValuePair& p) { return (*values)[p.first] != (*values)[p.second]; });
  if (values->empty()) c.exhausted = true;  // the only assignment there is
  c.taken.push_back(*values);
  Binding binding;
  std::size_t k = 0;
  for (std::size_t v = 0; v < c.symbolic->equation().vars.size(); ++v) {
    binding.values.emplace_back();
    for (std::size_t i = 0; i < c.symbolic->values(static_cast<dsl::VarIndex>(v)).size(); ++i)
      binding.values.back().push_back((*values)[k++]);
  }
  return binding;
}

// The rank combinations of `equation` in the seeded order check_numeric tries them.
std::vector<SizeAssignment> shuffled_sizes(const Equation& equation,
                                           const NumericCheckOptions& options) {
  bool truncated = false;
  auto assignments =
      enumerate_sizes(equation, options.max_rank, options.max_assignments, truncated);
  std::mt19937_64 order(options.seed);
  for (std::size_t i = assignments.size(); i > 1; --i)
    std::swap(assignments[i - 1], assignments[order() % i]);
  return assignments;
}

}  // namespace

std::optional<Binding> example_binding(const Equation& equation,
                                       const NumericCheckOptions& options) {
  z3::context z3;
  std::mt19937_64 spread(options.seed * 0x9E3779B97F4A7C15ull + 1);
  StructuralFailures failures;
  for (const auto& sizes : shuffled_sizes(equation, options)) {
    if (failures.excludes(sizes)) continue;
    Candidate candidate{std::make_unique<SymbolicEquation>(z3, equation, sizes), {}, false, {}, {}};
    if (!candidate.symbolic->lhs_error.empty()) failures.add(*candidate.symbolic);
    if (!candidate.symbolic->lhs_error.empty() || !candidate.symbolic->rhs_error.empty()) continue;
    if (auto binding = next_binding(candidate, options, spread, false)) return binding;
  }
  return std::nullopt;
}

CheckResult check_numeric(const Equation& equation, const NumericCheckOptions& options) {
  z3::context z3;
  return check_numeric(equation, options, z3);
}

CheckResult check_numeric(const Equation& equation, const NumericCheckOptions& options,
                          z3::context& z3) {
  const CheckClock clock;
  auto finish = [&](Verdict verdict, std::string detail) {
    return clock.finish(verdict, std::move(detail));
  };

  // A seeded shuffle of the rank combinations, so that samples spread over them; candidates are
  // built lazily (most equations need only the first few).
  const auto assignments = shuffled_sizes(equation, options);
  std::vector<Candidate> candidates;
  std::size_t next_assignment = 0;
  StructuralFailures failures;
  auto next_candidate = [&]() -> Candidate* {
    while (next_assignment < assignments.size()) {
      const SizeAssignment& sizes = assignments[next_assignment++];
      if (failures.excludes(sizes)) continue;
      auto symbolic = std::make_unique<SymbolicEquation>(z3, equation, sizes);
      if (symbolic->lhs_error.empty() && symbolic->rhs_error.empty()) {
        candidates.push_back({std::move(symbolic), {}, false, {}, {}});
        return &candidates.back();
      }
      if (!symbolic->lhs_error.empty()) failures.add(*symbolic);
    }
    return nullptr;
  };

  std::size_t tested = 0;
  std::optional<CheckResult> failure;
  std::mt19937_64 spread(options.seed * 0x9E3779B97F4A7C15ull + 1);
  // Tests the candidate's next assignment; false when it has none. Every second assignment is a
  // separating one.
  auto test = [&](Candidate& candidate) {
    const auto binding = next_binding(candidate, options, spread, tested % 2 == 1);
    if (!binding) return false;
    const std::string where = binding_text(equation, *binding);
    const std::uint64_t seed = options.seed + tested;
    ++tested;
    try {
      const tensor::Graph lhs = lhs_graph(equation, *binding);
      const tensor::Graph rhs = rhs_graph(equation, *binding, lhs);
      for (const bool integers : {true, false}) {
        auto inputs = integers ? integer_inputs(lhs, seed) : tensor::random_inputs(lhs, seed);
        for (auto& [name, value] :
             integers ? integer_inputs(rhs, seed) : tensor::random_inputs(rhs, seed))
          inputs.emplace(name, std::move(value));  // variables only the right side uses
        const std::vector<tensor::Tensor> left = tensor::interpret(lhs, inputs);
        const Difference d = compare(left, tensor::interpret(rhs, inputs));
        if (!d.shape_mismatch.empty()) {
          failure = finish(Verdict::kFail, fmt::format("for {}: {}", where, d.shape_mismatch));
          return true;
        }
        // Integer inputs give exact results unless an operator rounds (tanh, averages...).
        if (d.relative > (integers ? 1e-9 : options.tolerance)) {
          failure = finish(
              Verdict::kFail,
              fmt::format("the sides differ for {} with {} inputs (seed {}): output {} element {}"
                          " is {:.6g} on the left, {:.6g} on the right (largest difference {:.6g},"
                          " relative {:.3g}){}",
                          where, integers ? "integer" : "real", seed, d.output,
                          index_text(left[d.output].shape, d.element), d.left, d.right, d.largest,
                          d.relative, inputs_text(inputs)));
          return true;
        }
      }
    } catch (const Error& e) {
      failure = finish(Verdict::kFail,
                       fmt::format("for {} Z3 found the sides well-formed but the graph builder "
                                   "disagrees: {}",
                                   where, e.what()));
    }
    return true;
  };

  // First one assignment per rank combination, then more from the same combinations.
  while (tested < options.samples && !failure) {
    Candidate* candidate = next_candidate();
    if (candidate == nullptr) break;
    test(*candidate);
  }
  bool progress = true;
  while (tested < options.samples && !failure && progress) {
    progress = false;
    for (std::size_t c = 0; c < candidates.size() && tested < options.samples && !failure; ++c)
      if (!candidates[c].exhausted) progress = test(candidates[c]) || progress;
  }
  if (failure) return *failure;
  if (tested == 0)
    return finish(Verdict::kUnknown, candidates.empty()
                                         ? "no rank combination makes both sides well-formed"
                                         : "no concrete assignment found within the bounds");
  return finish(Verdict::kPass, fmt::format("{} assignment{} agree on integer and real inputs",
                                            tested, tested == 1 ? "" : "s"));
}

}  // namespace mctsat::verify
