// Pair terms and joined terms for two-output rules (see pair_terms.hpp).
#include "synth/pair_terms.hpp"

namespace mctsat::synth {
namespace {

std::vector<std::size_t> choices_of(const SynthesisVocabulary& vocabulary, tensor::Op op) {
  std::vector<std::size_t> out;
  for (std::size_t c = 0; c < vocabulary.choices.size(); ++c)
    if (vocabulary.choices[c].op == op) out.push_back(c);
  return out;
}

// Whether two variable terms have the same shape in every shape instance.
bool shapes_agree(const TermPool& pool, TermId x, TermId y) {
  const GraphTerm& a = pool.term(x);
  const GraphTerm& b = pool.term(y);
  if (a.choice != GraphTerm::kVariable || b.choice != GraphTerm::kVariable) return false;
  const SynthesisVocabulary& vocabulary = pool.vocabulary();
  for (std::size_t i = 0; i < vocabulary.instances.size(); ++i)
    if (vocabulary.shape(a.variable, i) != vocabulary.shape(b.variable, i)) return false;
  return true;
}

}  // namespace

std::vector<TermPair> pair_terms(TermPool& pool, const std::vector<TermId>& singles) {
  const auto concats = choices_of(pool.vocabulary(), tensor::Op::kConcat);
  std::vector<TermPair> out;
  if (concats.empty()) return out;
  for (std::size_t i = 0; i < singles.size(); ++i)
    for (std::size_t j = i + 1; j < singles.size(); ++j) {
      const GraphTerm& a = pool.term(singles[i]);
      const GraphTerm& b = pool.term(singles[j]);
      if (a.choice == GraphTerm::kVariable || a.choice != b.choice) continue;
      TermPair pair{singles[i], singles[j], {}};
      for (std::size_t c : concats) pair.concats.push_back(pool.apply(c, {pair.a, pair.b}));
      out.push_back(std::move(pair));
    }
  return out;
}

std::vector<TermId> joined_terms(TermPool& pool, const TermPair& pair) {
  const SynthesisVocabulary& vocabulary = pool.vocabulary();
  const auto concats = choices_of(vocabulary, tensor::Op::kConcat);
  const auto enlarges = choices_of(vocabulary, tensor::Op::kEnlarge);
  const std::vector<TermId> a_args = pool.term(pair.a).args;
  const std::vector<TermId> b_args = pool.term(pair.b).args;
  // The ways to pass each argument position: the shared argument, or the two concatenated.
  std::vector<std::vector<TermId>> options(a_args.size());
  for (std::size_t i = 0; i < a_args.size(); ++i) {
    const TermId x = a_args[i], y = b_args[i];
    if (x == y) {
      options[i] = {x};
      continue;
    }
    // Enlarging a kernel to one of its own size changes nothing: only for sizes that differ.
    const bool same_shapes = shapes_agree(pool, x, y);
    for (std::size_t c : concats) {
      options[i].push_back(pool.apply(c, {x, y}));
      for (std::size_t e : same_shapes ? std::vector<std::size_t>{} : enlarges) {
        options[i].push_back(pool.apply(c, {pool.apply(e, {x, y}), y}));
        options[i].push_back(pool.apply(c, {x, pool.apply(e, {y, x})}));
      }
    }
  }
  std::vector<TermId> out;
  std::vector<TermId> args;
  auto choose = [&](auto&& self, std::size_t position) -> void {
    if (position == options.size()) {
      out.push_back(pool.apply(pool.term(pair.a).choice, args));
      return;
    }
    for (TermId option : options[position]) {
      args.push_back(option);
      self(self, position + 1);
      args.pop_back();
    }
  };
  choose(choose, 0);
  return out;
}

}  // namespace mctsat::synth
